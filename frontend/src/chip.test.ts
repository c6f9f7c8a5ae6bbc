import { describe, expect, it } from 'vitest';
import { AGE_REFRESH_MS, DelegationsChip, age } from './chip';
import type { DelegationItem } from './protocol';
import { FakeScheduler } from './test-helpers';

function make() {
  const sched = new FakeScheduler();
  const chip = new DelegationsChip(sched, () => {});
  document.body.replaceChildren(chip.chip, chip.list);
  return { chip, sched };
}

describe('DelegationsChip', () => {
  it('is hidden with no items and counts the running ones', () => {
    const { chip, sched } = make();
    expect(chip.chip.hidden).toBe(true);
    const now = sched.now();
    const items: DelegationItem[] = [
      { id: 'a', title: 'Sort tests', started_at: now - 180_000, state: 'running' },
      { id: 'b', title: 'Count logs', started_at: now - 60_000, state: 'running' },
      { id: 'c', title: 'Old', started_at: now - 900_000, state: 'done', ended_at: now - 600_000, status: 'ok', summary: 'Done well.' },
    ];
    chip.apply({ type: 'delegations', items });
    expect(chip.chip.hidden).toBe(false);
    expect(chip.chip.dataset.count).toBe('2');
    expect(chip.chip.querySelector('.chip-count')!.textContent).toBe('2');
    expect(chip.chip.getAttribute('aria-label')).toContain('2 background tasks running, 1 done');
    // Done: the count says so; the tooltip never names a count that can go stale.
    const title = chip.chip.title;
    expect(title).toBe('Background tasks: click for the list');
    chip.apply({ type: 'delegations', items: [{ ...items[2]! }] });
    expect(chip.chip.getAttribute('aria-label')).toBe('1 background task done: show the list');
    expect(chip.chip.title).toBe(title);
    expect(chip.chip.title).not.toContain('running');
    chip.apply({ type: 'delegations', items: [] });
    expect(chip.chip.hidden).toBe(true);
    chip.apply({ type: 'delegations', items: null });
    expect(chip.chip.hidden).toBe(true);
  });

  it('opens a list with title, state, age, status and an expandable summary', () => {
    const { chip, sched } = make();
    const now = sched.now();
    chip.apply({ type: 'delegations', items: [
      { id: 'a', title: 'Sort tests', started_at: now - 3 * 60_000, state: 'running' },
      { id: 'c', title: 'Rebuild', started_at: now - 900_000, state: 'done', ended_at: now - 30_000, status: 'error', summary: 'Read-only disk.' },
    ] });
    expect(chip.open).toBe(false);
    chip.chip.click();
    expect(chip.open).toBe(true);
    expect(chip.chip.getAttribute('aria-expanded')).toBe('true');
    const rows = chip.list.querySelectorAll('.delegation');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.querySelector('.delegation-title')!.textContent).toBe('Sort tests');
    expect(rows[0]!.querySelector('.delegation-state')!.textContent).toBe('running');
    expect(rows[0]!.querySelector('.delegation-age')!.textContent).toBe('3 min');
    expect(rows[1]!.querySelector('.delegation-state')!.textContent).toBe('failed');
    expect(rows[1]!.querySelector('.delegation-age')!.textContent).toBe('just now');
    const sum = () => chip.list.querySelector<HTMLButtonElement>('[data-id="c"] .delegation-summary')!;
    expect(sum().textContent).toBe('Read-only disk.');
    expect(sum().dataset.expanded).toBe('false');
    sum().click();
    expect(sum().dataset.expanded).toBe('true');
    chip.chip.click();
    expect(chip.open).toBe(false);
  });

  it('refreshes ages once a minute only while open, and arms no timer otherwise', () => {
    const { chip, sched } = make();
    const now = sched.now();
    chip.apply({ type: 'delegations', items: [{ id: 'a', title: 'T', started_at: now - 60_000, state: 'running' }] });
    expect(chip.pendingTimers).toBe(0);
    expect(sched.timers.size).toBe(0);
    chip.setOpen(true);
    expect(sched.delays).toEqual([AGE_REFRESH_MS]);
    const ageText = () => chip.list.querySelector('.delegation-age')!.textContent;
    expect(ageText()).toBe('1 min');
    sched.advance(AGE_REFRESH_MS);
    expect(ageText()).toBe('2 min');
    expect(sched.timers.size).toBe(1);
    chip.setOpen(false);
    expect(sched.timers.size).toBe(0);
  });

  it('closes the list when the items go away', () => {
    const { chip, sched } = make();
    chip.apply({ type: 'delegations', items: [{ id: 'a', title: 'T', started_at: sched.now(), state: 'running' }] });
    chip.setOpen(true);
    chip.apply({ type: 'delegations', items: [] });
    expect(chip.open).toBe(false);
    expect(sched.timers.size).toBe(0);
  });

  it('formats ages compactly', () => {
    expect(age(5_000)).toBe('just now');
    expect(age(3 * 60_000 + 5_000)).toBe('3 min');
    expect(age(2 * 3_600_000)).toBe('2 h');
    expect(age(3 * 86_400_000)).toBe('3 d');
    expect(age(-5)).toBe('just now');
  });
});
