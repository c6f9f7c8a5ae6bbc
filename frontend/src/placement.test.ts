// The pet page's parts of issue 16's "Where she is" and "Keyboard":
// Reset position in the menu, Shift+F10 and the Menu key, the global
// shortcut's open_composer, the built-in looks and a look folder's art.
import { beforeEach, describe, expect, it } from 'vitest';
import { PetView, type PetHost } from './pet';
import type { PageMessage } from './protocol';
import { FakeMotion, FakeScheduler } from './test-helpers';
import { EMOTIONS, LOOKS } from './character';

function setup() {
  const sent: PageMessage[] = [];
  const host: PetHost = {
    send: (m) => {
      sent.push(m);
      return true;
    },
    setInputRegion: () => {},
    windowPosition: async () => ({ x: 10, y: 20 }),
    moveWindow: () => {},
  };
  const view = new PetView(host, new FakeScheduler(), { motion: new FakeMotion() });
  view.mount(document.body);
  return { view, sent };
}

const q = <T extends Element>(sel: string) => document.querySelector(sel) as T;
const key = (k: string, shift = false) =>
  document.body.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey: shift, bubbles: true, cancelable: true }));

describe('where she is and the keyboard', () => {
  beforeEach(() => {
    document.body.replaceChildren();
  });

  it('Reset position in the menu asks the core', () => {
    const { view, sent } = setup();
    view.apply({ type: 'desktop', voices_muted: false, start_at_login: false, start_at_login_available: true });
    const item = q<HTMLButtonElement>('.pet-menu-item[data-action="reset-position"]');
    expect(item.textContent).toBe('Reset position');
    view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    expect(view.menuOpen).toBe(true);
    item.click();
    expect(sent).toContainEqual({ type: 'desktop_action', action: 'reset_position' });
    expect(view.menuOpen).toBe(false);
  });

  it('Shift+F10 and the Menu key open the menu', () => {
    const { view } = setup();
    key('F10', true);
    expect(view.menuOpen).toBe(true);
    key('Escape');
    expect(view.menuOpen).toBe(false);
    key('F10'); // without Shift: nothing
    expect(view.menuOpen).toBe(false);
    key('ContextMenu');
    expect(view.menuOpen).toBe(true);
  });

  it('open_composer (the global shortcut) opens and focuses the composer', () => {
    const { view } = setup();
    expect(view.composerOpen).toBe(false);
    view.apply({ type: 'open_composer' });
    expect(view.composerOpen).toBe(true);
    expect(document.activeElement).toBe(q('.composer textarea, .composer input'));
  });

  it('draws the preset\'s built-in look, each with all ten emotions', () => {
    const { view } = setup();
    expect(Object.keys(LOOKS).length).toBeGreaterThanOrEqual(3);
    const fills = new Set<string>();
    for (const look of Object.keys(LOOKS)) {
      view.apply({ type: 'preset', id: 'p1', name: 'Yui', look });
      const el = view.character.el;
      expect(el.dataset.look).toBe(look);
      fills.add(el.querySelector('.body path')!.getAttribute('fill')!);
      for (const e of Object.keys(EMOTIONS)) {
        view.apply({ type: 'character', emotion: e, motion: 'idle', speaking: false });
        const shown = [...el.querySelectorAll('[data-part="eyes"] > [data-v]')].filter((g) => g.getAttribute('display') === 'inline');
        expect(shown.length, `${look}/${e}`).toBe(1);
      }
    }
    expect(fills.size).toBe(Object.keys(LOOKS).length); // distinct outfits
    view.apply({ type: 'preset', id: 'p1', name: 'Yui', look: 'from-a-newer-version' });
    expect(view.character.el.dataset.look).toBe('yui');
  });

  it('shows a look folder\'s art as an image per emotion, and only data: SVGs', () => {
    const { view } = setup();
    const url = (e: string) => `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg"><title>${e}</title></svg>`)}`;
    const emotions = Object.fromEntries(Object.keys(EMOTIONS).map((e) => [e, url(e)]));
    view.apply({ type: 'look_art', look: 'mine', emotions });
    const img = () => view.character.el.querySelector<HTMLImageElement>('img.look-art');
    expect(img()!.getAttribute('src')).toBe(url('neutral'));
    expect(view.character.el.querySelector('svg')!.getAttribute('display')).toBe('none');
    view.apply({ type: 'character', emotion: 'happy', motion: 'idle', speaking: false });
    expect(img()!.getAttribute('src')).toBe(url('happy'));
    // Something that is not a data: SVG is never loaded.
    view.apply({ type: 'look_art', look: 'mine', emotions: { ...emotions, sad: 'https://example.com/x.svg' } });
    view.apply({ type: 'character', emotion: 'sad', motion: 'idle', speaking: false });
    expect(img()!.getAttribute('src')).toBe(url('happy'));
    // Back to a built-in look.
    view.apply({ type: 'look_art', look: 'yui', emotions: null });
    expect(img()).toBeNull();
    expect(view.character.el.querySelector('svg')!.hasAttribute('display')).toBe(false);
  });
});
