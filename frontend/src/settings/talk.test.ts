import { describe, expect, it } from 'vitest';
import type { SaveSettings, SettingsState, TalkState } from '../protocol';
import { TalkSection } from './talk';

function state(talk: TalkState): SettingsState {
  return { type: 'settings_state', revision: 1, path: '', active_preset: 'p', presets: [], choices: {} as SettingsState['choices'], talk };
}

function req(): SaveSettings {
  return { type: 'save_settings', request_id: 'r', active_preset: 'p', presets: [] };
}

function type(i: HTMLInputElement, v: string): void {
  i.value = v;
  i.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('TalkSection', () => {
  it('shows the caps in force with the core\'s bounds, saves what is shown, and shows a refused field', () => {
    const s = new TalkSection();
    document.body.append(s.el);
    let edits = 0;
    s.onEdit = () => edits++;
    s.apply(state({ max_hops: 6, per_minute: 6, hops_limit: 20, per_minute_limit: 30 }));
    const hops = s.el.querySelector<HTMLInputElement>('#talk-max_hops')!;
    const rate = s.el.querySelector<HTMLInputElement>('#talk-per_minute')!;
    expect(s.el.textContent).toContain('Characters talking among themselves');
    expect(s.el.textContent).toContain('turns in a row');
    expect(s.el.textContent).toContain('per minute');
    expect([hops.value, hops.min, hops.max]).toEqual(['6', '1', '20']);
    expect([rate.value, rate.min, rate.max]).toEqual(['6', '1', '30']);
    expect(s.dirty).toBe(false);
    const r0 = req();
    s.addTo(r0);
    expect(r0.talk).toBeUndefined();

    type(hops, '3');
    type(rate, '12');
    expect(s.dirty).toBe(true);
    expect(edits).toBeGreaterThan(0);
    const r1 = req();
    s.addTo(r1);
    expect(r1.talk).toEqual({ max_hops: 3, per_minute: 12 });
    s.answered({ type: 'settings_result', request_id: 'r', ok: true }, r1);
    s.apply(state({ max_hops: 3, per_minute: 12, hops_limit: 20, per_minute_limit: 30 }));
    expect(s.dirty).toBe(false);
    expect([hops.value, rate.value]).toEqual(['3', '12']);

    // Out of range goes as shown and the core names the field; not a whole
    // number goes as -1, which the core refuses too.
    type(hops, '21');
    type(rate, '2.5');
    const r2 = req();
    s.addTo(r2);
    expect(r2.talk).toEqual({ max_hops: 21, per_minute: -1 });
    s.answered({ type: 'settings_result', request_id: 'r', ok: false, field: 'talk.max_hops', error: 'must be 1 to 20 (0 is the default, 6)' }, r2);
    expect(hops.getAttribute('aria-invalid')).toBe('true');
    expect(s.el.querySelector('.talk-error')?.textContent).toContain('must be 1 to 20');
    // A state arriving meanwhile keeps the draft.
    s.apply(state({ max_hops: 3, per_minute: 12, hops_limit: 20, per_minute_limit: 30 }));
    expect(hops.value).toBe('21');
    s.revert();
    expect([hops.value, rate.value]).toEqual(['3', '12']);
    expect(s.dirty).toBe(false);
    expect(hops.hasAttribute('aria-invalid')).toBe(false);

    // An empty box is the default (0).
    type(rate, '');
    const r3 = req();
    s.addTo(r3);
    expect(r3.talk).toEqual({ max_hops: 3, per_minute: 0 });
  });

  it('ignores a state without talk (an older core)', () => {
    const s = new TalkSection();
    s.apply({ ...state({ max_hops: 6, per_minute: 6, hops_limit: 20, per_minute_limit: 30 }), talk: undefined });
    expect(s.dirty).toBe(false);
    const r = req();
    s.addTo(r);
    expect(r.talk).toBeUndefined();
  });
});
