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
});
