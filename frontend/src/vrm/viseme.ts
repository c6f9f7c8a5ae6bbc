// The VRM look's mouth: the voice's levels (0–100, one per 20 ms window,
// relative to the sentence's loudest) and tones (0–100: how bright the
// window sounds, relative to the sentence's other loud windows — the
// core's three-band split of its spectrum, app/audio Tones: /u/ and /o/
// are dark, /a/ in the middle, /e/ and /i/ bright)
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
/** Tone bands (upper bounds) of each shape, darkest first: app/audio
 * Tones spreads a sentence's vowels over the whole range. */
const TONE_BANDS: readonly [number, Viseme][] = [[20, 'ou'], [40, 'oh'], [60, 'aa'], [80, 'ee'], [101, 'ih']];
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

/** A mouth frame is held at least this long: the mouth changes at most 5
 * times a second — about the syllable rate of speech — so speaking costs a
 * frame per change, not a frame per 20 ms window. (The SVG look holds
 * 125 ms; a VRM frame costs about twice an SVG mouth change under software
 * GL, and 125 ms measured 2.4× the SVG look's CPU while speaking, 200 ms
 * within 1.5×: docs/looks.md.) */
export const MOUTH_HOLD_MS = 200;
/** A change between the two open frames (half ↔ full) waits twice as
 * long: the mouth opens and closes at the syllable rate, but while it is
 * open its opening changes at most 2.5 times a second — each change is a
 * WebGL frame, and half ↔ full is the least visible one (docs/looks.md,
 * "What it costs"). */
export const OPEN_CHANGE_HOLD_MS = 2 * MOUTH_HOLD_MS;
/** Levels from which the mouth is half and fully open (the SVG look's). */
export const HALF_AT = 20;
export const FULL_AT = 55;
const FRAME_LEVEL = [0, 38, 100] as const;

export const mouthFrameOf = (level: number): 0 | 1 | 2 => (level >= FULL_AT ? 2 : level >= HALF_AT ? 1 : 0);

interface Window { t: number; step: number; level: number; tone?: number }

/**
 * The mouth over time: the level windows still to be heard, quantised to
 * closed / half / open frames held MOUTH_HOLD_MS at least; each opening
 * takes a vowel shape (from the tone at its start, or the next of the
 * cycle). `show(now)` says what to draw now; `next(now)` when it will next
 * change (null: never, nothing pending), so a frame is drawn only then.
 */
export class MouthTrack {
  private windows: Window[] = [];
  private frame: 0 | 1 | 2 = 0;
  private shape: Viseme = 'aa';
  private syllable = -1;
  private changed = -Infinity;

  /** Levels from `at` replace those pending there; none: the sound stopped. */
  push(at: number, stepMs: number, levels: readonly number[], tones?: readonly (number | undefined)[] | null): void {
    this.windows = this.windows.filter((w) => w.t < at);
    if (levels.length === 0 || stepMs <= 0) {
      this.windows = [];
      return;
    }
    levels.forEach((level, i) => this.windows.push({ t: at + i * stepMs, step: stepMs, level, tone: tones?.[i] ?? undefined }));
  }

  clear(): void {
    this.windows = [];
  }

  get pending(): number {
    return this.windows.length;
  }

  private drop(now: number): void {
    let i = 0;
    while (i < this.windows.length && this.windows[i]!.t + this.windows[i]!.step <= now) i++;
    if (i > 0) this.windows = this.windows.slice(i);
  }

  /** The tone of an opening: that of its loudest window over the hold
   * (the vowel, not the consonant it starts on), if tones were sent. */
  private vowelTone(now: number): number | undefined {
    let best: Window | undefined;
    for (const w of this.windows) {
      if (w.t >= now + MOUTH_HOLD_MS) break;
      if (w.tone !== undefined && (!best || w.level > best.level)) best = w;
    }
    return best?.tone;
  }

  /** How long the current frame holds before it may become `to`. */
  private holdTo(to: 0 | 1 | 2): number {
    return this.frame !== 0 && to !== 0 ? OPEN_CHANGE_HOLD_MS : MOUTH_HOLD_MS;
  }

  private wanted(now: number): { frame: 0 | 1 | 2; tone?: number } {
    const w = this.windows[0];
    return w && w.t <= now ? { frame: mouthFrameOf(w.level), tone: w.tone } : { frame: 0 };
  }

  /** The weights to draw at `now` (null: closed and nothing pending). */
  show(now: number): VisemeWeights | null {
    this.drop(now);
    const want = this.wanted(now);
    if (want.frame !== this.frame && now - this.changed >= this.holdTo(want.frame)) {
      if (this.frame === 0 && want.frame > 0) {
        this.syllable++;
        const tone = this.vowelTone(now);
        this.shape = tone !== undefined ? shapeOfTone(tone) : CYCLE[this.syllable % CYCLE.length]!;
      }
      this.frame = want.frame;
      this.changed = now;
    }
    if (this.frame === 0) return this.windows.length > 0 ? closedMouth() : null;
    return visemeWeights(FRAME_LEVEL[this.frame], this.shape);
  }

  /** When the drawn mouth will next change (epoch ms), or null: the
   * earliest moment a window of another frame is heard once the hold
   * towards that frame has passed. */
  next(now: number): number | null {
    let best: number | null = null;
    for (const w of this.windows) {
      const f = mouthFrameOf(w.level);
      if (f === this.frame) continue;
      const at = Math.max(w.t, now + 1, this.changed + this.holdTo(f));
      if (at < w.t + w.step && (best === null || at < best)) best = at;
    }
    if (best !== null) return best;
    if (this.frame !== 0) {
      const last = this.windows[this.windows.length - 1];
      return Math.max(last ? last.t + last.step : now, now + 1, this.changed + MOUTH_HOLD_MS);
    }
    return null;
  }
}
