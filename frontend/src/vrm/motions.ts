// The VRM look's motions: procedural bone animations written as functions
// of time, in the normalized humanoid's frame (VRM 1.0 axes: she faces +Z,
// her left is +X, every bone's rest rotation is the identity T-pose).
// Angles are radians about X (pitch: + tips forward), Y (yaw: + turns to
// her left) and Z (roll). Pure math, no three.js: the build reads the
// motion ids from here (vite.config.ts → vocabulary.json) and the core
// declares them for a VRM look.

export type Euler3 = readonly [number, number, number];

/** The bones the motions move. */
export const BONES = [
  'hips', 'spine', 'chest', 'neck', 'head',
  'leftUpperArm', 'leftLowerArm', 'leftHand', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'rightUpperLeg', 'rightLowerLeg', 'rightFoot',
] as const;
export type Bone = (typeof BONES)[number];

/** One frame of a pose: rotations per bone, and the hips' offset (m). */
export interface Pose {
  rot: Partial<Record<Bone, Euler3>>;
  lift?: number;
}

export interface Motion {
  /** Length in seconds; a looping motion repeats it. */
  duration: number;
  /** Loops until another motion is set (a client pose: walk, sit…). */
  loop?: boolean;
  /** Holds its last frame until another motion is set (sleeping, peek). */
  hold?: boolean;
  /** The pose at t seconds (0 ≤ t ≤ duration), over the rest pose. */
  at(t: number): Pose;
}

const { sin, PI, min, max } = Math;
const TAU = 2 * PI;

/** Eases in over `fade` s and out over the last `fade` s of `dur`. */
export function envelope(t: number, dur: number, fade = 0.3): number {
  const a = min(1, t / fade);
  const b = min(1, (dur - t) / fade);
  const e = max(0, min(a, b));
  return e * e * (3 - 2 * e);
}
/** Eases in over `fade` s and stays (holds and loops). */
const easeIn = (t: number, fade = 0.35): number => {
  const e = min(1, t / fade);
  return e * e * (3 - 2 * e);
};

const scale = (p: Pose, k: number): Pose => {
  const rot: Pose['rot'] = {};
  for (const [b, r] of Object.entries(p.rot) as [Bone, Euler3][]) rot[b] = [r[0] * k, r[1] * k, r[2] * k];
  return { rot, lift: (p.lift ?? 0) * k };
};

/** The rest pose: arms relaxed at her sides (the T-pose's arms lowered). */
export const REST: Pose = {
  rot: {
    leftUpperArm: [0, 0, -1.2], rightUpperArm: [0, 0, 1.2],
    leftLowerArm: [0, -0.15, 0], rightLowerArm: [0, 0.15, 0],
  },
};

/** Bounded motions the agent can ask for, and the client's poses. */
export const MOTIONS: Readonly<Record<string, Motion>> = {
  idle: { duration: 1, at: () => ({ rot: {} }) },
  nod: {
    duration: 1.2,
    at: (t) => scale({ rot: { head: [0.28 * max(0, sin((TAU * t) / 0.6)), 0, 0], neck: [0.08 * max(0, sin((TAU * t) / 0.6)), 0, 0] } }, envelope(t, 1.2, 0.15)),
  },
  wave: {
    duration: 2.4,
    at: (t) => scale({
      rot: {
        rightUpperArm: [0, 0, -2.2],
        rightLowerArm: [0, 0, -0.5 + 0.45 * sin(TAU * 2 * t)],
        head: [0, 0, 0.08], chest: [0, 0, 0.04],
      },
    }, envelope(t, 2.4, 0.35)),
  },
  bow: {
    duration: 1.8,
    at: (t) => scale({ rot: { spine: [0.45, 0, 0], chest: [0.15, 0, 0], head: [0.2, 0, 0] } }, envelope(t, 1.8, 0.5)),
  },
  happy: {
    duration: 1.4,
    at: (t) => scale({
      rot: { leftUpperArm: [0, 0, 0.5], rightUpperArm: [0, 0, -0.5], head: [-0.08, 0, 0.06 * sin(TAU * t / 0.7)] },
      lift: 0.035 * Math.abs(sin((TAU * t) / 0.7)),
    }, envelope(t, 1.4, 0.2)),
  },
  laugh: {
    duration: 1.6,
    at: (t) => scale({ rot: { spine: [-0.08 + 0.05 * sin(TAU * 6 * t), 0, 0], head: [-0.18, 0, 0.04 * sin(TAU * 3 * t)] } }, envelope(t, 1.6, 0.2)),
  },
  embarrassed: {
    duration: 2.2,
    at: (t) => scale({
      rot: {
        head: [0.3, 0.25, 0.12], neck: [0.1, 0, 0],
        leftUpperArm: [0, -0.5, 0.15], rightUpperArm: [0, 0.5, -0.15], leftLowerArm: [0, -1.4, 0], rightLowerArm: [0, 1.4, 0],
      },
    }, envelope(t, 2.2, 0.4)),
  },
  sheepish: {
    duration: 2.2,
    at: (t) => scale({
      rot: {
        head: [0.05, 0, 0.18],
        rightUpperArm: [0, 0.3, -2.1], rightLowerArm: [0, 0, -1.4 + 0.15 * sin(TAU * 3 * t)],
      },
    }, envelope(t, 2.2, 0.4)),
  },
  calm: {
    duration: 3,
    at: (t) => scale({ rot: { spine: [0, 0, 0.05 * sin((TAU * t) / 3)], head: [0.05, 0, -0.06 * sin((TAU * t) / 3)] } }, envelope(t, 3, 0.6)),
  },
  sleeping: {
    duration: 1.5,
    hold: true,
    at: (t) => scale({ rot: { head: [0.38, 0, 0.15], neck: [0.12, 0, 0], spine: [0.08, 0, 0] } }, easeIn(t, 1.5)),
  },
  idle_lively: {
    duration: 2,
    at: (t) => scale({
      rot: { spine: [0, 0, 0.06 * sin(TAU * t)], head: [0, 0.1 * sin(TAU * t), -0.05 * sin(TAU * t)] },
      lift: 0.015 * Math.abs(sin(TAU * t)),
    }, envelope(t, 2, 0.3)),
  },
  dance: {
    duration: 3.2,
    at: (t) => {
      const s = sin((TAU * t) / 0.8);
      return scale({
        rot: {
          hips: [0, 0.25 * s, 0], spine: [0, 0, 0.1 * s], head: [0, -0.15 * s, 0.08 * s],
          leftUpperArm: [0, 0, 0.6 + 0.5 * s], rightUpperArm: [0, 0, -0.6 + 0.5 * s],
        },
        lift: 0.02 * Math.abs(s),
      }, envelope(t, 3.2, 0.3));
    },
  },
  sulk: {
    duration: 2.6,
    at: (t) => scale({
      rot: {
        head: [0.22, -0.35, 0], spine: [0.05, 0, 0],
        leftUpperArm: [0, -0.6, 0.1], rightUpperArm: [0, 0.6, -0.1], leftLowerArm: [0, -1.6, 0], rightLowerArm: [0, 1.6, 0],
      },
    }, envelope(t, 2.6, 0.4)),
  },
  // Client poses (the page or the core sets them; they last until another).
  thinking: {
    duration: 4,
    loop: true,
    at: (t) => scale({
      rot: {
        head: [-0.06, 0.12, 0.14 + 0.03 * sin((TAU * t) / 4)],
        rightUpperArm: [0, 0.35, 0.1], rightLowerArm: [0, 2.1, 0],
      },
    }, easeIn(t, 0.5)),
  },
  drag: {
    duration: 1.6,
    loop: true,
    at: (t) => scale({
      rot: {
        leftUpperArm: [0, 0, 0.55], rightUpperArm: [0, 0, -0.55],
        leftUpperLeg: [0.25 * sin((TAU * t) / 1.6), 0, 0.05], rightUpperLeg: [-0.25 * sin((TAU * t) / 1.6), 0, -0.05],
        head: [-0.1, 0, 0.05 * sin((TAU * t) / 1.6)],
      },
    }, easeIn(t, 0.2)),
  },
  peek: {
    duration: 0.8,
    hold: true,
    at: (t) => scale({ rot: { spine: [0, 0, 0.3], chest: [0, 0, 0.12], head: [0, 0, 0.18] } }, easeIn(t, 0.8)),
  },
  walk: {
    duration: 1,
    loop: true,
    at: (t) => {
      const s = sin(TAU * t);
      return scale({
        rot: {
          leftUpperLeg: [-0.45 * s, 0, 0], rightUpperLeg: [0.45 * s, 0, 0],
          leftLowerLeg: [0.35 * max(0, s), 0, 0], rightLowerLeg: [0.35 * max(0, -s), 0, 0],
          leftUpperArm: [0.35 * s, 0, 0], rightUpperArm: [-0.35 * s, 0, 0],
        },
        lift: 0.015 * Math.abs(sin(TAU * t)),
      }, easeIn(t, 0.25));
    },
  },
  window_sit: {
    duration: 0.8,
    hold: true,
    at: (t) => scale({
      rot: {
        leftUpperLeg: [-1.45, 0, 0.05], rightUpperLeg: [-1.45, 0, -0.05], leftLowerLeg: [1.35, 0, 0], rightLowerLeg: [1.35, 0, 0],
        leftUpperArm: [0, 0, 0.2], rightUpperArm: [0, 0, -0.2],
      },
      lift: -0.3,
    }, easeIn(t, 0.8)),
  },
};

/** Agent-selectable motions of a VRM look (a look folder's .vrma clips
 * add theirs): the SVG look's nine, and nod, wave, bow. */
export const VRM_MOTIONS = ['nod', 'wave', 'bow', 'happy', 'laugh', 'embarrassed', 'sheepish', 'calm', 'sleeping', 'idle_lively', 'dance', 'sulk'] as const;
/** Client motions of a VRM look: the desktop-life poses are drawn. */
export const VRM_CLIENT_MOTIONS = ['idle', 'thinking', 'drag', 'peek', 'walk', 'window_sit'] as const;

/** Touch reactions: a short motion over the current one. */
export const REACTIONS: Readonly<Record<string, Motion>> = {
  pat: {
    duration: 1.6,
    at: (t) => scale({ rot: { head: [0.12, 0, 0.1 * sin((TAU * t) / 0.8)], neck: [0.05, 0, 0] }, lift: -0.01 }, envelope(t, 1.6, 0.25)),
  },
  poke: {
    duration: 0.9,
    at: (t) => scale({ rot: { spine: [-0.12, 0, 0.05], head: [-0.1, 0.2, 0] }, lift: 0.02 }, envelope(t, 0.9, 0.15)),
  },
};

/** The pose of `m` at `t` seconds since it started (loops wrap; a held
 * motion keeps its last frame; a bounded one ends at rest). */
export function motionPose(m: Motion, t: number): Pose {
  if (m.loop) return m.at(t); // periodic in t; the ease-in happens once
  if (t >= m.duration) return m.hold ? m.at(m.duration) : { rot: {} };
  return m.at(max(0, t));
}

/** Whether `m` still moves at `t` (a held or looping motion: a held one
 * stops moving once it reached its last frame). */
export function motionMoving(m: Motion, t: number): boolean {
  return m.loop === true || t < m.duration;
}

/** Adds poses: rotations add per axis (the motions' angles are small
 * enough that composing them as sums reads as intended), lifts add. */
export function addPoses(...ps: Pose[]): Pose {
  const rot: Record<string, [number, number, number]> = {};
  let lift = 0;
  for (const p of ps) {
    lift += p.lift ?? 0;
    for (const [b, r] of Object.entries(p.rot) as [Bone, Euler3][]) {
      const o = (rot[b] ??= [0, 0, 0]);
      o[0] += r[0]; o[1] += r[1]; o[2] += r[2];
    }
  }
  return { rot: rot as Pose['rot'], lift };
}
