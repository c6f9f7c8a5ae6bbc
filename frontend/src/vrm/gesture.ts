// Touch on the VRM look: a pat is the pointer stroking her head (moving
// back and forth over it without a press, as a hand pats), a poke a
// double click on her. The page reports them to the core (`touch`) and
// plays the reaction; the core decides whether a turn follows.

export type TouchKind = 'pat' | 'poke';
export type TouchWhere = 'head' | 'body';

/** A stroke is a run of horizontal movement in one direction of at least
 * STROKE_PX; PAT_STROKES strokes (direction changes between them) within
 * PAT_WINDOW_MS make a pat. */
export const STROKE_PX = 10;
export const PAT_STROKES = 3;
export const PAT_WINDOW_MS = 1500;
/** After a pat, strokes start counting again only after this. */
export const PAT_REST_MS = 1200;
/** A second click within this (ms) and distance (px) is a poke. */
export const POKE_MS = 400;
export const POKE_PX = 8;

export class PatDetector {
  private dir = 0;
  private run = 0;
  private lastX: number | null = null;
  private strokes: number[] = [];
  private restUntil = -Infinity;

  /** Feeds a pointer move over her head (x in px, t in ms); returns true
   * when the moves make a pat. */
  move(x: number, t: number): boolean {
    if (this.lastX === null) {
      this.lastX = x;
      return false;
    }
    const dx = x - this.lastX;
    this.lastX = x;
    if (dx === 0 || t < this.restUntil) return false;
    const d = Math.sign(dx);
    if (d !== this.dir) {
      this.dir = d;
      this.run = 0;
    }
    const before = this.run;
    this.run += Math.abs(dx);
    if (before < STROKE_PX && this.run >= STROKE_PX) {
      this.strokes = this.strokes.filter((s) => t - s <= PAT_WINDOW_MS);
      this.strokes.push(t);
      if (this.strokes.length >= PAT_STROKES) {
        this.strokes = [];
        this.restUntil = t + PAT_REST_MS;
        return true;
      }
    }
    return false;
  }

  /** The pointer left her head. */
  leave(): void {
    this.lastX = null;
    this.dir = 0;
    this.run = 0;
  }
}

export class PokeDetector {
  private last: { x: number; y: number; t: number } | null = null;

  /** Feeds a click; returns true when it is the second of a poke. */
  click(x: number, y: number, t: number): boolean {
    const l = this.last;
    if (l && t - l.t <= POKE_MS && Math.hypot(x - l.x, y - l.y) <= POKE_PX) {
      this.last = null;
      return true;
    }
    this.last = { x, y, t };
    return false;
  }
}
