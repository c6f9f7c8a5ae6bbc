// The character's motions as poses over time, drawn by the character's
// frame clock (src/character.ts) a few times a second on the figure's
// composited layer, instead of CSS keyframe animations: under software
// rendering (WebKitGTK on a software GL, Xvfb) every frame of a CSS
// animation is a full composite of the window at 60 fps, which measured
// 2.5x the CPU of speaking without cues (docs/performance.md). A motion is
// bounded (a fixed number of iterations) except `thinking`, which loops
// while a turn runs; no timer runs once it ends.

/** A pose of the figure: a translation (px), a rotation (deg) and a scale,
 * applied in that order about the figure's feet (character.css). */
export interface Pose { tx?: number; ty?: number; rot?: number; sx?: number; sy?: number }

/** A motion: keyframes (offset 0..1, pose) played `count` times of `ms`
 * each, eased per segment; `alternate` plays every other iteration
 * backwards; `fill` holds the last pose after the end (else the figure
 * returns to rest). */
export interface MotionDef {
  ms: number;
  count: number;
  alternate?: boolean;
  fill?: boolean;
  ease: 'in-out' | 'out';
  keys: ReadonlyArray<readonly [number, Pose]>;
}

const REST: Pose = {};

/** The drawn motions, by id. `idle`, `drag` (a static tilt in
 * character.css) and `window_sit` have none. */
export const MOTION_DEFS: Readonly<Record<string, MotionDef>> = {
  happy: { ms: 900, count: 2, ease: 'out', keys: [[0, REST], [0.25, { ty: -14 }], [0.55, REST], [0.75, { ty: -6 }], [1, REST]] },
  laugh: { ms: 250, count: 8, alternate: true, ease: 'in-out', keys: [[0, { rot: -1 }], [1, { ty: -4, rot: 1.5 }]] },
  embarrassed: { ms: 700, count: 2, ease: 'in-out', keys: [[0, REST], [0.25, { tx: -3, rot: -4, sx: 0.98, sy: 0.98 }], [0.75, { tx: 3, rot: 4, sx: 0.98, sy: 0.98 }], [1, REST]] },
  sheepish: { ms: 1800, count: 1, ease: 'in-out', keys: [[0, REST], [0.3, { ty: 4, rot: -6 }], [0.7, { ty: 4, rot: -6 }], [1, REST]] },
  calm: { ms: 2600, count: 2, ease: 'in-out', keys: [[0, REST], [0.5, { sx: 1.01, sy: 1.025 }], [1, REST]] },
  sleeping: { ms: 3600, count: 3, fill: true, ease: 'in-out', keys: [[0, { ty: 4, rot: 3 }], [0.5, { ty: 5, rot: 3, sx: 1.01, sy: 1.02 }], [1, { ty: 4, rot: 3 }]] },
  idle_lively: { ms: 1000, count: 3, ease: 'in-out', keys: [[0, REST], [0.25, { ty: -6, rot: -3 }], [0.75, { ty: -6, rot: 3 }], [1, REST]] },
  dance: { ms: 500, count: 8, alternate: true, ease: 'in-out', keys: [[0, { tx: -6, rot: -7 }], [1, { tx: 6, rot: 7 }]] },
  sulk: { ms: 1200, count: 1, fill: true, ease: 'out', keys: [[0, REST], [1, { ty: 3, rot: -4, sx: 0.97, sy: 0.97 }]] },
  thinking: { ms: 3200, count: Infinity, alternate: true, ease: 'in-out', keys: [[0, { rot: -1.5 }], [1, { rot: 1.5 }]] },
  peek: { ms: 1800, count: 1, ease: 'in-out', keys: [[0, REST], [0.4, { tx: 24, rot: 9 }], [0.6, { tx: 24, rot: 9 }], [1, REST]] },
  walk: { ms: 400, count: 8, alternate: true, ease: 'in-out', keys: [[0, { rot: -2 }], [1, { ty: -4, rot: 2 }]] },
};

const easeInOut = (u: number): number => u * u * (3 - 2 * u);
const easeOut = (u: number): number => 1 - (1 - u) * (1 - u);
const mix = (a: number | undefined, b: number | undefined, d: number, u: number): number => (a ?? d) + ((b ?? d) - (a ?? d)) * u;

function poseAt(def: MotionDef, p: number): Pose {
  const keys = def.keys;
  let i = 0;
  while (i < keys.length - 2 && p >= keys[i + 1]![0]) i++;
  const [o0, a] = keys[i]!;
  const [o1, b] = keys[i + 1] ?? keys[i]!;
  const raw = o1 > o0 ? Math.min(1, Math.max(0, (p - o0) / (o1 - o0))) : 1;
  const u = def.ease === 'out' ? easeOut(raw) : easeInOut(raw);
  return { tx: mix(a.tx, b.tx, 0, u), ty: mix(a.ty, b.ty, 0, u), rot: mix(a.rot, b.rot, 0, u), sx: mix(a.sx, b.sx, 1, u), sy: mix(a.sy, b.sy, 1, u) };
}

/** The pose `elapsed` ms into the motion, or null once it has ended and
 * holds nothing (the figure at rest). `done` says it has ended. */
export function motionPose(def: MotionDef, elapsed: number): { pose: Pose | null; done: boolean } {
  const it = Math.floor(Math.max(0, elapsed) / def.ms);
  if (it >= def.count) {
    if (!def.fill) return { pose: null, done: true };
    const backwards = def.alternate && (def.count - 1) % 2 === 1;
    return { pose: poseAt(def, backwards ? 0 : 1), done: true };
  }
  let p = (Math.max(0, elapsed) % def.ms) / def.ms;
  if (def.alternate && it % 2 === 1) p = 1 - p;
  return { pose: poseAt(def, p), done: false };
}

const r2 = (n: number | undefined, d: number): string => String(Math.round((n ?? d) * 100) / 100);

/** A pose as a CSS transform (translate, rotate, scale). */
export const poseTransform = (p: Pose): string =>
  `translate(${r2(p.tx, 0)}px, ${r2(p.ty, 0)}px) rotate(${r2(p.rot, 0)}deg) scale(${r2(p.sx, 1)}, ${r2(p.sy, 1)})`;
