import { describe, expect, it } from 'vitest';
import { BUBBLE_HIDE_MS, SpeechBubble } from './bubble';
import type { Bubble } from './protocol';
import { FakeScheduler } from './test-helpers';

let seq = 0;
const b = (text: string, speaking: boolean, turn_id = 't1', kind = 'speech'): Bubble =>
  ({ type: 'bubble', seq: ++seq, turn_id, kind, text, speaking, muted: false });

function make() {
  const sched = new FakeScheduler();
  const opened: string[] = [];
  let changes = 0;
  const bubble = new SpeechBubble(sched, (u) => opened.push(u), () => changes++);
  document.body.replaceChildren(bubble.el);
  return { bubble, sched, opened, changes: () => changes };
}

const text = (bubble: SpeechBubble) => bubble.el.querySelector('.bubble-text')!.textContent;

describe('SpeechBubble', () => {
  it('shows each sentence as it plays and hides ~4 s after the last one ended', () => {
    const { bubble, sched } = make();
    expect(bubble.visible).toBe(false);
    bubble.apply(b('First sentence.', true));
    expect(bubble.visible).toBe(true);
    expect(text(bubble)).toBe('First sentence.');
    expect(bubble.pendingTimers).toBe(0); // no hide timer while speaking
    sched.advance(10_000);
    expect(bubble.visible).toBe(true);
    bubble.apply(b('First sentence.', false));
    bubble.apply(b('Second one.', true));
    expect(text(bubble)).toBe('Second one.');
    expect(bubble.pendingTimers).toBe(0);
    bubble.apply(b('Second one.', false));
    expect(bubble.pendingTimers).toBe(1);
    sched.advance(BUBBLE_HIDE_MS - 1);
    expect(bubble.visible).toBe(true);
    sched.advance(1);
    expect(bubble.visible).toBe(false);
    expect(bubble.pendingTimers).toBe(0);
  });

  it('a new sentence within the delay keeps it up', () => {
    const { bubble, sched } = make();
    bubble.apply(b('One.', false));
    sched.advance(BUBBLE_HIDE_MS - 100);
    bubble.apply(b('Two.', true));
    sched.advance(BUBBLE_HIDE_MS);
    expect(bubble.visible).toBe(true);
  });

  it('pauses hiding while hovered', () => {
    const { bubble, sched } = make();
    bubble.apply(b('Hover me.', false));
    sched.advance(1000);
    bubble.el.dispatchEvent(new MouseEvent('mouseenter'));
    expect(bubble.pendingTimers).toBe(0);
    sched.advance(60_000);
    expect(bubble.visible).toBe(true);
    bubble.el.dispatchEvent(new MouseEvent('mouseleave'));
    sched.advance(BUBBLE_HIDE_MS);
    expect(bubble.visible).toBe(false);
  });

  it('× closes it for the rest of that reply, until a bubble of another turn', () => {
    const { bubble } = make();
    bubble.apply(b('Part one.', true, 'turn-a'));
    (bubble.el.querySelector('.bubble-close') as HTMLButtonElement).click();
    expect(bubble.visible).toBe(false);
    bubble.apply(b('Part two.', true, 'turn-a'));
    expect(bubble.visible).toBe(false);
    bubble.apply(b('Next reply.', true, 'turn-b'));
    expect(bubble.visible).toBe(true);
    expect(text(bubble)).toBe('Next reply.');
  });

  it('× on a filler or failure line hides only that line; the reply still shows', () => {
    const { bubble } = make();
    bubble.apply(b('Let me think…', false, 'turn-a', 'filler'));
    (bubble.el.querySelector('.bubble-close') as HTMLButtonElement).click();
    expect(bubble.visible).toBe(false);
    bubble.apply(b('Let me think…', false, 'turn-a', 'filler')); // the same line again (a replay)
    expect(bubble.visible).toBe(false);
    bubble.apply(b('Here is the answer.', true, 'turn-a'));
    expect(bubble.visible).toBe(true);
    expect(text(bubble)).toBe('Here is the answer.');
    // × on speech keeps today's rule: closed for the rest of that reply.
    (bubble.el.querySelector('.bubble-close') as HTMLButtonElement).click();
    bubble.apply(b('And more.', true, 'turn-a'));
    expect(bubble.visible).toBe(false);
    // A failure line closed with × does not hide the next line of its turn.
    bubble.apply(b('Sorry, that went wrong.', false, 'turn-b', 'failure'));
    (bubble.el.querySelector('.bubble-close') as HTMLButtonElement).click();
    bubble.apply(b('Trying again.', true, 'turn-b'));
    expect(bubble.visible).toBe(true);
  });

  it('empty text hides it at once', () => {
    const { bubble } = make();
    bubble.apply(b('Hi.', true));
    bubble.apply(b('', false));
    expect(bubble.visible).toBe(false);
    expect(bubble.pendingTimers).toBe(0);
  });

  it('strips decorative emoji and links only http(s)', () => {
    const { bubble, opened } = make();
    bubble.apply(b('Look 👀 [here](https://example.com) or [there](javascript:alert(1)) 🎉', true));
    expect(text(bubble)).toBe('Look here or there');
    const links = bubble.el.querySelectorAll('a');
    expect(links).toHaveLength(1);
    links[0]!.click();
    expect(opened).toEqual(['https://example.com/']);
    // A sentence of only emoji shows nothing.
    bubble.apply(b('😊', true));
    expect(bubble.visible).toBe(false);
  });

  it('marks filler and failure lines for their own style', () => {
    const { bubble } = make();
    bubble.apply(b('Hmm...', true, 't1', 'filler'));
    expect(bubble.el.dataset.kind).toBe('filler');
    bubble.apply(b('Sorry, something went wrong.', false, 't1', 'failure'));
    expect(bubble.el.dataset.kind).toBe('failure');
  });

  it('has a polite live region and a labelled close button', () => {
    const { bubble } = make();
    expect(bubble.el.getAttribute('aria-live')).toBe('polite');
    expect(bubble.el.getAttribute('role')).toBe('status');
    expect(bubble.el.querySelector('.bubble-close')!.getAttribute('aria-label')).toBeTruthy();
  });
});
