import { describe, expect, it } from 'vitest';
import { UsageReadout, compact } from './usage';

describe('UsageReadout', () => {
  it('is hidden until the first usage, then reads "total / window"', () => {
    const u = new UsageReadout();
    expect(u.el.hidden).toBe(true);
    u.apply({ type: 'usage', total_tokens: 0, context_window: 128000 });
    expect(u.el.hidden).toBe(true);
    u.apply({ type: 'usage', total_tokens: 1342, context_window: 128000 });
    expect(u.el.hidden).toBe(false);
    expect(u.el.textContent).toBe('1.3k / 128k');
    u.apply({ type: 'usage', total_tokens: 950, context_window: 0 });
    expect(u.el.textContent).toBe('950 used');
    expect(u.el.title).toContain('pieces of words');
  });

  it('compacts numbers', () => {
    expect(compact(999)).toBe('999');
    expect(compact(1000)).toBe('1k');
    expect(compact(12_345)).toBe('12k');
    expect(compact(1_048_576)).toBe('1M');
    expect(compact(2_500_000)).toBe('2.5M');
  });
});
