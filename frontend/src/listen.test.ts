import { describe, expect, it, vi } from 'vitest';
import { ListenSegment, PushToTalk } from './listen';
import type { ListenState } from './protocol';

const st = (p: Partial<ListenState>): ListenState => ({ type: 'listen', mode: 'off', open: false, push_to_talk_key: 'F8', target: true, ...p });

describe('ListenSegment', () => {
  it('is hidden while listening is off and the microphone closed', () => {
    const s = new ListenSegment(() => {});
    s.apply(st({}));
    expect(s.el.hidden).toBe(true);
    expect(s.key).toBe('F8');
  });

  it('shows the microphone open and each stage of an utterance', () => {
    const s = new ListenSegment(() => {});
    s.apply(st({ mode: 'listening', open: true }));
    expect(s.el.hidden).toBe(false);
    expect(s.el.dataset.open).toBe('true');
    expect(s.el.textContent).toContain('listening');
    s.apply(st({ mode: 'hearing', open: true }));
    expect(s.el.textContent).toContain('hearing you');
    s.apply(st({ mode: 'sending', open: true }));
    expect(s.el.textContent).toContain('sending');
  });

  it('tells whether this character is the one who hears', () => {
    const s = new ListenSegment(() => {});
    const seen: boolean[] = [];
    s.onTarget = (t) => seen.push(t);
    s.apply(st({ target: false }));
    s.apply(st({ target: true }));
    expect(seen).toEqual([false, true]);
  });

  it('shows an error with a fix button that opens the settings', () => {
    const open = vi.fn();
    const s = new ListenSegment(open);
    s.apply(st({ mode: 'error', error: 'listening: check the transcription key', fix: 'listen-key' }));
    expect(s.el.hidden).toBe(false);
    expect(s.el.textContent).toContain('check the transcription key');
    const fix = s.el.querySelector('button')!;
    expect(fix.hidden).toBe(false);
    fix.click();
    expect(open).toHaveBeenCalledTimes(1);
  });
});

describe('PushToTalk', () => {
  const key = (type: string, k: string, repeat = false) => new KeyboardEvent(type, { key: k, repeat, bubbles: true });

  it('holds while the key is down, ignoring repeats and other keys', () => {
    const sent: boolean[] = [];
    const p = new PushToTalk(() => 'F8', (h) => sent.push(h));
    window.dispatchEvent(key('keydown', 'a'));
    window.dispatchEvent(key('keydown', 'F8'));
    window.dispatchEvent(key('keydown', 'F8', true));
    window.dispatchEvent(key('keyup', 'F8'));
    expect(sent).toEqual([true, false]);
    p.dispose();
  });

  it('releases when the window loses focus', () => {
    const sent: boolean[] = [];
    const p = new PushToTalk(() => 'F9', (h) => sent.push(h));
    window.dispatchEvent(key('keydown', 'F9'));
    window.dispatchEvent(new Event('blur'));
    expect(sent).toEqual([true, false]);
    p.dispose();
  });

  it('does nothing before the core names a key', () => {
    const sent: boolean[] = [];
    const p = new PushToTalk(() => '', (h) => sent.push(h));
    window.dispatchEvent(key('keydown', 'F8'));
    expect(sent).toEqual([]);
    p.dispose();
  });
});
