import { describe, expect, it } from 'vitest';
import { ReasoningView } from './reasoning';

describe('ReasoningView', () => {
  it('is hidden when empty and shows a collapsed disclosure while streaming', () => {
    const r = new ReasoningView(() => {});
    expect(r.el.hidden).toBe(true);
    r.apply({ type: 'reasoning', turn_id: 't1', text: 'Let me see', streaming: true });
    expect(r.el.hidden).toBe(false);
    expect(r.open).toBe(false);
    expect(r.el.dataset.streaming).toBe('true');
    expect(r.el.querySelector('.reasoning-toggle')!.textContent).toBe('thinking…');
    (r.el.querySelector('.reasoning-toggle') as HTMLButtonElement).click();
    expect(r.open).toBe(true);
    expect(r.panel.textContent).toBe('Let me see');
    r.apply({ type: 'reasoning', turn_id: 't1', text: 'Let me see… it is sunny.', streaming: false });
    expect(r.panel.textContent).toBe('Let me see… it is sunny.');
    expect(r.el.dataset.streaming).toBe('false');
    expect(r.open).toBe(true);
  });

  it('collapses for a new turn and hides on empty text', () => {
    const r = new ReasoningView(() => {});
    r.apply({ type: 'reasoning', turn_id: 't1', text: 'a', streaming: false });
    r.setOpen(true);
    r.apply({ type: 'reasoning', turn_id: 't2', text: 'b', streaming: true });
    expect(r.open).toBe(false);
    r.apply({ type: 'reasoning', turn_id: 't2', text: '', streaming: false });
    expect(r.el.hidden).toBe(true);
  });

  it('renders text, never markup', () => {
    const r = new ReasoningView(() => {});
    r.apply({ type: 'reasoning', turn_id: 't', text: '<img src=x onerror=alert(1)>', streaming: true });
    expect(r.panel.querySelector('img')).toBeNull();
  });

  it('appends deltas to the text node instead of replacing the text', () => {
    const r = new ReasoningView(() => {});
    r.apply({ type: 'reasoning', turn_id: 't1', text: 'The log', streaming: true });
    const node = r.panel.firstChild;
    r.apply({ type: 'reasoning', turn_id: 't1', text: ' is first', streaming: true, append: true });
    r.apply({ type: 'reasoning', turn_id: 't1', text: '.', streaming: true, append: true });
    expect(r.text).toBe('The log is first.');
    expect(r.panel.textContent).toBe('The log is first.');
    expect(r.panel.childNodes.length).toBe(1);
    expect(r.panel.firstChild).toBe(node);
    r.apply({ type: 'reasoning', turn_id: 't1', text: '', streaming: false, append: true });
    expect(r.text).toBe('The log is first.');
    expect(r.el.dataset.streaming).toBe('false');
  });

  it('treats an append for another turn as a whole text', () => {
    const r = new ReasoningView(() => {});
    r.apply({ type: 'reasoning', turn_id: 't1', text: 'old turn', streaming: true });
    r.apply({ type: 'reasoning', turn_id: 't2', text: 'new', streaming: true, append: true });
    expect(r.text).toBe('new');
  });

  it('marks a cut text and replaces it whole', () => {
    const r = new ReasoningView(() => {});
    r.apply({ type: 'reasoning', turn_id: 't1', text: 'x'.repeat(60_000), streaming: true });
    expect(r.panel.dataset.cut).toBe('false');
    r.apply({ type: 'reasoning', turn_id: 't1', text: 'newest only', streaming: true, cut: true });
    expect(r.text).toBe('newest only');
    expect(r.panel.dataset.cut).toBe('true');
    r.apply({ type: 'reasoning', turn_id: 't1', text: ' and more', streaming: true, cut: true, append: true });
    expect(r.text).toBe('newest only and more');
    expect(r.panel.dataset.cut).toBe('true');
  });

  it('renders appended markup as text', () => {
    const r = new ReasoningView(() => {});
    r.apply({ type: 'reasoning', turn_id: 't', text: 'a', streaming: true });
    r.apply({ type: 'reasoning', turn_id: 't', text: '<img src=x onerror=alert(1)>', streaming: true, append: true });
    expect(r.panel.querySelector('img')).toBeNull();
    expect(r.text).toBe('a<img src=x onerror=alert(1)>');
  });

  it('beside a bubble only in the pet window: the message window keeps its ended thoughts', () => {
    const row = new ReasoningView(() => {});
    row.apply({ type: 'reasoning', turn_id: 't', text: 'Because.', streaming: false });
    expect(row.el.hidden).toBe(false);
    const pet = new ReasoningView(() => {}, { besideBubble: true });
    pet.apply({ type: 'reasoning', turn_id: 't', text: 'Because.', streaming: false });
    expect(pet.el.hidden).toBe(true);
    pet.setBubble(true);
    expect(pet.el.hidden).toBe(false);
  });
});
