import { beforeEach, describe, expect, it } from 'vitest';
import { PetView, type PetHost } from './pet';
import type { BodyPose, PageMessage } from './protocol';
import { FakeMotion, FakeScheduler } from './test-helpers';
import { WALK_FRAME_MS } from './walk';

function setup(motion = new FakeMotion()) {
  const sent: PageMessage[] = [];
  const host: PetHost = { send: (m) => (sent.push(m), true), setInputRegion: () => {}, windowPosition: async () => ({ x: 0, y: 0 }), moveWindow: () => {} };
  const sched = new FakeScheduler();
  const view = new PetView(host, sched, { motion });
  view.mount(document.body);
  return { view, sched, el: view.character.el };
}

const body = (posture: string, more: Partial<BodyPose> = {}): BodyPose =>
  ({ type: 'body', posture, side: '', facing: '', perched: false, ...more });

const svg = (fill: string): string => `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 240"><rect width="200" height="240" fill="${fill}"/></svg>`)}`;
const emotions = { neutral: svg('#111111'), happy: svg('#222222') };

const shownFrame = (el: HTMLElement): number[] =>
  [...el.querySelectorAll<HTMLElement>('.walk-frame')].map((f) => Number(f.style.opacity));

describe('her walk cycle', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('swaps two pre-rendered leg layers by opacity while she walks, and stops when she stops', () => {
    const { view, sched, el } = setup();
    view.apply(body('walking', { facing: 'right' }));
    expect(el.dataset.walkCycle).toBe('legs');
    const layers = el.querySelector('.yui-motion > .walk-legs')!;
    expect(layers).not.toBeNull();
    // Her legs in the look's colour, behind the figure.
    expect((layers as HTMLElement).style.color).not.toBe('');
    expect(el.querySelector('.yui-motion')!.firstElementChild).toBe(layers);
    expect(shownFrame(el)).toEqual([1, 0]);
    const motion = el.querySelector<HTMLElement>('.yui-motion')!;
    expect(motion.style.translate).toBe('');
    // A step of the cycle changes the inline style of the two frames and
    // the figure's layer only: no class or attribute changes anywhere.
    const seen: string[] = [];
    const obs = new MutationObserver((ms) => ms.forEach((m) => seen.push(`${(m.target as Element).className?.toString() || (m.target as Element).tagName} ${m.attributeName}`)));
    obs.observe(el, { subtree: true, attributes: true, childList: true });
    sched.advance(WALK_FRAME_MS);
    obs.takeRecords().forEach((m) => seen.push(`${(m.target as Element).getAttribute('class')} ${m.attributeName}`));
    obs.disconnect();
    expect(shownFrame(el)).toEqual([0, 1]);
    expect(motion.style.translate).toBe('0px -3px');
    expect(new Set(seen.map((s) => s.split(' ').pop()))).toEqual(new Set(['style']));
    sched.advance(WALK_FRAME_MS);
    expect(shownFrame(el)).toEqual([1, 0]);
    expect(motion.style.translate).toBe('');
    expect(sched.delays).toContain(WALK_FRAME_MS);

    view.apply(body('standing'));
    expect(el.querySelector('.walk-layers')).toBeNull();
    expect(el.dataset.walkCycle).toBeUndefined();
    expect(motion.style.translate).toBe('');
    expect(sched.delays).not.toContain(WALK_FRAME_MS);
  });

  it('does not run with reduced motion, and stops when it is asked for', () => {
    const motion = new FakeMotion(true);
    const { view, sched, el } = setup(motion);
    view.apply(body('walking'));
    expect(el.querySelector('.walk-layers')).toBeNull();
    expect(sched.delays).not.toContain(WALK_FRAME_MS);
    motion.set(false);
    expect(el.dataset.walkCycle).toBe('legs');
    motion.set(true);
    expect(el.dataset.walkCycle).toBeUndefined();
    expect(sched.delays).not.toContain(WALK_FRAME_MS);
  });

  it("swaps a look folder's own two walk frames; a folder without them only bobs", () => {
    const { view, sched, el } = setup();
    view.apply({ type: 'look_art', look: 'ocean', emotions });
    view.apply(body('walking'));
    expect(el.dataset.walkCycle).toBe('bob');
    expect(el.querySelector('.walk-layers')).toBeNull();
    sched.advance(WALK_FRAME_MS);
    expect(el.querySelector<HTMLElement>('.yui-motion')!.style.translate).toBe('0px -3px');

    view.apply({ type: 'look_art', look: 'ocean', emotions, poses: { 'walk-1': svg('#aa0000'), 'walk-2': svg('#00aa00') } });
    expect(el.dataset.walkCycle).toBe('own');
    const imgs = [...el.querySelectorAll<HTMLImageElement>('.walk-own img.walk-frame')];
    expect(imgs.map((i) => i.src)).toEqual([svg('#aa0000'), svg('#00aa00')]);
    expect(shownFrame(el)).toEqual([1, 0]);
    sched.advance(WALK_FRAME_MS);
    expect(shownFrame(el)).toEqual([0, 1]);

    // Back to the built-in figure mid-walk: its legs.
    view.apply({ type: 'look_art', look: 'yui', emotions: null });
    expect(el.dataset.walkCycle).toBe('legs');
    expect(el.querySelectorAll('.walk-layers')).toHaveLength(1);
    expect(el.querySelector('.walk-own')).toBeNull();
  });
});

describe("a look folder's own poses", () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('draws its own sit pose when it has one, else the built-in pose on its art', () => {
    const { view, el } = setup();
    const sit = svg('#336699');
    view.apply({ type: 'look_art', look: 'posed', emotions, poses: { sit } });
    view.apply(body('sitting', { perched: true }));
    expect(el.dataset.poseArt).toBe('sit');
    const img = el.querySelector<HTMLImageElement>('img.pose-art')!;
    expect(img.src).toBe(sit);
    // Peeking: it has no peek.svg — the built-in pose on its emotion art.
    view.apply(body('peeking', { side: 'left' }));
    expect(el.dataset.poseArt).toBeUndefined();
    expect(el.querySelector<HTMLImageElement>('img.look-art')!.src).toBe(emotions.neutral);

    // A folder without poses: sitting is the built-in pose.
    view.apply({ type: 'look_art', look: 'plain', emotions });
    view.apply(body('sitting', { perched: true }));
    expect(el.dataset.poseArt).toBeUndefined();
    // A built-in look never draws a folder's pose.
    view.apply({ type: 'look_art', look: 'yui', emotions: null, poses: { sit } });
    expect(el.dataset.poseArt).toBeUndefined();
  });
});
