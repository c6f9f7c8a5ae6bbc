import { describe, expect, it } from 'vitest';
import { easeWeights, resolveEmotion, targetWeights, type EmotionMap } from './mixer';

const MAP: EmotionMap = {
  neutral: {}, happy: { happy: 1 }, sleepy: { relaxed: 0.6, blink: 0.45 }, smug: { smirk: 1, happy: 0.2 },
};
const all = () => true;

describe('expression mixing', () => {
  it('shows the emotion the core mapped, neutral for an unknown id', () => {
    expect(targetWeights(MAP, { emotion: 'happy', blink: 0, mouth: null }, all)).toEqual({ happy: 1 });
    expect(targetWeights(MAP, { emotion: 'smug', blink: 0, mouth: null }, all)).toEqual({ smirk: 1, happy: 0.2 });
    expect(resolveEmotion(MAP, 'furious')).toBe('neutral');
    expect(targetWeights(MAP, { emotion: 'furious', blink: 0, mouth: null }, all)).toEqual({});
  });

  it('leaves out expressions the model lacks', () => {
    expect(targetWeights(MAP, { emotion: 'smug', blink: 0, mouth: null }, (n) => n !== 'smirk')).toEqual({ happy: 0.2 });
  });

  it('a blink never closes the eyes past shut when the emotion half-closes them', () => {
    const w = targetWeights(MAP, { emotion: 'sleepy', blink: 1, mouth: null }, all);
    expect(w.blink).toBeCloseTo(1);
    const half = targetWeights(MAP, { emotion: 'sleepy', blink: 0.3, mouth: null }, all);
    expect(half.blink).toBeCloseTo(0.75);
  });

  it('adds the mouth, and a reaction fades the emotion out and its own in', () => {
    const w = targetWeights(MAP, {
      emotion: 'smug', blink: 0, mouth: { aa: 0.5, ih: 0, ou: 0, ee: 0, oh: 0.2 },
      reaction: { emotion: 'happy', strength: 0.5 },
    }, all);
    expect(w).toEqual({ smirk: 0.5, happy: 0.6, aa: 0.5, oh: 0.2 });
  });

  it('eases towards the target; the blink and the mouth jump; reports when settled', () => {
    const cur: Record<string, number> = {};
    expect(easeWeights(cur, { happy: 1, blink: 1, aa: 0.4 }, 1 / 60)).toBe(true);
    expect(cur.blink).toBe(1);
    expect(cur.aa).toBe(0.4);
    expect(cur.happy).toBeCloseTo(0.2);
    let frames = 0;
    while (easeWeights(cur, { happy: 1 }, 1 / 60)) frames++;
    expect(cur).toEqual({ happy: 1 });
    expect(frames).toBeLessThan(30); // settles within half a second
    expect(easeWeights(cur, { happy: 1 }, 1 / 60)).toBe(false);
  });
});
