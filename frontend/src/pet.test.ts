import { beforeEach, describe, expect, it } from 'vitest';
import { PetView, type PetHost } from './pet';
import type { PageMessage } from './protocol';
import type { Scheduler } from './character';
import { BLINK_MIN_MS, BLINK_MS, BLINK_SPREAD_MS } from './character';

class FakeScheduler implements Scheduler {
  now = 0;
  private next = 1;
  timers = new Map<number, { at: number; fn: () => void }>();
  setTimeout(fn: () => void, ms: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(id: number): void {
    this.timers.delete(id);
  }
  random(): number {
    return 0.5;
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= end && (!due || e[1].at < due[1].at)) due = e;
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = end;
  }
}

function setup() {
  const sent: PageMessage[] = [];
  const regions: unknown[] = [];
  const host: PetHost = {
    send: (m) => {
      sent.push(m);
      return true;
    },
    setInputRegion: (r) => regions.push(r),
    windowPosition: async () => ({ x: 10, y: 20 }),
    moveWindow: () => {},
  };
  const sched = new FakeScheduler();
  const view = new PetView(host, sched);
  view.mount(document.body);
  return { view, sent, regions, sched };
}

const q = <T extends Element>(sel: string) => document.querySelector(sel) as T;

function key(el: Element, k: string, shift = false) {
  el.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey: shift, bubbles: true, cancelable: true }));
}

function click(el: Element) {
  el.dispatchEvent(new PointerEvent('pointerdown', { button: 0, bubbles: true, screenX: 100, screenY: 100 }));
  el.dispatchEvent(new PointerEvent('pointerup', { button: 0, bubbles: true, screenX: 100, screenY: 100 }));
}

describe('PetView', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('shows the plate the core sends and hides it when empty', () => {
    const { view } = setup();
    const plate = q<HTMLElement>('.plate');
    expect(plate.hidden).toBe(true);
    view.apply({ type: 'plate', kind: 'connection', text: 'not connected' });
    expect(plate.hidden).toBe(false);
    expect(plate.textContent).toContain('not connected');
    view.apply({ type: 'plate', kind: 'connection', text: 'wrong key', action: 'reconnect' });
    expect(q<HTMLButtonElement>('.plate-action').hidden).toBe(false);
    view.apply({ type: 'plate', kind: '', text: '' });
    expect(plate.hidden).toBe(true);
  });

  it('opens the composer on a click of the character and sends on Enter', () => {
    const { view, sent } = setup();
    expect(view.composerOpen).toBe(false);
    click(view.character.el);
    expect(view.composerOpen).toBe(true);
    const input = q<HTMLTextAreaElement>('.composer-input');
    input.value = '  hello Yui  ';
    key(input, 'Enter');
    expect(sent).toEqual([{ type: 'send_text', text: 'hello Yui' }]);
    expect(input.value).toBe('');
  });

  it('keeps Shift+Enter for a newline and ignores empty lines', () => {
    const { view, sent } = setup();
    view.openComposer();
    const input = q<HTMLTextAreaElement>('.composer-input');
    input.value = 'line one';
    key(input, 'Enter', true);
    expect(sent).toEqual([]);
    input.value = '   ';
    key(input, 'Enter');
    expect(sent).toEqual([]);
  });

  it('closes the composer on Escape and toggles on a second click', () => {
    const { view } = setup();
    view.openComposer();
    key(q('.composer-input'), 'Escape');
    expect(view.composerOpen).toBe(false);
    click(view.character.el);
    click(view.character.el);
    expect(view.composerOpen).toBe(false);
  });

  it('turns send into stop while locked', () => {
    const { view, sent } = setup();
    view.openComposer();
    view.apply({ type: 'composer', locked: true });
    const btn = q<HTMLButtonElement>('.composer-send');
    expect(btn.textContent).toBe('Stop');
    expect(q<HTMLTextAreaElement>('.composer-input').disabled).toBe(true);
    q<HTMLFormElement>('.composer').dispatchEvent(new Event('submit', { cancelable: true }));
    expect(sent).toEqual([{ type: 'stop' }]);
    view.apply({ type: 'composer', locked: false });
    expect(btn.textContent).toBe('Send');
  });

  it('shows the composer error line and the notice, and dismisses the notice', () => {
    const { view, sent } = setup();
    view.apply({ type: 'error_line', text: 'Not connected', where: 'composer' });
    expect(q<HTMLElement>('.composer-error').hidden).toBe(false);
    expect(q<HTMLElement>('.composer-error').textContent).toBe('Not connected');
    view.apply({ type: 'error_line', text: 'for the pill', where: 'pill' });
    expect(q<HTMLElement>('.composer-error').textContent).toBe('Not connected');
    view.apply({ type: 'notice', id: 'settings_bad', text: 'Your settings file could not be used' });
    expect(q<HTMLElement>('.notice').hidden).toBe(false);
    q<HTMLButtonElement>('.notice-close').click();
    expect(sent).toEqual([{ type: 'dismiss', id: 'settings_bad' }]);
  });

  it('a press that moves past the threshold drags instead of opening the composer', async () => {
    const moves: Array<[number, number]> = [];
    const host: PetHost = {
      send: () => true,
      setInputRegion: () => {},
      windowPosition: async () => ({ x: 10, y: 20 }),
      moveWindow: (x, y) => moves.push([x, y]),
    };
    const view = new PetView(host, new FakeScheduler());
    view.mount(document.body);
    const el = view.character.el;
    el.dispatchEvent(new PointerEvent('pointerdown', { button: 0, screenX: 100, screenY: 100 }));
    await Promise.resolve();
    await Promise.resolve();
    el.dispatchEvent(new PointerEvent('pointermove', { screenX: 130, screenY: 90 }));
    expect(el.dataset.motion).toBe('drag');
    el.dispatchEvent(new PointerEvent('pointerup', { screenX: 130, screenY: 90 }));
    expect(moves).toEqual([[40, 10]]);
    expect(view.composerOpen).toBe(false);
    expect(el.dataset.motion).toBe('idle');
  });

  it('idles with exactly one timer: a blink every few seconds', () => {
    const { view, sched } = setup();
    expect(sched.timers.size).toBe(1);
    const first = BLINK_MIN_MS + 0.5 * BLINK_SPREAD_MS;
    sched.advance(first - 1);
    expect(view.character.el.classList.contains('blink')).toBe(false);
    sched.advance(1);
    expect(view.character.el.classList.contains('blink')).toBe(true);
    sched.advance(BLINK_MS);
    expect(view.character.el.classList.contains('blink')).toBe(false);
    expect(sched.timers.size).toBe(1);
    view.character.stop();
    expect(sched.timers.size).toBe(0);
  });

  it('reports the visible parts as the click region', async () => {
    const { view, regions } = setup();
    await Promise.resolve();
    const before = regions.length;
    view.openComposer();
    await Promise.resolve();
    expect(regions.length).toBe(before + 1);
  });
});
