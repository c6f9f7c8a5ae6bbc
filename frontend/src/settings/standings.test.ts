import { describe, expect, it } from 'vitest';
import { byLabel, choose, q, saveButton, setup, state } from './test-fixtures';

describe('Permissions: her standings and the local-pages switch', () => {
  it('lists her standings with the last reason and resets one', () => {
    const { view, sent } = setup();
    const s = state();
    s.presets![0]!.standings = [
      { target: 'user', name: 'You', value: 42, band: 'friendly', reason: 'made me tea', at: 1 },
      { target: 'p-0000000b', name: 'Mika', value: -3, band: 'neutral', at: 2 },
    ];
    view.apply(s);
    const rows = [...document.querySelectorAll<HTMLElement>('.standing')];
    expect(rows.map((r) => r.querySelector('.standing-label')!.textContent)).toEqual(['You: 42 (friendly)', 'Mika: -3 (neutral)']);
    expect(rows[0]!.querySelector('.standing-reason')!.textContent).toBe('— made me tea');
    expect(rows[1]!.querySelector('.standing-reason')).toBeNull();
    rows[1]!.querySelector<HTMLButtonElement>('.standing-reset')!.click();
    expect(sent.filter((m) => m.type === 'reset_standing')).toEqual([{ type: 'reset_standing', preset: 'p-0000000a', target: 'p-0000000b' }]);
    // The core's next state without it.
    const next = state();
    next.presets![0]!.standings = [s.presets![0]!.standings![0]!];
    view.apply(next);
    expect(document.querySelectorAll('.standing').length).toBe(1);
    expect(q('.standings .hint').hidden).toBe(true);
  });

  it('says when she has none yet', () => {
    const { view } = setup();
    view.apply(state());
    expect(document.querySelectorAll('.standing').length).toBe(0);
    expect(q('.standings .hint').hidden).toBe(false);
  });

  it('saves "May read pages on this computer and local network" as local_pages', () => {
    const { view, saves } = setup();
    view.apply(state());
    const sw = byLabel('May read pages on this computer and local network');
    expect(sw.checked).toBe(false);
    choose(sw, true);
    saveButton().click();
    expect(saves()[0]!.presets[0]!.permissions.local_pages).toBe(true);
  });
});
