import { describe, expect, it } from 'vitest';
import { CLOSED_BELOW, CYCLE, OPEN_AT, VisemeTrack, openness, shapeOfTone, visemeWeights } from './viseme';

describe('visemes', () => {
  it('opens the mouth with the level, closed below the floor and fully open at OPEN_AT', () => {
    expect(openness(0)).toBe(0);
    expect(openness(CLOSED_BELOW)).toBe(0);
    expect(openness(OPEN_AT)).toBe(1);
    expect(openness(100)).toBe(1);
    const quiet = openness(CLOSED_BELOW + 5);
    const mid = openness(40);
    expect(quiet).toBeGreaterThan(0);
    expect(mid).toBeGreaterThan(quiet);
    expect(mid).toBeLessThan(1);
  });

  it('picks the vowel shape from the tone: dark ou/oh, middle aa, bright ee/ih', () => {
    expect([5, 30, 50, 70, 95].map(shapeOfTone)).toEqual(['ou', 'oh', 'aa', 'ee', 'ih']);
  });

  it('shows one shape at its openness, blended with aa as it opens wide', () => {
    expect(visemeWeights(0, 'oh')).toEqual({ aa: 0, ih: 0, ou: 0, ee: 0, oh: 0 });
    const w = visemeWeights(100, 'oh');
    expect(w.oh).toBeCloseTo(0.85);
    expect(w.aa).toBeCloseTo(0.35);
    expect(w.ih + w.ou + w.ee).toBe(0);
    expect(visemeWeights(100, 'aa')).toEqual({ aa: 1, ih: 0, ou: 0, ee: 0, oh: 0 });
  });

  it('without tones, each syllable takes the next shape of the cycle', () => {
    const t = new VisemeTrack();
    const shapes: string[] = [];
    // Three syllables: loud, loud, dip, loud, dip, loud.
    for (const level of [80, 90, 5, 80, 0, 70]) {
      const w = t.next(level);
      const top = Object.entries(w).sort((a, b) => b[1] - a[1])[0]!;
      shapes.push(top[1] === 0 ? '-' : top[0]);
    }
    expect(shapes).toEqual([CYCLE[0], CYCLE[0], '-', CYCLE[1], '-', CYCLE[2]]);
    t.reset();
    expect(Object.entries(t.next(80)).sort((a, b) => b[1] - a[1])[0]![0]).toBe(CYCLE[0]);
  });

  it('with tones the tone decides the shape', () => {
    const t = new VisemeTrack();
    expect(t.next(80, 90).ih).toBeGreaterThan(0.5);
    expect(t.next(80, 10).ou).toBeGreaterThan(0.5);
  });
});

describe('the mouth over time', () => {
  it('changes frame at most every MOUTH_HOLD_MS and says when it next changes', async () => {
    const { MouthTrack } = await import('./viseme');
    const m = new MouthTrack();
    // 20 ms windows: loud for 100 ms, quiet 20 ms, loud again, then silence.
    const levels = [90, 90, 90, 90, 90, 5, 90, 90, 90, 90, 90, 90, 90, 90, 0];
    m.push(1000, 20, levels);
    expect(m.show(999)).not.toBeNull(); // pending: closed until heard
    expect(Object.values(m.show(999)!).every((v) => v === 0)).toBe(true);
    expect(m.next(999)).toBe(1000);
    const open = m.show(1000)!;
    expect(open.aa).toBeGreaterThan(0.5);
    // The dip at 1100 comes before the hold ends: no change there; the
    // next is the closed window at 1280.
    expect(m.next(1001)).toBe(1280);
    m.show(1100);
    expect(m.show(1110)!.aa).toBeGreaterThan(0.5);
    // After the last window the mouth closes, then nothing is due.
    expect(m.show(1400)).toBeNull();
    expect(m.next(1400)).toBeNull();
  });

  it('changes between half and full open only after the longer hold', async () => {
    const { MouthTrack, MOUTH_HOLD_MS, OPEN_CHANGE_HOLD_MS } = await import('./viseme');
    const m = new MouthTrack();
    // Full open, then half open from 220 ms, then closed from 600 ms.
    const levels = [...Array(11).fill(90), ...Array(19).fill(30), 0];
    m.push(0, 20, levels);
    expect(m.show(0)!.aa).toBeGreaterThan(0.9);
    // Half open is heard at 220 (past MOUTH_HOLD_MS) but waits for the
    // longer hold of an open ↔ open change.
    expect(m.next(1)).toBe(OPEN_CHANGE_HOLD_MS);
    expect(m.show(MOUTH_HOLD_MS + 20)!.aa).toBeGreaterThan(0.9);
    const half = m.show(OPEN_CHANGE_HOLD_MS)!.aa;
    expect(half).toBeGreaterThan(0);
    expect(half).toBeLessThan(0.9);
    // Closing keeps the short hold.
    expect(m.next(OPEN_CHANGE_HOLD_MS + 1)).toBe(600);
  });

  it('gives each opening the next shape; tones choose instead', async () => {
    const { MouthTrack } = await import('./viseme');
    const m = new MouthTrack();
    m.push(0, 200, [90, 0, 90, 0]);
    const top = (w: ReturnType<typeof m.show>) => Object.entries(w!).sort((a, b) => b[1] - a[1])[0]![0];
    expect(top(m.show(0))).toBe(CYCLE[0]);
    m.show(200);
    expect(top(m.show(400))).toBe(CYCLE[1]);
    const t = new MouthTrack();
    t.push(0, 200, [90], [95]);
    expect(top(t.show(0))).toBe('ih');
  });
});
