// The VRM look's face: what weight each expression should have now, and
// easing towards it. The core resolves which expressions show an emotion
// (the look folder's mapping over the defaults, app/vrm); this mixes that
// emotion with a touch reaction's, the blink and the mouth's visemes, and
// eases each weight so a change reads as a change of face, not a cut.

import type { VisemeWeights } from './viseme';

export type Weights = Record<string, number>;

/** The mapping the core sends: emotion → expression weights. */
export type EmotionMap = Record<string, Weights>;

/** How fast a weight follows its target: it covers this share of the way
 * per 1/60 s (so about 150 ms to settle). */
const FOLLOW = 0.2;
/** Below this a weight is taken to have arrived. */
export const SETTLED = 0.004;

/** The emotions a mapping shows; an unknown id shows neutral. */
export function resolveEmotion(map: EmotionMap, id: string): string {
  return Object.prototype.hasOwnProperty.call(map, id) ? id : 'neutral';
}

export interface FaceInput {
  emotion: string;
  /** A touch reaction's emotion over the current one (0–1 strength). */
  reaction?: { emotion: string; strength: number };
  blink: number;
  mouth: VisemeWeights | null;
}

/** Expressions the VRM spec reserves for the blink and the mouth. */
const BLINKS = new Set(['blink', 'blinkLeft', 'blinkRight']);

/**
 * The target weight of every expression: the emotion's (faded out by a
 * reaction's strength, which fades its own in), the blink, and the mouth.
 * Expressions the model lacks are left out (`has`). While a strong
 * emotion closes the eyes (its own blink weight), the blink adds only what
 * is left, so the eyes never close past shut.
 */
export function targetWeights(map: EmotionMap, f: FaceInput, has: (name: string) => boolean): Weights {
  const out: Weights = {};
  const add = (name: string, w: number) => {
    if (!has(name) || w <= 0) return;
    out[name] = Math.min(1, (out[name] ?? 0) + w);
  };
  const r = f.reaction && f.reaction.strength > 0 ? f.reaction : null;
  const base = map[resolveEmotion(map, f.emotion)] ?? {};
  const keep = r ? 1 - r.strength : 1;
  for (const [n, w] of Object.entries(base)) add(n, w * keep);
  if (r) for (const [n, w] of Object.entries(map[resolveEmotion(map, r.emotion)] ?? {})) add(n, w * r.strength);
  if (f.blink > 0) add('blink', Math.min(f.blink, 1 - (out.blink ?? 0)));
  if (f.mouth) for (const [n, w] of Object.entries(f.mouth)) add(n, w);
  for (const n of Object.keys(out)) if (out[n]! <= 0) delete out[n];
  return out;
}

/**
 * Moves `current` towards `target` for a frame of `dt` seconds (in place).
 * The blink and the mouth jump (they are already timed); the rest eases.
 * Returns whether anything is still on its way.
 */
export function easeWeights(current: Weights, target: Weights, dt: number, instant: (name: string) => boolean = isInstant): boolean {
  const k = 1 - Math.pow(1 - FOLLOW, Math.max(0, dt) * 60);
  let moving = false;
  const names = new Set([...Object.keys(current), ...Object.keys(target)]);
  for (const n of names) {
    const want = target[n] ?? 0;
    const have = current[n] ?? 0;
    let next = instant(n) ? want : have + (want - have) * k;
    if (Math.abs(want - next) < SETTLED) next = want;
    else moving = true;
    if (next === 0) delete current[n];
    else current[n] = next;
  }
  return moving;
}

export const isInstant = (name: string): boolean => BLINKS.has(name) || ['aa', 'ih', 'ou', 'ee', 'oh'].includes(name);
