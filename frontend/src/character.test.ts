import { describe, expect, it } from 'vitest';
import { BLINK_MIN_MS, BLINK_SPREAD_MS, Character, CLIENT_MOTIONS, EMOTIONS, MOTION_FRAME_MS, MOTIONS, MOUTH_FRAME_MS, MOUTH_HOLD_MS, REST_BLINK_MIN_MS, REST_BLINK_SPREAD_MS, RESTING_AFTER_MS } from './character';
import { FakeMotion, FakeScheduler } from './test-helpers';

function make(reduced = false) {
  const sched = new FakeScheduler();
  const motion = new FakeMotion(reduced);
  const c = new Character(sched, motion);
  document.body.replaceChildren(c.el);
  c.start();
  return { c, sched, motion };
}

/** The face parts shown now, as "part=variant" plus the blush. */
function face(c: Character): string {
  const shown = [...c.el.querySelectorAll('[data-part] > [data-v]')]
    .filter((g) => g.getAttribute('display') === 'inline')
    .map((g) => `${(g.parentElement as HTMLElement).dataset.part}=${(g as HTMLElement).dataset.v}`);
  return shown.join(' ') + ` blush=${c.el.querySelector('.blush')!.getAttribute('opacity')}`;
}

describe('Character', () => {
  it('draws the ten default emotions, each a distinct face', () => {
    const { c } = make();
    const ids = Object.keys(EMOTIONS);
    expect(ids).toEqual(['neutral', 'happy', 'angry', 'sad', 'relaxed', 'surprised', 'thinking', 'curious', 'sleepy', 'embarrassed']);
    const faces = new Set<string>();
    for (const id of ids) {
      c.set({ emotion: id, motion: 'idle', speaking: false });
      expect(c.el.dataset.emotion).toBe(id);
      const f = face(c);
      // One variant of each part is shown.
      expect(f.match(/eyes=/g)).toHaveLength(1);
      expect(f.match(/mouth=/g)).toHaveLength(1);
      expect(f.match(/brows=/g)).toHaveLength(1);
      faces.add(f);
    }
    expect(faces.size).toBe(ids.length);
    // Eyes and mouths alone already tell most emotions apart.
    const eyesMouth = new Set(ids.map((id) => `${EMOTIONS[id]!.eyes}/${EMOTIONS[id]!.mouth}`));
    expect(eyesMouth.size).toBe(ids.length);
  });

  it('falls back to neutral and idle for unknown ids', () => {
    const { c } = make();
    c.set({ emotion: 'happy', motion: 'dance', speaking: false });
    c.set({ emotion: 'smug', motion: 'moonwalk', speaking: false });
    expect(c.el.dataset.emotion).toBe('neutral');
    expect(c.el.dataset.motion).toBe('idle');
    c.set({ emotion: '__proto__', motion: 'constructor', speaking: false });
    expect(c.el.dataset.emotion).toBe('neutral');
    expect(c.el.dataset.motion).toBe('idle');
    c.set({ emotion: '', motion: '', speaking: false });
    expect(c.el.dataset.emotion).toBe('neutral');
  });

  it('accepts every agent and client motion and exposes it', () => {
    const { c } = make();
    for (const m of [...MOTIONS, ...CLIENT_MOTIONS]) {
      c.setMotion(m);
      expect(c.el.dataset.motion).toBe(m);
    }
    c.setMotion('window_sit');
    expect(c.el.dataset.motion).toBe('idle');
  });

  it('tilts the head per emotion and returns it on neutral', () => {
    const { c } = make();
    const head = c.el.querySelector<SVGGElement>('.head')!;
    c.setEmotion('curious');
    expect(head.style.transform).toBe('rotate(7deg)');
    c.setEmotion('neutral');
    expect(head.style.transform).toBe('');
  });

  it('flaps the mouth at ~8 fps only while speaking, and stops the timer after', () => {
    const { c, sched } = make();
    expect(c.pendingTimers).toBe(1); // the blink
    c.set({ emotion: 'happy', motion: 'idle', speaking: true });
    expect(c.el.dataset.speaking).toBe('true');
    expect(c.mouthMoving).toBe(true);
    expect(sched.delays).toContain(MOUTH_FRAME_MS);
    const frames: string[] = [];
    for (let i = 0; i < 8; i++) {
      frames.push(c.el.dataset.mouth!);
      sched.advance(MOUTH_FRAME_MS);
    }
    expect(new Set(frames)).toEqual(new Set(['0', '1', '2']));
    c.set({ emotion: 'neutral', motion: 'idle', speaking: false });
    expect(c.mouthMoving).toBe(false);
    expect(c.el.dataset.mouth).toBe('0');
    expect(c.pendingTimers).toBe(1);
    expect(sched.timers.size).toBe(1);
  });

  it('shows a mouth frame by the visibility of the three mouth groups only, across a look change', () => {
    const { c, sched } = make();
    // Which of the face's mouth, the half and the open frame is visible.
    const visible = () =>
      ['[data-part="mouth"]', '.talk[data-frame="1"]', '.talk[data-frame="2"]'].map(
        (q) => c.el.querySelector<SVGGElement>(q)!.style.visibility,
      );
    const face = () => c.el.querySelector<SVGGElement>('[data-part="mouth"]')!;
    expect(visible()).toEqual(['visible', 'hidden', 'hidden']);
    c.set({ emotion: 'happy', motion: 'idle', speaking: true });
    const seen = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const f = Number(c.el.dataset.mouth);
      const want = ['hidden', 'hidden', 'hidden'];
      want[f] = 'visible';
      expect(visible()).toEqual(want);
      // The face's mouth stays rendered (no display change): its fade-in
      // does not replay each time the mouth closes.
      expect(face().getAttribute('display')).toBeNull();
      expect(face().style.display).toBe('');
      seen.add(String(f));
      if (f === 2) c.setLook('mika'); // a new figure shows the same frame
      sched.advance(MOUTH_FRAME_MS);
    }
    expect(seen).toEqual(new Set(['0', '1', '2']));
    c.setSpeaking(false);
    expect(visible()).toEqual(['visible', 'hidden', 'hidden']);
  });

  it('keeps the mouth still under reduced motion, but still blinks', () => {
    const { c, sched, motion } = make(true);
    expect(c.el.dataset.reducedMotion).toBe('true');
    c.setSpeaking(true);
    expect(c.mouthMoving).toBe(false);
    expect(sched.timers.size).toBe(1);
    sched.advance(BLINK_MIN_MS + 0.5 * BLINK_SPREAD_MS + 10); // the fake's random() is 0.5
    expect(c.blinking).toBe(true);
    // Turning reduced motion off mid-speech starts the flap; on again stops it.
    motion.set(false);
    expect(c.mouthMoving).toBe(true);
    motion.set(true);
    expect(c.mouthMoving).toBe(false);
    expect(c.el.dataset.mouth).toBe('0');
  });

  it('has no timers at all once stopped', () => {
    const { c, sched } = make();
    c.setSpeaking(true);
    c.stop();
    expect(sched.timers.size).toBe(0);
  });
});

describe('lip-sync from mouth levels', () => {
  const make2 = () => {
    const sched = new FakeScheduler();
    const motion = new FakeMotion(false);
    const c = new Character(sched, motion);
    c.start();
    return { c, sched, motion };
  };
  const mouth = (c: Character) => c.el.dataset.mouth;

  it('follows the levels when they are heard, and arms no timer in silence', () => {
    const { c, sched } = make2();
    c.set({ emotion: 'neutral', motion: 'idle', speaking: true, voiced: true });
    expect(c.mouthMoving).toBe(false); // no fixed flap for a heard voice
    expect(c.pendingTimers).toBe(1); // the blink only: nothing is heard yet
    const t0 = sched.now() + 100;
    // 200 ms loud, 200 ms soft, 200 ms silent, in 20 ms windows.
    c.setLevels(t0, 20, [...Array(10).fill(90), ...Array(10).fill(30), ...Array(10).fill(0)]);
    expect(mouth(c)).toBe('0');
    expect(c.lipSyncing).toBe(true);
    sched.advance(100);
    expect(mouth(c)).toBe('2');
    sched.advance(200);
    expect(mouth(c)).toBe('1');
    sched.advance(200);
    expect(mouth(c)).toBe('0');
    // Past the last level nothing is armed but the blink.
    sched.advance(300);
    expect(c.lipSyncing).toBe(false);
    expect(c.pendingTimers).toBe(1);
  });

  it('holds each frame at least MOUTH_HOLD_MS: it changes no more often than the flap', () => {
    const { c, sched } = make2();
    const t0 = sched.now();
    // Alternating every 20 ms for 2 s: the worst case.
    const lv = Array.from({ length: 100 }, (_, i) => (i % 2 ? 0 : 100));
    c.setLevels(t0, 20, lv);
    let changes = 0;
    let last = mouth(c);
    for (let t = 0; t < 2000; t += 5) {
      sched.advance(5);
      if (mouth(c) !== last) {
        changes++;
        last = mouth(c);
      }
    }
    expect(changes).toBeLessThanOrEqual(2000 / MOUTH_HOLD_MS + 1);
    expect(2000 / MOUTH_HOLD_MS).toBeLessThanOrEqual(2000 / MOUTH_FRAME_MS);
  });

  it('closes the mouth and drops what is pending when the sound stops', () => {
    const { c, sched } = make2();
    c.set({ emotion: 'neutral', motion: 'idle', speaking: true, voiced: true });
    c.setLevels(sched.now(), 20, Array(50).fill(100));
    sched.advance(200);
    expect(mouth(c)).toBe('2');
    c.setLevels(sched.now(), 20, []);
    sched.advance(MOUTH_HOLD_MS);
    expect(mouth(c)).toBe('0');
    expect(c.pendingLevels).toBe(0);
    expect(c.lipSyncing).toBe(false);
    expect(c.pendingTimers).toBe(1);
  });

  it('flaps when speech shows without sound, and lets levels take over', () => {
    const { c, sched } = make2();
    c.set({ emotion: 'neutral', motion: 'idle', speaking: true, voiced: false });
    expect(c.mouthMoving).toBe(true);
    c.setLevels(sched.now(), 20, Array(10).fill(100));
    expect(c.mouthMoving).toBe(false);
    sched.advance(500);
    // The levels ended while still speaking without sound: the flap again.
    expect(c.mouthMoving).toBe(true);
    c.set({ emotion: 'neutral', motion: 'idle', speaking: false, voiced: false });
    expect(c.mouthMoving).toBe(false);
    expect(mouth(c)).toBe('0');
  });

  it('skips levels that arrive late and keeps the mouth still under reduced motion', () => {
    const { c, sched, motion } = make2();
    c.setLevels(sched.now() - 1000, 20, Array(10).fill(100)); // all in the past
    expect(mouth(c)).toBe('0');
    expect(c.lipSyncing).toBe(false);
    motion.set(true);
    c.setLevels(sched.now(), 20, Array(10).fill(100));
    sched.advance(100);
    expect(mouth(c)).toBe('0');
    expect(c.pendingTimers).toBe(1);
  });

  it('plays a motion as a few poses a second on the figure layer and stops when it ends', () => {
    const { c, sched } = make();
    const body = c.el.querySelector<HTMLElement>('.yui-motion')!;
    const before = sched.timers.size; // the blink
    c.setMotion('happy'); // 2 × 900 ms
    expect(c.moving).toBe(true);
    expect(sched.timers.size).toBe(before + 1);
    const poses = new Set<string>();
    for (let t = 0; t < 1800; t += MOTION_FRAME_MS) {
      poses.add(body.style.transform);
      sched.advance(MOTION_FRAME_MS);
    }
    expect(poses.size).toBeGreaterThan(4); // it moves
    expect([...poses].some((p) => /translate\(0px, -1\d(\.\d+)?px\)/.test(p))).toBe(true); // the hop's top
    sched.advance(200);
    expect(c.moving).toBe(false);
    expect(body.style.transform).toBe(''); // back at rest
    expect(sched.timers.size).toBe(before); // no frame clock once it ended
    c.setMotion('happy'); // the same motion again does not restart
    expect(c.moving).toBe(false);
  });

  it("holds a filled motion's last pose, and loops thinking until another motion comes", () => {
    const { c, sched } = make();
    const body = c.el.querySelector<HTMLElement>('.yui-motion')!;
    c.setMotion('sulk');
    sched.advance(2000);
    expect(c.moving).toBe(false);
    expect(body.style.transform).toContain('scale(0.97, 0.97)');
    c.setMotion('thinking');
    sched.advance(60_000);
    expect(c.moving).toBe(true);
    c.setMotion('idle');
    expect(c.moving).toBe(false);
    expect(body.style.transform).toBe('');
    expect(c.pendingTimers).toBe(1); // the blink
  });

  it('draws no motion under reduced motion, or while stopped', () => {
    const { c, motion } = make(true);
    c.setMotion('dance');
    expect(c.moving).toBe(false);
    expect(c.pendingTimers).toBe(1);
    motion.set(false);
    expect(c.moving).toBe(true);
    c.stop();
    expect(c.moving).toBe(false);
    expect(c.pendingTimers).toBe(0);
  });

  it('draws a motion frame with a mouth change due in a moment, not just before it', () => {
    const { c, sched } = make();
    const body = c.el.querySelector<HTMLElement>('.yui-motion')!;
    c.set({ emotion: 'neutral', motion: 'dance', speaking: true, voiced: false }); // the flap, every MOUTH_FRAME_MS
    const snap = (): string => `${body.style.transform} ${c.el.dataset.mouth}`;
    let last = snap();
    let changes = 0;
    let moves = 0;
    for (let t = 0; t < 2000; t++) {
      sched.advance(1);
      const now = snap();
      if (now !== last) {
        changes++;
        if (now.split(' ')[0] !== last.split(' ')[0]) moves++;
      }
      last = now;
    }
    // The motion rides on the flap: no more instants of change than flaps.
    expect(changes).toBeLessThanOrEqual(Math.ceil(2000 / MOUTH_FRAME_MS) + 1);
    expect(moves).toBeGreaterThan(8);
  });

  it('blinks every 20–30 s once resting, and at the usual pace again as soon as something happens', () => {
    const { c, sched } = make();
    sched.advance(RESTING_AFTER_MS + BLINK_MIN_MS + BLINK_SPREAD_MS); // rests after the next blink
    expect(c.resting).toBe(true);
    expect(sched.delays[0]).toBeGreaterThanOrEqual(REST_BLINK_MIN_MS);
    expect(sched.delays[0]).toBeLessThanOrEqual(REST_BLINK_MIN_MS + REST_BLINK_SPREAD_MS);
    let blinks = 0;
    const eye = c.el.querySelector<SVGGElement>('.eye')!;
    for (let t = 0; t < 120_000; t += 20) {
      const shut = eye.style.transform !== '';
      sched.advance(20);
      if (!shut && eye.style.transform !== '') blinks++;
    }
    expect(blinks).toBeGreaterThanOrEqual(4); // 120 s / 30 s
    expect(blinks).toBeLessThanOrEqual(6); // 120 s / 20 s
    c.set({ emotion: 'happy', motion: 'idle', speaking: false });
    expect(c.resting).toBe(false);
    expect(c.pendingTimers).toBe(1);
    expect(sched.delays[0]).toBeLessThanOrEqual(BLINK_MIN_MS + BLINK_SPREAD_MS); // woken: the usual pace
  });
});
