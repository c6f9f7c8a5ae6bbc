import { describe, expect, it } from 'vitest';
import { AttachmentTray, MAX_IMAGES, fitImage } from './attachments';

const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const reader = async (f: File) => `data:image/png;base64,${btoa(f.name)}`;

describe('AttachmentTray', () => {
  it('adds images as thumbnails with remove buttons, at most six', async () => {
    const tray = new AttachmentTray(() => {}, reader);
    expect(tray.el.hidden).toBe(true);
    const added = await tray.add([png('a'), new File(['x'], 'notes.txt', { type: 'text/plain' }), png('b')]);
    expect(added).toBe(2);
    expect(tray.el.hidden).toBe(false);
    expect(tray.el.querySelectorAll('.thumb')).toHaveLength(2);
    expect(tray.images).toEqual([`data:image/png;base64,${btoa('a')}`, `data:image/png;base64,${btoa('b')}`]);
    await tray.add(Array.from({ length: 10 }, (_, i) => png(`n${i}`)));
    expect(tray.count).toBe(MAX_IMAGES);
    (tray.el.querySelectorAll('.thumb-remove')[0] as HTMLButtonElement).click();
    expect(tray.count).toBe(MAX_IMAGES - 1);
    expect(tray.images[0]).toBe(`data:image/png;base64,${btoa('b')}`);
    tray.clear();
    expect(tray.count).toBe(0);
    expect(tray.el.hidden).toBe(true);
  });

  it('skips an image it cannot read', async () => {
    const tray = new AttachmentTray(() => {}, async () => { throw new Error('bad'); });
    const orig = console.warn;
    console.warn = () => {};
    expect(await tray.add([png('a')])).toBe(0);
    console.warn = orig;
    expect(tray.count).toBe(0);
  });

  it('passes small images through unchanged', async () => {
    const small = 'data:image/png;base64,AAAA';
    expect(await fitImage(small)).toBe(small);
  });
});
