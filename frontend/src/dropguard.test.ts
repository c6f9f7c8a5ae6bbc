import { beforeEach, describe, expect, it } from 'vitest';
import { guardDrops } from './dropguard';

guardDrops(window);

/** A drag event carrying the given data (happy-dom's DragEvent takes no
 * DataTransfer, so a minimal one is attached). */
function drag(type: string, data: Record<string, string>, files = false): DragEvent {
  const e = new Event(type, { bubbles: true, cancelable: true }) as DragEvent;
  const types = [...Object.keys(data), ...(files ? ['Files'] : [])];
  // As in a browser: during dragenter/dragover only the types can be read.
  const readable = type === 'drop';
  const dt = { types, dropEffect: 'copy', getData: (t: string) => (readable ? data[t] ?? '' : ''), files: [] } as unknown as DataTransfer;
  Object.defineProperty(e, 'dataTransfer', { value: dt });
  return e;
}

const link = { 'text/uri-list': 'http://evil.example/x', 'text/plain': 'http://evil.example/x' };

describe('guardDrops', () => {
  beforeEach(() => {
    document.body.innerHTML = '<div id="pet"><img id="face"></div><input id="line" type="text" value="hi "><input id="n" type="number"><textarea id="ta" readonly></textarea>';
  });

  it('cancels a link dragged over or dropped anywhere, and takes nothing', () => {
    for (const t of ['dragenter', 'dragover', 'drop']) {
      const e = drag(t, link);
      document.getElementById('face')!.dispatchEvent(e);
      expect(e.defaultPrevented, t).toBe(true);
      if (t !== 'drop') expect(e.dataTransfer!.dropEffect).toBe('none');
    }
    const e = drag('drop', link);
    document.body.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
  });

  it('cancels files too, before the page sees them', () => {
    const seen: boolean[] = [];
    const pet = document.getElementById('pet')!;
    pet.addEventListener('drop', (e) => seen.push(e.defaultPrevented));
    const e = drag('drop', {}, true);
    pet.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    expect(seen).toEqual([true]); // the page's handler runs after the guard
  });

  it('puts dropped text into the text field it lands on, as typing would', () => {
    const line = document.getElementById('line') as HTMLInputElement;
    line.setSelectionRange(3, 3);
    let inputs = 0;
    line.addEventListener('input', () => inputs++);
    const over = drag('dragover', link);
    line.dispatchEvent(over);
    expect(over.dataTransfer!.dropEffect).toBe('copy');
    const e = drag('drop', link);
    line.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    expect(line.value).toBe('hi http://evil.example/x');
    expect(inputs).toBe(1);
  });

  it('puts nothing into read-only or non-text fields, nor text that comes with files', () => {
    const n = document.getElementById('n') as HTMLInputElement;
    const ta = document.getElementById('ta') as HTMLTextAreaElement;
    n.dispatchEvent(drag('drop', { 'text/plain': '12' }));
    ta.dispatchEvent(drag('drop', { 'text/plain': 'x' }));
    const line = document.getElementById('line') as HTMLInputElement;
    line.dispatchEvent(drag('drop', { 'text/plain': 'x' }, true));
    expect(n.value).toBe('');
    expect(ta.value).toBe('');
    expect(line.value).toBe('hi ');
  });
});
