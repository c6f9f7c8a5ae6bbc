import { beforeEach, describe, expect, it } from 'vitest';
import { PetView, type PetHost } from './pet';
import type { PageMessage } from './protocol';
import { FakeMotion, FakeScheduler } from './test-helpers';
import { applyPose } from './pose';

function setup(pos: { x: number; y: number } | null = { x: 10, y: 20 }) {
  const sent: PageMessage[] = [];
  const host: PetHost = { send: (m) => (sent.push(m), true), setInputRegion: () => {}, windowPosition: async () => pos, moveWindow: () => {} };
  const view = new PetView(host, new FakeScheduler(), { motion: new FakeMotion() });
  view.mount(document.body);
  return { view, sent };
}

const flush = async () => {
  await Promise.resolve();
  await Promise.resolve();
};

describe('her body', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('draws the pose the core says, unknown postures standing', () => {
    const el = document.createElement('div');
    applyPose(el, { type: 'body', posture: 'walking', side: '', facing: 'left', perched: false });
    expect([el.dataset.pose, el.dataset.facing, el.dataset.perched]).toEqual(['walking', 'left', 'false']);
    applyPose(el, { type: 'body', posture: 'peeking', side: 'right', facing: 'up', perched: false });
    expect([el.dataset.pose, el.dataset.side, el.dataset.facing]).toEqual(['peeking', 'right', '']);
    applyPose(el, { type: 'body', posture: 'flying', side: '', facing: '', perched: true });
    expect([el.dataset.pose, el.dataset.perched]).toEqual(['standing', 'true']);
  });

  it('offers Go to bed, then Wake up while she sleeps; a click on her wakes her', () => {
    const { view, sent } = setup();
    const bed = document.querySelector<HTMLButtonElement>('[data-action="bed"]')!;
    expect(bed.hidden).toBe(true); // until the core says how her body is
    view.apply({ type: 'body', posture: 'standing', side: '', facing: '', perched: false });
    expect(bed.hidden).toBe(false);
    expect(bed.textContent).toBe('Go to bed');
    bed.click();
    view.apply({ type: 'body', posture: 'sleeping', side: '', facing: '', perched: false });
    expect(view.character.el.dataset.pose).toBe('sleeping');
    expect(bed.textContent).toBe('Wake up');
    bed.click();
    // A click on her while she sleeps wakes her (and opens nothing).
    const el = view.character.el;
    el.dispatchEvent(new PointerEvent('pointerdown', { button: 0, screenX: 100, screenY: 100 }));
    el.dispatchEvent(new PointerEvent('pointerup', { button: 0, screenX: 100, screenY: 100 }));
    expect(view.composerOpen).toBe(false);
    expect(sent.filter((m) => m.type === 'body_menu')).toEqual([
      { type: 'body_menu', action: 'go_to_bed' }, { type: 'body_menu', action: 'wake' }, { type: 'body_menu', action: 'wake' }]);
  });

  it('reports a drag: its start, and where she was let go', async () => {
    const { view, sent } = setup();
    const el = view.character.el;
    el.dispatchEvent(new PointerEvent('pointerdown', { button: 0, screenX: 100, screenY: 100 }));
    await flush();
    el.dispatchEvent(new PointerEvent('pointermove', { screenX: 130, screenY: 90 }));
    el.dispatchEvent(new PointerEvent('pointerup', { screenX: 130, screenY: 90 }));
    expect(sent.filter((m) => m.type === 'body_drag')).toEqual([
      { type: 'body_drag', phase: 'start', x: 0, y: 0 }, { type: 'body_drag', phase: 'end', x: 40, y: 10 }]);
  });

  it('drops her where the pointer is let go, even when the last moves were not seen', async () => {
    const moved: Array<[number, number]> = [];
    const sent: PageMessage[] = [];
    const host: PetHost = { send: (m) => (sent.push(m), true), setInputRegion: () => {}, windowPosition: async () => ({ x: 10, y: 20 }), moveWindow: (x, y) => moved.push([x, y]) };
    const view = new PetView(host, new FakeScheduler(), { motion: new FakeMotion() });
    view.mount(document.body);
    const el = view.character.el;
    el.dispatchEvent(new PointerEvent('pointerdown', { button: 0, screenX: 100, screenY: 100 }));
    await flush();
    el.dispatchEvent(new PointerEvent('pointermove', { screenX: 130, screenY: 90 }));
    el.dispatchEvent(new PointerEvent('pointerup', { screenX: 190, screenY: 60 }));
    expect(moved.at(-1)).toEqual([100, -20]);
    expect(sent.filter((m) => m.type === 'body_drag').at(-1)).toEqual({ type: 'body_drag', phase: 'end', x: 100, y: -20 });
  });

  it('reports the drop of a drag released before the window position came', async () => {
    let answer: (p: { x: number; y: number }) => void = () => {};
    const sent: PageMessage[] = [];
    const host: PetHost = {
      send: (m) => (sent.push(m), true), setInputRegion: () => {}, moveWindow: () => {},
      windowPosition: () => new Promise((res) => { answer = res; }),
    };
    const view = new PetView(host, new FakeScheduler(), { motion: new FakeMotion() });
    view.mount(document.body);
    const el = view.character.el;
    el.dispatchEvent(new PointerEvent('pointerdown', { button: 0, screenX: 100, screenY: 100 }));
    el.dispatchEvent(new PointerEvent('pointermove', { screenX: 110, screenY: 130 }));
    el.dispatchEvent(new PointerEvent('pointerup', { screenX: 110, screenY: 130 }));
    answer({ x: 5, y: 5 });
    await flush();
    expect(sent.filter((m) => m.type === 'body_drag')).toEqual([
      { type: 'body_drag', phase: 'start', x: 0, y: 0 }, { type: 'body_drag', phase: 'end', x: 15, y: 35 }]);
  });
});
