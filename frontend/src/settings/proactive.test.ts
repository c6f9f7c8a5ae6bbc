import { describe, expect, it } from 'vitest';
import type { ProactiveForm, SaveSettings } from '../protocol';
import { parseSchedule, ProactiveSection, scheduleLine } from './proactive';

const saved: ProactiveForm = {
  quiet: false, greetings_off: false, morning: '', afternoon: '', evening: '', night: '', away_minutes: 0,
  checkins_off: false, checkin_minutes: null, app_notes_off: false, stretch_minutes: 0, quiet_gap_minutes: 0,
  debounce_minutes: 0, hourly_cap: 0, quiet_hours_off: false, quiet_from: '', quiet_to: '', when_muted: '',
  call_apps: null, schedules: [{ label: 'tea', at: '16:00', date: '', days: null }],
};

function req(): SaveSettings {
  return { type: 'save_settings', request_id: 'r', active_preset: 'p', presets: [] };
}

describe('ProactiveSection', () => {
  it('reads reminder lines both ways', () => {
    expect(parseSchedule('mon,fri 09:30 stand up')).toEqual({ label: 'stand up', at: '09:30', date: '', days: ['mon', 'fri'] });
    expect(parseSchedule('2026-12-24 10:00 gifts')).toEqual({ label: 'gifts', at: '10:00', date: '2026-12-24', days: null });
    expect(parseSchedule('16:00 tea')).toEqual({ label: 'tea', at: '16:00', date: '', days: null });
    expect(scheduleLine({ label: 'stand up', at: '09:30', date: '', days: ['mon', 'fri'] })).toBe('mon,fri 09:30 stand up');
  });

  it('shows the saved section, is a draft of the form\'s Save, and shows a refused field', () => {
    const s = new ProactiveSection();
    document.body.append(s.el);
    let edits = 0;
    s.onEdit = () => edits++;
    s.apply({ type: 'settings_proactive', form: saved });
    expect(s.dirty).toBe(false);
    const r0 = req();
    s.addTo(r0);
    expect(r0.proactive).toBeUndefined();
    const quiet = s.el.querySelector<HTMLInputElement>('#proactive-quiet')!;
    quiet.checked = true;
    quiet.dispatchEvent(new Event('change', { bubbles: true }));
    const mins = s.el.querySelector<HTMLInputElement>('#proactive-checkin_minutes')!;
    mins.value = '45, 20';
    mins.dispatchEvent(new Event('input', { bubbles: true }));
    expect(s.dirty).toBe(true);
    expect(edits).toBeGreaterThan(0);
    const r1 = req();
    s.addTo(r1);
    expect(r1.proactive?.quiet).toBe(true);
    expect(r1.proactive?.checkin_minutes).toEqual([45, 20]);
    expect(r1.proactive?.schedules).toEqual(saved.schedules);
    s.answered({ type: 'settings_result', request_id: 'r', ok: false, field: 'proactive.checkin_minutes[1]',
      error: 'minutes from 1 to 1440, each later than the one before' }, r1);
    expect(mins.getAttribute('aria-invalid')).toBe('true');
    expect(s.el.querySelector('.proactive-error')?.textContent).toContain('each later');
    s.revert();
    expect(quiet.checked).toBe(false);
    expect(s.dirty).toBe(false);
  });
});
