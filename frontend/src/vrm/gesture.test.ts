import { describe, expect, it } from 'vitest';
import { PAT_REST_MS, PAT_WINDOW_MS, PatDetector, POKE_MS, PokeDetector, STROKE_PX } from './gesture';

/** Strokes of `px` back and forth from x=100, every `ms`, starting at t. */
function stroke(p: PatDetector, n: number, px: number, t: number, ms = 150): boolean[] {
  const out: boolean[] = [];
  let x = 100;
  p.move(x, t);
  for (let i = 0; i < n; i++) {
    x += (i % 2 === 0 ? 1 : -1) * px;
    out.push(p.move(x, t + (i + 1) * ms));
  }
  return out;
}

describe('touch gestures', () => {
  it('three strokes over her head within the window are a pat', () => {
    expect(stroke(new PatDetector(), 3, STROKE_PX + 2, 0)).toEqual([false, false, true]);
  });

  it('small wiggles and slow strokes are not', () => {
    expect(stroke(new PatDetector(), 6, STROKE_PX - 3, 0)).not.toContain(true);
    expect(stroke(new PatDetector(), 4, STROKE_PX + 2, 0, PAT_WINDOW_MS)).not.toContain(true);
  });

  it('after a pat, strokes count again only after a rest', () => {
    const p = new PatDetector();
    expect(stroke(p, 3, 20, 0)).toEqual([false, false, true]);
    expect(stroke(p, 3, 20, 500)).not.toContain(true);
    expect(stroke(p, 3, 20, 450 + PAT_REST_MS)).toContain(true);
  });

  it('a second click soon after, at the same place, is a poke', () => {
    const k = new PokeDetector();
    expect(k.click(10, 10, 0)).toBe(false);
    expect(k.click(12, 11, POKE_MS - 50)).toBe(true);
    expect(k.click(12, 11, POKE_MS)).toBe(false); // a third starts anew
    expect(k.click(40, 11, POKE_MS + 100)).toBe(false); // too far
    expect(k.click(40, 11, 10 * POKE_MS)).toBe(false); // too late
  });
});
