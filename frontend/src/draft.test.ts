import { describe, expect, it } from 'vitest';
import { ANSWER_WAIT_MS, PendingSend } from './draft';

describe('PendingSend', () => {
  it('settles on the lock (accepted), a composer error or a failure line (refused)', () => {
    let t = 0;
    const p = new PendingSend(() => t);
    expect(p.answer({ type: 'composer', locked: true })).toBeNull(); // nothing sent
    p.sent({ text: 'hi', images: [] });
    expect(p.answer({ type: 'composer', locked: false })).toBeNull();
    expect(p.answer({ type: 'error_line', text: '', where: 'composer' })).toBeNull();
    expect(p.answer({ type: 'error_line', text: 'oops', where: 'pill' })).toBeNull();
    expect(p.answer({ type: 'bubble', seq: 1, turn_id: 't', kind: 'filler', text: 'Hm', speaking: false, muted: false })).toBeNull();
    expect(p.answer({ type: 'composer', locked: true })).toEqual({ answer: 'accepted', draft: { text: 'hi', images: [] } });
    expect(p.answer({ type: 'composer', locked: true })).toBeNull();
    p.sent({ text: 'x', images: ['data:,'] });
    expect(p.answer({ type: 'error_line', text: 'At most 6 images', where: 'composer' })?.answer).toBe('refused');
    p.sent({ text: 'y', images: [] });
    expect(p.answer({ type: 'bubble', seq: 2, turn_id: 't', kind: 'failure', text: 'No connection', speaking: false, muted: false })?.answer).toBe('refused');
    expect(p.awaiting).toBe(false);
  });

  it('awaits an answer for at most ANSWER_WAIT_MS', () => {
    let t = 1000;
    const p = new PendingSend(() => t);
    p.sent({ text: 'hi', images: [] });
    expect(p.awaiting).toBe(true);
    t += ANSWER_WAIT_MS - 1;
    expect(p.awaiting).toBe(true);
    t += 1;
    expect(p.awaiting).toBe(false);
  });
});
