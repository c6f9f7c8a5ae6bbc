// The VRM look's mouth: the voice's levels (0–100, one per 20 ms window,
// relative to the sentence's loudest) and, when the core sends them, tones
// (0–100: how bright the window sounds — its zero-crossing rate, a cheap
// stand-in for the spectrum: /u/ and /o/ are dark, /i/ and /e/ bright)
// become the VRM visemes aa, ih, ou, ee and oh.
//
// The level sets how open the mouth is; the tone picks the vowel shape.
// Without tones each syllable (a rise of the level after a dip) takes the
// next shape of a fixed cycle, so the mouth does not open the same way on
// every syllable. Shapes blend with `aa` in proportion to the opening, as
// a real mouth widens as it opens.

export const VISEMES = ['aa', 'ih', 'ou', 'ee', 'oh'] as const;
export type Viseme = (typeof VISEMES)[number];
export type VisemeWeights = Record<Viseme, number>;

/** Level below which the mouth is closed, and from which it is fully open. */
export const CLOSED_BELOW = 12;
export const OPEN_AT = 70;
/** Tone bands (upper bounds) of each shape, darkest first. */
const TONE_BANDS: readonly [number, Viseme][] = [[22, 'ou'], [38, 'oh'], [58, 'aa'], [76, 'ee'], [101, 'ih']];
/** The syllable cycle used without tones. */
export const CYCLE: readonly Viseme[] = ['aa', 'oh', 'ee', 'aa', 'ou', 'ih'];

export const closedMouth = (): VisemeWeights => ({ aa: 0, ih: 0, ou: 0, ee: 0, oh: 0 });

/** How open the mouth is (0–1) for a level. */
export function openness(level: number): number {
  if (level <= CLOSED_BELOW) return 0;
  const x = Math.min(1, (level - CLOSED_BELOW) / (OPEN_AT - CLOSED_BELOW));
  return Math.sqrt(x); // quiet sounds still open the mouth visibly
}

/** The vowel shape a tone sounds like. */
export function shapeOfTone(tone: number): Viseme {
  for (const [upTo, v] of TONE_BANDS) if (tone < upTo) return v;
  return 'ih';
}

/** The viseme weights for one window: its shape at its openness, blended
 * with `aa` as it opens wide. */
export function visemeWeights(level: number, shape: Viseme): VisemeWeights {
  const w = closedMouth();
  const o = openness(level);
  if (o === 0) return w;
  if (shape === 'aa') {
    w.aa = o;
  } else {
    w[shape] = o * 0.85;
    w.aa = o * o * 0.35;
  }
  return w;
}

/**
 * Follows a sentence's windows: feed each window's level (and tone, when
 * known) in order; it returns the weights to show. It keeps only the
 * syllable count (for the cycle) and whether the last window was a dip.
 */
export class VisemeTrack {
  private syllable = -1;
  private quiet = true;

  /** Forgets the syllable count (a new sentence). */
  reset(): void {
    this.syllable = -1;
    this.quiet = true;
  }

  next(level: number, tone?: number): VisemeWeights {
    const open = openness(level) > 0;
    if (open && this.quiet) this.syllable++;
    this.quiet = level < CLOSED_BELOW + 10;
    if (!open) return closedMouth();
    const shape = tone !== undefined ? shapeOfTone(tone) : CYCLE[this.syllable % CYCLE.length]!;
    return visemeWeights(level, shape);
  }
}
