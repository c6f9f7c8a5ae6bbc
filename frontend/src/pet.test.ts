import { beforeEach, describe, expect, it } from 'vitest';
import { PetView, type PetHost } from './pet';
import type { PageMessage } from './protocol';
import { FakeMotion, FakeScheduler } from './test-helpers';
import { BLINK_MIN_MS, BLINK_MS, BLINK_SPREAD_MS } from './character';
import { BUBBLE_HIDE_MS } from './bubble';

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
  const view = new PetView(host, sched, { motion: new FakeMotion() });
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

  it('shows why the connection failed and opens settings at the backend from its button', () => {
    const { view, sent } = setup();
    view.apply({ type: 'plate', kind: 'connection', text: 'reconnecting in 4 s', action: 'reconnect', settings: true,
      cause: 'This server does not speak the push protocol (HTTP 404 on upgrade) — is it an OpenAI-compatible server? Choose its API in Settings.' });
    expect(q<HTMLElement>('.plate').textContent).toContain('reconnecting in 4 s');
    expect(q<HTMLElement>('.plate-cause').hidden).toBe(false);
    q<HTMLButtonElement>('.plate-cause-settings').click();
    expect(sent).toEqual([{ type: 'open_settings', section: 'backend' }]);
    view.apply({ type: 'plate', kind: '', text: '' });
    expect(q<HTMLElement>('.plate-cause').hidden).toBe(true);
  });

  it('sends what the plate action names: reconnect, a new thread, settings', () => {
    const { view, sent } = setup();
    const btn = q<HTMLButtonElement>('.plate-action');
    view.apply({ type: 'plate', kind: 'connection', text: 'thread deleted', action: 'reset' });
    expect(btn.textContent).toBe('New thread');
    btn.click();
    view.apply({ type: 'plate', kind: 'connection', text: 'agent not found', action: 'settings' });
    btn.click();
    view.apply({ type: 'plate', kind: 'connection', text: 'key refused', action: 'reconnect' });
    expect(btn.textContent).toBe('Reconnect');
    btn.click();
    expect(sent.filter((m) => ['reset', 'reconnect', 'open_settings'].includes(m.type))).toEqual([
      { type: 'reset' }, { type: 'open_settings', section: 'backend' }, { type: 'reconnect' }]);
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
    view.apply({ type: 'composer', locked: true }); // the core accepted the turn
    expect(input.value).toBe('');
  });

  it('keeps the typed text and images until the core accepts the turn', async () => {
    const sent: PageMessage[] = [];
    const host: PetHost = { send: (m) => (sent.push(m), true), setInputRegion: () => {}, windowPosition: async () => null, moveWindow: () => {} };
    const sched = new FakeScheduler();
    const view = new PetView(host, sched, { motion: new FakeMotion(), readImage: async () => 'data:image/png;base64,QQ==' });
    view.mount(document.body);
    await view.tray.add([new File(['a'], 'a.png', { type: 'image/png' })]);
    view.openComposer();
    const input = q<HTMLTextAreaElement>('.composer-input');
    input.value = 'look at this';
    key(input, 'Enter');
    expect(sent).toHaveLength(1);
    // Written to the socket, not yet accepted: everything stays.
    expect(input.value).toBe('look at this');
    expect(view.tray.count).toBe(1);
    // A repeated Enter before the core answers does not send it twice.
    key(input, 'Enter');
    expect(sent).toHaveLength(1);
    view.apply({ type: 'composer', locked: true });
    expect(input.value).toBe('');
    expect(view.tray.count).toBe(0);
  });

  it('keeps the text and images when the core refuses the line, for a fix and resend', async () => {
    const sent: PageMessage[] = [];
    const host: PetHost = { send: (m) => (sent.push(m), true), setInputRegion: () => {}, windowPosition: async () => null, moveWindow: () => {} };
    const view = new PetView(host, new FakeScheduler(), { motion: new FakeMotion(), readImage: async () => 'data:image/png;base64,QQ==' });
    view.mount(document.body);
    await view.tray.add([new File(['a'], 'a.png', { type: 'image/png' })]);
    view.openComposer();
    const input = q<HTMLTextAreaElement>('.composer-input');
    input.value = 'what is this?';
    key(input, 'Enter');
    view.apply({ type: 'error_line', text: 'Image 1 could not be attached: not an image.', where: 'composer' });
    expect(input.value).toBe('what is this?');
    expect(view.tray.count).toBe(1);
    expect(q<HTMLElement>('.composer-error').hidden).toBe(false);
    // The refusal answered the send: a resend goes at once, and a later
    // lock (of that resend) clears the composer.
    key(input, 'Enter');
    expect(sent).toHaveLength(2);
    view.apply({ type: 'error_line', text: '', where: 'composer' });
    view.apply({ type: 'composer', locked: true });
    expect(input.value).toBe('');
    expect(view.tray.count).toBe(0);
  });

  it('keeps the text when the turn is refused with a failure line (no connection)', () => {
    const { view, sent } = setup();
    view.openComposer();
    const input = q<HTMLTextAreaElement>('.composer-input');
    input.value = 'are you there?';
    key(input, 'Enter');
    expect(sent).toHaveLength(1);
    view.apply({ type: 'bubble', seq: 1, turn_id: 't1', kind: 'failure', text: "I can't reach my brain right now.", speaking: false, muted: false });
    expect(input.value).toBe('are you there?');
    // The failure settled the send: a lock of some later turn (e.g. a
    // spoken one) does not take the refused text away.
    view.apply({ type: 'composer', locked: true });
    expect(input.value).toBe('are you there?');
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

  it('closes a locked composer on Escape too (its input is disabled)', () => {
    const { view } = setup();
    view.openComposer();
    view.apply({ type: 'composer', locked: true });
    key(document.body, 'Escape');
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
    const view = new PetView(host, new FakeScheduler(), { motion: new FakeMotion() });
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

  it('a drag made before the window position answers still moves the window, and is reported moved', async () => {
    // A quick flick on a busy machine: every move and the release come
    // before windowPosition resolves.
    const moves: Array<[number, number]> = [];
    let moved = 0;
    let answer: (p: { x: number; y: number }) => void = () => {};
    const host: PetHost = {
      send: () => true,
      setInputRegion: () => {},
      windowPosition: () => new Promise((res) => { answer = res; }),
      moveWindow: (x, y) => moves.push([x, y]),
      windowMoved: () => { moved++; },
    };
    const view = new PetView(host, new FakeScheduler(), { motion: new FakeMotion() });
    view.mount(document.body);
    const el = view.character.el;
    el.dispatchEvent(new PointerEvent('pointerdown', { button: 0, screenX: 100, screenY: 100 }));
    el.dispatchEvent(new PointerEvent('pointermove', { screenX: 130, screenY: 90 }));
    el.dispatchEvent(new PointerEvent('pointermove', { screenX: 160, screenY: 140 }));
    el.dispatchEvent(new PointerEvent('pointerup', { screenX: 160, screenY: 140 }));
    expect(moves).toEqual([]);
    expect(moved).toBe(0);
    answer({ x: 10, y: 20 });
    await Promise.resolve();
    await Promise.resolve();
    expect(moves).toEqual([[70, 60]]);
    expect(moved).toBe(1);
    expect(view.composerOpen).toBe(false);
  });

  it('moves made while the position is asked for are caught up when it answers', async () => {
    const moves: Array<[number, number]> = [];
    let moved = 0;
    let answer: (p: { x: number; y: number }) => void = () => {};
    const host: PetHost = {
      send: () => true,
      setInputRegion: () => {},
      windowPosition: () => new Promise((res) => { answer = res; }),
      moveWindow: (x, y) => moves.push([x, y]),
      windowMoved: () => { moved++; },
    };
    const view = new PetView(host, new FakeScheduler(), { motion: new FakeMotion() });
    view.mount(document.body);
    const el = view.character.el;
    el.dispatchEvent(new PointerEvent('pointerdown', { button: 0, screenX: 100, screenY: 100 }));
    el.dispatchEvent(new PointerEvent('pointermove', { screenX: 130, screenY: 90 }));
    answer({ x: 10, y: 20 });
    await Promise.resolve();
    await Promise.resolve();
    expect(moves).toEqual([[40, 10]]);
    el.dispatchEvent(new PointerEvent('pointermove', { screenX: 140, screenY: 95 }));
    el.dispatchEvent(new PointerEvent('pointerup', { screenX: 140, screenY: 95 }));
    expect(moves).toEqual([[40, 10], [50, 15]]);
    expect(moved).toBe(1);
  });

  it('idles with exactly one timer: a blink every few seconds', () => {
    const { view, sched } = setup();
    expect(sched.timers.size).toBe(1);
    const first = BLINK_MIN_MS + 0.5 * BLINK_SPREAD_MS;
    sched.advance(first - 1);
    expect(view.character.blinking).toBe(false);
    sched.advance(1);
    expect(view.character.blinking).toBe(true);
    sched.advance(BLINK_MS);
    expect(view.character.blinking).toBe(false);
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

  it('after a whole reply, idles again with only the blink timer', () => {
    const { view, sched } = setup();
    view.apply({ type: 'composer', locked: true });
    view.apply({ type: 'plate', kind: 'thinking', text: 'Thinking' });
    view.apply({ type: 'character', emotion: 'thinking', motion: 'thinking', speaking: false });
    view.apply({ type: 'character', emotion: 'happy', motion: 'happy', speaking: true });
    view.apply({ type: 'bubble', seq: 1, turn_id: 't1', kind: 'speech', text: 'Hello there!', speaking: true, muted: false });
    expect(view.character.mouthMoving).toBe(true);
    expect(view.character.moving).toBe(true);
    expect(sched.timers.size).toBe(3); // blink + mouth + the motion's frame clock
    sched.advance(700);
    view.apply({ type: 'character', emotion: 'neutral', motion: 'idle', speaking: false });
    view.apply({ type: 'bubble', seq: 2, turn_id: 't1', kind: 'speech', text: 'Hello there!', speaking: false, muted: false });
    view.apply({ type: 'composer', locked: false });
    view.apply({ type: 'plate', kind: '', text: '' });
    // The mouth timer is gone at once; the bubble's hide timer is the only other one.
    expect(view.character.mouthMoving).toBe(false);
    expect(view.pendingTimers).toBe(2);
    sched.advance(4000);
    expect(view.bubble.visible).toBe(false);
    expect(view.pendingTimers).toBe(1);
    expect(sched.timers.size).toBe(1); // only the blink
    expect(view.character.el.dataset.emotion).toBe('neutral');
  });

  it('exposes emotion, motion and speaking on .character', () => {
    const { view } = setup();
    view.apply({ type: 'character', emotion: 'surprised', motion: 'laugh', speaking: true });
    const el = q<HTMLElement>('.character');
    expect(el.dataset.emotion).toBe('surprised');
    expect(el.dataset.motion).toBe('laugh');
    expect(el.dataset.speaking).toBe('true');
    view.apply({ type: 'character', emotion: 'grumpy', motion: 'backflip', speaking: false });
    expect(el.dataset.emotion).toBe('neutral');
    expect(el.dataset.motion).toBe('idle');
  });

  it('shows the pill, chip, usage and reasoning the core sends', () => {
    const { view } = setup();
    view.apply({ type: 'pill', tool: { tool_id: 'read_file', state: 'running', label: 'read_file' }, error: '' });
    expect(q<HTMLElement>('.pill').hidden).toBe(false);
    view.apply({ type: 'delegations', items: [{ id: 'd-1', title: 'Sort', started_at: 0, state: 'running' }] });
    expect(q<HTMLElement>('.chip').hidden).toBe(false);
    view.apply({ type: 'usage', total_tokens: 2048, context_window: 8192 });
    expect(q<HTMLElement>('.usage').textContent).toBe('2k / 8.2k');
    view.apply({ type: 'reasoning', turn_id: 't', text: 'hm', streaming: true });
    expect(q<HTMLElement>('.reasoning').hidden).toBe(false);
  });

  it('moves the usage readout above the open composer, and back under her when it closes', () => {
    const { view } = setup();
    view.apply({ type: 'usage', total_tokens: 1342, context_window: 128000 });
    const usage = q<HTMLElement>('.usage');
    expect(usage.parentElement).toBe(q('.pet'));
    view.openComposer();
    expect(usage.parentElement).toBe(q('.status-row'));
    expect(usage.hidden).toBe(false);
    view.closeComposer();
    expect(usage.parentElement).toBe(q('.pet'));
    expect(usage.textContent).toBe('1.3k / 128k');
  });

  it('shows the ended thoughts only beside a bubble, not alone in the sky', () => {
    const { view, sched } = setup();
    const thoughts = () => q<HTMLElement>('.reasoning');
    view.apply({ type: 'reasoning', turn_id: 't', text: 'Let me think.', streaming: true });
    expect(thoughts().hidden).toBe(false); // thinking…, before any bubble
    view.apply({ type: 'reasoning', turn_id: 't', text: 'Let me think.', streaming: false });
    expect(thoughts().hidden).toBe(true); // ended, no bubble: nothing to go with
    view.apply({ type: 'bubble', seq: 1, turn_id: 't', kind: 'speech', text: 'Hello!', speaking: true, muted: false });
    expect(thoughts().hidden).toBe(false);
    view.apply({ type: 'bubble', seq: 1, turn_id: 't', kind: 'speech', text: 'Hello!', speaking: false, muted: false });
    sched.advance(BUBBLE_HIDE_MS);
    expect(q<HTMLElement>('.bubble').hidden).toBe(true);
    expect(thoughts().hidden).toBe(true); // went with the bubble
    // Opened while the bubble shows, it stays open after it.
    view.apply({ type: 'bubble', seq: 2, turn_id: 't', kind: 'speech', text: 'Again.', speaking: false, muted: false });
    q<HTMLButtonElement>('.reasoning-toggle').click();
    sched.advance(BUBBLE_HIDE_MS);
    expect(q<HTMLElement>('.bubble').hidden).toBe(true);
    expect(thoughts().hidden).toBe(false);
    q<HTMLButtonElement>('.reasoning-toggle').click(); // closed: nothing left beside it
    expect(thoughts().hidden).toBe(true);
  });

  it('sends attached images with the typed line and clears them', async () => {
    const sent: PageMessage[] = [];
    const host: PetHost = { send: (m) => (sent.push(m), true), setInputRegion: () => {}, windowPosition: async () => null, moveWindow: () => {} };
    const view = new PetView(host, new FakeScheduler(), { motion: new FakeMotion(), readImage: async (f) => `data:${f.type};base64,QQ==` });
    view.mount(document.body);
    await view.tray.add([new File(['a'], 'a.png', { type: 'image/png' })]);
    view.openComposer();
    const input = q<HTMLTextAreaElement>('.composer-input');
    input.value = 'what is this?';
    key(input, 'Enter');
    expect(sent).toEqual([{ type: 'send_text', text: 'what is this?', images: ['data:image/png;base64,QQ=='] }]);
    view.apply({ type: 'composer', locked: true });
    expect(view.tray.count).toBe(0);
    view.apply({ type: 'composer', locked: false });
    // Images alone may be sent.
    await view.tray.add([new File(['b'], 'b.png', { type: 'image/png' })]);
    key(input, 'Enter');
    expect(sent[1]).toEqual({ type: 'send_text', text: '', images: ['data:image/png;base64,QQ=='] });
  });

  it('attaches pasted images and opens the composer for dropped ones', async () => {
    const view = new PetView({ send: () => true, setInputRegion: () => {}, windowPosition: async () => null, moveWindow: () => {} },
      new FakeScheduler(), { motion: new FakeMotion(), readImage: async () => 'data:image/png;base64,QQ==' });
    view.mount(document.body);
    const file = new File(['a'], 'a.png', { type: 'image/png' });
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [file], types: ['Files'] } });
    view.root.dispatchEvent(drop);
    expect(view.composerOpen).toBe(true);
    expect(drop.defaultPrevented).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(view.tray.count).toBe(1);
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(paste, 'clipboardData', { value: { files: [file] } });
    q('.composer-input').dispatchEvent(paste);
    await new Promise((r) => setTimeout(r, 0));
    expect(view.tray.count).toBe(2);
  });

  it('measures the click region again when a part\'s animation or transition ends', async () => {
    const { view, regions } = setup();
    // The bubble pops in scaled 0.96 and shifted 4 px: its first box is short.
    let box = { left: 14, top: 24, width: 240, height: 48 };
    const orig = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = function (this: Element) {
      return (this === view.bubble.el ? box : { left: 0, top: 0, width: 0, height: 0 }) as DOMRect;
    };
    try {
      view.apply({ type: 'bubble', seq: 1, turn_id: 't', kind: 'speech', text: 'Hi there', speaking: true, muted: false });
      await Promise.resolve();
      expect(regions.at(-1)).toEqual([{ x: 14, y: 24, w: 240, h: 48 }]);
      box = { left: 10, top: 20, width: 250, height: 50 }; // the animation ended
      view.bubble.el.dispatchEvent(new Event('animationend', { bubbles: true }));
      await Promise.resolve();
      expect(regions.at(-1)).toEqual([{ x: 10, y: 20, w: 250, h: 50 }]);
      box = { left: 8, top: 20, width: 254, height: 50 };
      view.bubble.el.dispatchEvent(new Event('transitionend', { bubbles: true }));
      await Promise.resolve();
      expect(regions.at(-1)).toEqual([{ x: 8, y: 20, w: 254, h: 50 }]);
      // An animation inside a part (a face part fading in) changes no box.
      const n = regions.length;
      view.bubble.el.querySelector('.bubble-text')!.dispatchEvent(new Event('animationend', { bubbles: true }));
      await Promise.resolve();
      expect(regions.length).toBe(n);
    } finally {
      Element.prototype.getBoundingClientRect = orig;
    }
  });

  it('includes the bubble, pill, chip and list in the click region', () => {
    const { view } = setup();
    const n0 = view.visibleRects().length;
    // happy-dom has no layout: give every element a box.
    const orig = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = function () { return { left: 1, top: 2, width: 10, height: 10 } as DOMRect; };
    try {
      const base = view.visibleRects().length;
      view.apply({ type: 'bubble', seq: 1, turn_id: 't', kind: 'speech', text: 'Hi', speaking: true, muted: false });
      view.apply({ type: 'pill', tool: null, error: 'oops' });
      view.apply({ type: 'delegations', items: [{ id: 'd', title: 'T', started_at: 0, state: 'running' }] });
      view.chip.setOpen(true);
      expect(view.visibleRects().length).toBe(base + 4);
    } finally {
      Element.prototype.getBoundingClientRect = orig;
    }
    expect(n0).toBeGreaterThanOrEqual(0);
  });

  it('opens a menu on right-click of the character whose Settings… asks the core for the settings window', () => {
    const { view, sent } = setup();
    const menu = q<HTMLElement>('.pet-menu');
    expect(menu.hidden).toBe(true);
    const e = new MouseEvent('contextmenu', { bubbles: true, cancelable: true, clientX: 120, clientY: 200, button: 2 });
    view.character.el.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    expect(view.menuOpen).toBe(true);
    expect(menu.getAttribute('role')).toBe('menu');
    const item = q<HTMLButtonElement>('.pet-menu-item');
    expect(item.getAttribute('role')).toBe('menuitem');
    expect(item.textContent).toBe('Settings…');
    expect(document.activeElement).toBe(item);
    expect(view.composerOpen).toBe(false);
    item.click();
    expect(sent).toEqual([{ type: 'open_settings' }]);
    expect(view.menuOpen).toBe(false);
  });

  it('shows the tray\'s items in the menu once the core sends their state, and each asks the core', () => {
    const { view, sent } = setup();
    const open = () => view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    const group = q<HTMLElement>('.pet-menu-desktop');
    const item = (a: string) => q<HTMLButtonElement>(`.pet-menu-item[data-action="${a}"]`);
    // Before the core says anything about them (an older core): not shown.
    expect(group.hidden).toBe(true);
    view.apply({ type: 'preset', id: 'p-1', name: 'Mio', look: 'yui' });
    view.apply({ type: 'desktop', voices_muted: false, start_at_login: true, start_at_login_available: true });
    expect(group.hidden).toBe(false);
    expect(item('hide').textContent).toBe('Hide Mio');
    // Her name is for assistive technology; no tooltip over her face and menu.
    expect(view.character.el.getAttribute('aria-label')).toBe('Mio');
    expect(view.character.el.hasAttribute('title')).toBe(false);
    expect(item('mute').getAttribute('role')).toBe('menuitemcheckbox');
    expect(item('mute').getAttribute('aria-checked')).toBe('false');
    expect(item('start-at-login').getAttribute('aria-checked')).toBe('true');
    expect(item('quit').textContent).toBe('Quit Yui');

    const choose = (a: string) => {
      open();
      item(a).click();
      expect(view.menuOpen).toBe(false);
    };
    choose('mute');
    choose('start-at-login');
    choose('hide');
    choose('quit');
    expect(sent).toEqual([
      { type: 'desktop_action', action: 'mute' },
      { type: 'desktop_action', action: 'start_at_login_off' },
      { type: 'desktop_action', action: 'hide' },
      { type: 'desktop_action', action: 'quit' },
    ]);
    // The checks follow the core, not the click.
    expect(item('mute').getAttribute('aria-checked')).toBe('false');
    view.apply({ type: 'desktop', voices_muted: true, start_at_login: false, start_at_login_available: true });
    expect(item('mute').getAttribute('aria-checked')).toBe('true');
    sent.length = 0;
    choose('mute');
    choose('start-at-login');
    expect(sent).toEqual([
      { type: 'desktop_action', action: 'unmute' },
      { type: 'desktop_action', action: 'start_at_login_on' },
    ]);
    // No way to record the choice: no Start at login item.
    view.apply({ type: 'desktop', voices_muted: true, start_at_login: false, start_at_login_available: false });
    expect(item('start-at-login').hidden).toBe(true);
  });

  it('moves through the tray\'s items with the arrow keys too', () => {
    const { view } = setup();
    view.apply({ type: 'desktop', voices_muted: false, start_at_login: false, start_at_login_available: false });
    view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    const seen: string[] = [];
    for (let i = 0; i < 7; i++) {
      seen.push((document.activeElement as HTMLElement).dataset.action ?? '');
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true, cancelable: true }));
    }
    // Start at login is hidden (unavailable); Yes and Cancel until asked;
    // her Quiet until the core sends the companion state.
    expect(seen).toEqual(['settings', 'reset', 'hide', 'reset-position', 'mute', 'quiet-all', 'quit']);
    expect((document.activeElement as HTMLElement).dataset.action).toBe('settings'); // wrapped
  });

  it('closes the menu on Escape, on a press elsewhere and when the window loses focus', () => {
    const { view, sent } = setup();
    const open = () => view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    open();
    key(document.body, 'Escape');
    expect(view.menuOpen).toBe(false);
    open();
    q('.pet-menu-item').dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    expect(view.menuOpen).toBe(true); // a press on the menu itself keeps it
    document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    expect(view.menuOpen).toBe(false);
    open();
    window.dispatchEvent(new Event('blur'));
    expect(view.menuOpen).toBe(false);
    expect(sent).toEqual([]);
  });

  it('moves among the menu items with the arrow keys, Home and End', () => {
    const { view } = setup();
    const menu = q<HTMLElement>('.pet-menu');
    // Settings… and New conversation (Yes and Cancel are hidden until asked).
    const [first, second] = [...menu.querySelectorAll<HTMLElement>('[role=menuitem]:not([hidden])')];
    expect(first!.textContent).toBe('Settings…');
    expect(second!.textContent).toBe('New conversation');
    view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    expect(document.activeElement).toBe(first);
    const press = (k: string) => {
      const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true });
      document.activeElement!.dispatchEvent(e);
      return e;
    };
    expect(press('ArrowDown').defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(second);
    press('ArrowDown'); // wraps
    expect(document.activeElement).toBe(first);
    press('ArrowUp'); // wraps
    expect(document.activeElement).toBe(second);
    press('Home');
    expect(document.activeElement).toBe(first);
    press('End');
    expect(document.activeElement).toBe(second);
    expect(view.menuOpen).toBe(true);
  });

  it('keeps focus on the only item on an arrow key, and gives focus back when the menu closes', () => {
    const { view, sent } = setup();
    const input = q<HTMLTextAreaElement>('.composer-input');
    view.openComposer();
    expect(document.activeElement).toBe(input);
    const open = () => view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    const item = q<HTMLButtonElement>('.pet-menu-item');
    // A menu with one item shown: the arrow keys skip hidden items.
    q<HTMLElement>('.pet-menu-item[data-action="reset"]').hidden = true;
    open();
    expect(document.activeElement).toBe(item);
    const e = new KeyboardEvent('keydown', { key: 'ArrowUp', bubbles: true, cancelable: true });
    item.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(item);
    // Escape: back to the composer's input (which stays open).
    key(item, 'Escape');
    expect(view.menuOpen).toBe(false);
    expect(view.composerOpen).toBe(true);
    expect(document.activeElement).toBe(input);
    // A choice: back to the input too.
    open();
    expect(document.activeElement).toBe(item);
    item.click();
    expect(sent).toEqual([{ type: 'open_settings' }]);
    expect(document.activeElement).toBe(input);
    // Nothing was focused: the hidden item does not keep the focus.
    input.blur();
    view.closeComposer();
    open();
    key(item, 'Escape');
    expect(view.menuOpen).toBe(false);
    expect(document.activeElement).not.toBe(item);
    expect(q<HTMLElement>('.pet-menu').contains(document.activeElement)).toBe(false);
  });

  it('gives focus back to where it was before the right-button press moved it', () => {
    const { view } = setup();
    const input = q<HTMLTextAreaElement>('.composer-input');
    view.openComposer();
    // A real right-click: the press comes first and takes the focus away
    // from the input (the character is not focusable), then the menu event.
    view.character.el.dispatchEvent(new PointerEvent('pointerdown', { button: 2, bubbles: true }));
    input.blur();
    view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    key(q('.pet-menu-item'), 'Escape');
    expect(document.activeElement).toBe(input);
    // A menu opened from the keyboard afterwards uses the focus it finds.
    input.blur();
    key(document.body, 'ContextMenu');
    view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    key(q('.pet-menu-item'), 'Escape');
    expect(document.activeElement).not.toBe(input);
  });

  it('keeps the open menu in the click region', async () => {
    const { view, regions } = setup();
    const orig = Element.prototype.getBoundingClientRect;
    const menu = q<HTMLElement>('.pet-menu');
    Element.prototype.getBoundingClientRect = function (this: Element) {
      return (this === menu ? { left: 100, top: 150, width: 120, height: 34 } : { left: 0, top: 0, width: 0, height: 0 }) as DOMRect;
    };
    try {
      await Promise.resolve();
      expect(view.visibleRects()).toEqual([]);
      view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
      await Promise.resolve();
      expect(regions.at(-1)).toEqual([{ x: 100, y: 150, w: 120, h: 34 }]);
      view.closeMenu();
      await Promise.resolve();
      expect(regions.at(-1)).toEqual([]);
    } finally {
      Element.prototype.getBoundingClientRect = orig;
    }
  });

  it('New conversation asks "Start over?" in the menu: Yes sends reset, Cancel sends nothing', () => {
    const { view, sent, sched } = setup();
    const timers = sched.timers.size;
    const open = () => view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    const item = q<HTMLButtonElement>('.pet-menu-item[data-action="reset"]');
    const confirm = q<HTMLElement>('.pet-menu-confirm');
    const yes = q<HTMLButtonElement>('.pet-menu-choice[data-action="reset-yes"]');
    const cancel = q<HTMLButtonElement>('.pet-menu-choice[data-action="reset-cancel"]');
    open();
    // Below Settings…, and nothing asked yet.
    const items = [...q('.pet-menu').querySelectorAll<HTMLElement>('[role=menuitem]:not([hidden])')];
    expect(items.indexOf(item)).toBe(items.indexOf(q('.pet-menu-item[data-action="settings"]')) + 1);
    expect(item.getAttribute('role')).toBe('menuitem');
    expect(item.hidden).toBe(false);
    expect(confirm.hidden).toBe(true);
    item.click();
    expect(sent).toEqual([]); // asked, not sent
    expect(view.menuOpen).toBe(true);
    expect(view.menuConfirming).toBe(true);
    expect(item.hidden).toBe(true);
    expect(confirm.hidden).toBe(false);
    expect(confirm.getAttribute('role')).toBe('group');
    const ask = document.getElementById(confirm.getAttribute('aria-labelledby')!)!;
    expect(ask.textContent).toBe('Start over?');
    expect(yes.textContent).toBe('Yes');
    expect(cancel.textContent).toBe('Cancel');
    expect(yes.getAttribute('role')).toBe('menuitem');
    expect(cancel.getAttribute('role')).toBe('menuitem');
    // Cancel has the focus: a double click or a held Enter does not start over.
    expect(document.activeElement).toBe(cancel);
    cancel.click();
    expect(sent).toEqual([]);
    expect(view.menuOpen).toBe(false);
    // The next menu starts without the question.
    open();
    expect(view.menuConfirming).toBe(false);
    expect(item.hidden).toBe(false);
    item.click();
    yes.click();
    expect(sent).toEqual([{ type: 'reset' }]);
    expect(view.menuOpen).toBe(false);
    expect(view.menuConfirming).toBe(false);
    // The second click of a double click is no answer, even on Yes.
    open();
    item.click();
    yes.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 2 }));
    expect(view.menuConfirming).toBe(true);
    expect(sent).toHaveLength(1);
    // A press elsewhere while asking closes the menu and sends nothing.
    open();
    item.click();
    document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    expect(view.menuOpen).toBe(false);
    expect(sent).toHaveLength(1);
    // Nothing ticks for any of it.
    expect(sched.timers.size).toBe(timers);
    expect(view.pendingTimers).toBe(1);
  });

  it('answers "Start over?" from the keyboard, and gives the focus back', () => {
    const { view, sent } = setup();
    const input = q<HTMLTextAreaElement>('.composer-input');
    view.openComposer();
    const settings = q<HTMLButtonElement>('.pet-menu-item[data-action="settings"]');
    const item = q<HTMLButtonElement>('.pet-menu-item[data-action="reset"]');
    const yes = q<HTMLButtonElement>('.pet-menu-choice[data-action="reset-yes"]');
    const cancel = q<HTMLButtonElement>('.pet-menu-choice[data-action="reset-cancel"]');
    const press = (k: string) => {
      const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true });
      document.activeElement!.dispatchEvent(e);
      return e;
    };
    const open = () => view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    open();
    expect(document.activeElement).toBe(settings);
    press('ArrowDown');
    expect(document.activeElement).toBe(item);
    // Yes and Cancel are not in the way before the question.
    press('ArrowDown');
    expect(document.activeElement).toBe(settings);
    press('End');
    expect(document.activeElement).toBe(item);
    item.click(); // Enter or Space on the focused item
    expect(document.activeElement).toBe(cancel);
    // Left and Right move between the two answers; the arrows go round the menu.
    expect(press('ArrowLeft').defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(yes);
    press('ArrowRight');
    expect(document.activeElement).toBe(cancel);
    press('ArrowUp');
    expect(document.activeElement).toBe(yes);
    press('ArrowUp');
    expect(document.activeElement).toBe(settings);
    press('End');
    expect(document.activeElement).toBe(cancel);
    press('ArrowDown'); // wraps
    expect(document.activeElement).toBe(settings);
    // Escape closes the whole menu, sends nothing, and the focus goes back.
    press('End');
    key(cancel, 'Escape');
    expect(view.menuOpen).toBe(false);
    expect(sent).toEqual([]);
    expect(document.activeElement).toBe(input);
    // Yes: reset is sent, the focus goes back to the input.
    open();
    press('ArrowDown');
    item.click();
    press('ArrowLeft');
    expect(document.activeElement).toBe(yes);
    yes.click();
    expect(sent).toEqual([{ type: 'reset' }]);
    expect(view.menuOpen).toBe(false);
    expect(document.activeElement).toBe(input);
    expect(view.composerOpen).toBe(true);
  });

  it('keeps the menu in the click region while it asks, at its grown size', async () => {
    const { view, regions } = setup();
    const orig = Element.prototype.getBoundingClientRect;
    const menu = q<HTMLElement>('.pet-menu');
    let h = 60;
    Element.prototype.getBoundingClientRect = function (this: Element) {
      return (this === menu ? { left: 100, top: 150, width: 140, height: h } : { left: 0, top: 0, width: 0, height: 0 }) as DOMRect;
    };
    try {
      view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
      await Promise.resolve();
      expect(regions.at(-1)).toEqual([{ x: 100, y: 150, w: 140, h: 60 }]);
      h = 84; // Start over? Yes / Cancel
      q<HTMLButtonElement>('.pet-menu-item[data-action="reset"]').click();
      await Promise.resolve();
      expect(regions.at(-1)).toEqual([{ x: 100, y: 150, w: 140, h: 84 }]);
      q<HTMLButtonElement>('.pet-menu-choice[data-action="reset-cancel"]').click();
      await Promise.resolve();
      expect(regions.at(-1)).toEqual([]);
    } finally {
      Element.prototype.getBoundingClientRect = orig;
    }
  });

  it('sends open_settings on Ctrl+, and open_settings at Screen from the pill\'s capture segment', () => {
    const { view, sent } = setup();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ',', ctrlKey: true, bubbles: true, cancelable: true }));
    expect(sent).toEqual([{ type: 'open_settings' }]);
    view.apply({ type: 'pill', tool: null, error: '', capture: true });
    q<HTMLElement>('.pill-capture').click();
    expect(sent[1]).toEqual({ type: 'open_settings', section: 'permissions' });
    key(q('.pill-capture'), 'Enter');
    expect(sent[2]).toEqual({ type: 'open_settings', section: 'permissions' });
  });
});

describe('PetView voice', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('offers Mute <her name> once the core says the character has a voice, and sends the switch', () => {
    const { view, sent } = setup();
    const mute = q<HTMLButtonElement>('.pet-menu-item[data-action="mute-character"]');
    expect(mute.hidden).toBe(true);
    view.apply({ type: 'voice', muted: false, global_muted: false, engine: 'system' });
    expect(mute.hidden).toBe(false);
    expect(mute.textContent).toBe('Mute voice');
    view.apply({ type: 'preset', id: 'p1', name: 'Yui', look: 'yui' });
    expect(mute.textContent).toBe('Mute Yui');
    view.character.el.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true }));
    mute.click();
    expect(sent).toEqual([{ type: 'mute', scope: 'character', muted: true }]);
    expect(view.menuOpen).toBe(false);
    view.apply({ type: 'voice', muted: true, global_muted: true, engine: 'system' });
    expect(mute.textContent).toBe('Unmute Yui');
    // The global mute is the desktop group's "Mute all voices" check (its own
    // test), not a second item here.
    expect(q('.pet-menu-item[data-action="unmute-all"]')).toBeNull();
    // Text only: nothing to mute.
    view.apply({ type: 'voice', muted: false, global_muted: false, engine: 'off' });
    expect(mute.hidden).toBe(true);
  });

  it('moves the mouth from the mouth levels', () => {
    const { view, sched } = setup();
    view.apply({ type: 'character', emotion: 'happy', motion: 'idle', speaking: true, voiced: true });
    expect(view.character.mouthMoving).toBe(false);
    view.apply({ type: 'mouth', at: sched.now(), step_ms: 20, levels: Array(20).fill(100) });
    expect(view.character.el.dataset.mouth).toBe('2');
    expect(view.character.lipSyncing).toBe(true);
    view.apply({ type: 'mouth', at: sched.now(), step_ms: 20, levels: [] });
    sched.advance(200);
    expect(view.character.el.dataset.mouth).toBe('0');
    expect(view.character.lipSyncing).toBe(false);
  });

  it('shows a voice error in the pill', () => {
    const { view } = setup();
    view.apply({ type: 'pill', tool: null, error: '', voice: 'voice: check the speech key' });
    expect(q<HTMLElement>('.pill').hidden).toBe(false);
    expect(q<HTMLElement>('.pill-voice').textContent).toBe('voice: check the speech key');
    view.apply({ type: 'pill', tool: null, error: '' });
    expect(q<HTMLElement>('.pill').hidden).toBe(true);
  });
});
