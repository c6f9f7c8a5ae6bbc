import { describe, expect, it } from 'vitest';
import { StatusPill } from './pill';

describe('StatusPill', () => {
  it('is hidden when there is nothing to say', () => {
    const p = new StatusPill();
    expect(p.el.hidden).toBe(true);
    p.apply({ type: 'pill', tool: null, error: '' });
    expect(p.el.hidden).toBe(true);
  });

  it('shows the tool with a running dot, a done check and a failed mark', () => {
    const p = new StatusPill();
    const tool = p.el.querySelector<HTMLElement>('.pill-tool')!;
    const mark = () => p.el.querySelector('.pill-mark')!.textContent;
    p.apply({ type: 'pill', tool: { tool_id: 'read_file', state: 'running', label: 'read_file', phrase: 'Using read_file…' }, error: '' });
    expect(p.el.hidden).toBe(false);
    expect(tool.dataset.state).toBe('running');
    expect(mark()).toBe('');
    expect(p.el.querySelector('.pill-label')!.textContent).toBe('read_file');
    expect(tool.title).toBe('Using read_file… (running)');
    p.apply({ type: 'pill', tool: { tool_id: 'read_file', state: 'done', label: 'read_file' }, error: '' });
    expect(tool.dataset.state).toBe('done');
    expect(mark()).toBe('✓');
    expect(p.el.querySelector('.pill-label')!.textContent).toBe('read_file');
    p.apply({ type: 'pill', tool: { tool_id: 'weather', state: 'failed', label: 'weather' }, error: '' });
    expect(tool.dataset.state).toBe('failed');
    expect(mark()).toBe('✕');
    expect(tool.getAttribute('aria-label')).toBe('weather: failed');
    p.apply({ type: 'pill', tool: null, error: '' });
    expect(p.el.hidden).toBe(true);
  });

  it('shows a spoken turn error line, beside a tool or alone', () => {
    const p = new StatusPill();
    p.apply({ type: 'pill', tool: null, error: 'The backend failed.' });
    expect(p.el.hidden).toBe(false);
    expect(p.el.querySelector<HTMLElement>('.pill-tool')!.hidden).toBe(true);
    expect(p.el.querySelector('.pill-error')!.textContent).toBe('The backend failed.');
    p.apply({ type: 'pill', tool: { tool_id: 'x', state: 'done', label: 'x' }, error: 'The backend failed.' });
    expect(p.el.querySelector<HTMLElement>('.pill-tool')!.hidden).toBe(false);
    expect(p.el.querySelector('.pill-live')!.getAttribute('aria-live')).toBe('polite');
  });

  it('keeps the capture button out of the live region, which holds only the status text', () => {
    const p = new StatusPill();
    p.apply({ type: 'pill', tool: { tool_id: 'look', state: 'running', label: 'Look' }, error: 'The backend failed.', capture: true });
    const cap = p.el.querySelector<HTMLElement>('.pill-capture')!;
    const live = [p.el, ...p.el.querySelectorAll<HTMLElement>('*')]
      .filter((e) => e.hasAttribute('aria-live') || ['status', 'alert', 'log'].includes(e.getAttribute('role') ?? ''));
    expect(live).toHaveLength(1);
    const region = live[0]!;
    expect(region).not.toBe(p.el);
    expect(region.getAttribute('role')).toBe('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.contains(cap)).toBe(false);
    expect(region.querySelector('button, [role=button], [tabindex], a, input')).toBeNull();
    expect(region.textContent).toBe('LookThe backend failed.');
    // The pill holds them all, the capture segment first.
    expect([...p.el.querySelectorAll('.pill-seg')].map((e) => e.className)).toEqual([
      'pill-seg pill-capture', 'pill-seg pill-tool', 'pill-seg pill-error', 'pill-seg pill-voice',
    ]);
    expect(p.el.firstElementChild).toBe(cap);
  });

  it('takes the empty live region out of the row so the capture segment alone is as wide as before', () => {
    const p = new StatusPill();
    const region = p.el.querySelector<HTMLElement>('.pill-live')!;
    p.apply({ type: 'pill', tool: null, error: '', capture: true });
    expect(p.el.hidden).toBe(false);
    expect(region.dataset.empty).toBe('true');
    p.apply({ type: 'pill', tool: { tool_id: 'x', state: 'running', label: 'x' }, error: '', capture: true });
    expect(region.dataset.empty).toBeUndefined();
    p.apply({ type: 'pill', tool: null, error: 'oops', capture: false });
    expect(region.dataset.empty).toBeUndefined();
  });

  it('opens the screen settings from the capture segment by click, Enter or Space', () => {
    let opened = 0;
    const p = new StatusPill(() => opened++);
    const cap = p.el.querySelector<HTMLElement>('.pill-capture')!;
    p.apply({ type: 'pill', tool: null, error: '', capture: true });
    expect(p.el.hidden).toBe(false);
    expect(cap.hidden).toBe(false);
    expect(cap.getAttribute('role')).toBe('button');
    expect(cap.tabIndex).toBe(0);
    cap.click();
    expect(opened).toBe(1);
    for (const key of ['Enter', ' ']) {
      const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      cap.dispatchEvent(e);
      expect(e.defaultPrevented).toBe(true);
    }
    expect(opened).toBe(3);
    cap.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
    expect(opened).toBe(3);
  });
});
