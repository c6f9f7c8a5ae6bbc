// The settings window's "Speaking first" section (docs/proactive.md): when
// a character speaks on her own — greetings, check-ins, notes on the app,
// reminders — and the manners that hold her back, for every character. Its
// edits are drafts of the form's one Save and Revert (a FormPart, like the
// Listening section); the core validates and names a wrong field
// (proactive.checkin_minutes[1], proactive.schedules[0].at …).

import { t, type Key } from '../i18n';
import { el } from '../dom';
import type { CoreMessage, ProactiveForm, SaveSettings, ScheduleForm, SettingsResult } from '../protocol';
import type { FormPart } from './listen';
import { ErrorLine } from './errorline';
import { checkRow, fieldRow } from './rows';

type Check = 'quiet' | 'greetings' | 'checkins' | 'app_notes' | 'quiet_hours';
type Text = 'morning' | 'afternoon' | 'evening' | 'night' | 'quiet_from' | 'quiet_to' | 'checkin_minutes' | 'call_apps';

/** The time fields' names for assistive technology. */
const TIME_LABELS: Partial<Record<Text, Key>> = {
  morning: 'settings.proactive.morning', afternoon: 'settings.proactive.afternoon', evening: 'settings.proactive.evening',
  night: 'settings.proactive.night', quiet_from: 'settings.proactive.quiet_from', quiet_to: 'settings.proactive.quiet_to',
};
type Num = 'away_minutes' | 'stretch_minutes' | 'quiet_gap_minutes' | 'debounce_minutes' | 'hourly_cap';

const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** One reminder as a line: "16:00 tea", "mon,fri 16:00 tea", "2026-12-24 09:00 gifts". */
export function scheduleLine(s: ScheduleForm): string {
  const when = s.date || (s.days ?? []).join(',');
  return [when, s.at, s.label].filter((x) => x).join(' ');
}

/** Reads a reminder line; what it cannot read goes to the core as typed, which refuses it naming the field. */
export function parseSchedule(line: string): ScheduleForm {
  const words = line.trim().split(/\s+/);
  const s: ScheduleForm = { label: '', at: '', date: '', days: null };
  if (/^\d{4}-\d{2}-\d{2}$/.test(words[0] ?? '')) s.date = words.shift()!;
  else if (/^[a-z]{3}(,[a-z]{3})*$/i.test(words[0] ?? '') && words[0]!.toLowerCase().split(',').every((d) => days.includes(d))) {
    s.days = words.shift()!.toLowerCase().split(',');
  }
  s.at = words.shift() ?? '';
  s.label = words.join(' ');
  return s;
}

export class ProactiveSection implements FormPart {
  readonly el: HTMLElement;
  private readonly checks = new Map<Check, HTMLInputElement>();
  private readonly texts = new Map<Text | Num, HTMLInputElement>();
  private readonly whenMuted: HTMLSelectElement;
  private readonly schedules: HTMLTextAreaElement;
  private readonly error = new ErrorLine('proactive-error');
  private saved: ProactiveForm | null = null;
  /** current() right after the saved form was shown. */
  private baseline = '';
  private edited = false;
  onEdit: () => void = () => {};

  constructor() {
    this.el = el('section', 'section proactive-section');
    this.el.id = 'section-proactive';
    this.el.dataset.section = 'proactive';
    const h = el('h2', 'section-title', t('settings.proactive.title'));
    h.id = 'proactive-title';
    this.el.setAttribute('aria-labelledby', h.id);
    this.el.append(h);
    this.check('quiet', t('settings.proactive.quiet'), t('settings.proactive.quiet_hint'));
    this.check('greetings', t('settings.proactive.greetings'), t('settings.proactive.greetings_hint'));
    this.row(t('settings.proactive.parts'), this.times(['morning', 'afternoon', 'evening', 'night'], ['06:00', '12:00', '18:00', '21:00']),
      'proactive-parts', t('settings.proactive.parts_hint'));
    this.row(t('settings.proactive.away'), this.number('away_minutes', '20'), 'proactive-away', t('settings.proactive.away_hint'));
    this.check('checkins', t('settings.proactive.checkins'), t('settings.proactive.checkins_hint'));
    this.row(t('settings.proactive.checkin_after'), this.text('checkin_minutes', '30, 90'), 'proactive-checkins', t('settings.proactive.checkin_after_hint'));
    this.check('app_notes', t('settings.proactive.app_notes'), t('settings.proactive.app_notes_hint'));
    this.row(t('settings.proactive.stretch'), this.number('stretch_minutes', '90'), 'proactive-stretch', '');
    this.check('quiet_hours', t('settings.proactive.quiet_hours'), t('settings.proactive.quiet_hours_hint'));
    this.row(t('settings.proactive.quiet_from_to'), this.times(['quiet_from', 'quiet_to'], ['22:30', '07:30']), 'proactive-quiet-hours', t('settings.proactive.quiet_from_to_hint'));
    this.row(t('settings.proactive.cap'), this.number('hourly_cap', '2'), 'proactive-cap', '');
    this.row(t('settings.proactive.gap'), this.number('quiet_gap_minutes', '5'), 'proactive-gap', '');
    this.row(t('settings.proactive.debounce'), this.number('debounce_minutes', '20'), 'proactive-debounce', '');
    this.whenMuted = el('select', 'control');
    this.whenMuted.id = 'proactive-when_muted';
    for (const [v, label] of [['', t('settings.proactive.muted_quiet')], ['text', t('settings.proactive.muted_text')]]) {
      const o = el('option', '', label);
      o.value = v;
      this.whenMuted.append(o);
    }
    this.row(t('settings.proactive.when_muted'), this.whenMuted, 'proactive-muted', '');
    this.row(t('settings.proactive.calls'), this.text('call_apps', 'zoom, teams, webex, skype, jitsi, obs, google meet, meet - , discord'),
      'proactive-calls', t('settings.proactive.calls_hint'));
    this.schedules = el('textarea', 'control');
    this.schedules.id = 'proactive-schedules';
    this.schedules.rows = 3;
    this.schedules.placeholder = '16:00 tea\nmon,fri 09:30 stand-up\n2026-12-24 10:00 wrap the gifts';
    this.row(t('settings.proactive.reminders'), this.schedules, 'proactive-schedules', t('settings.proactive.reminders_hint'));
    this.el.append(this.error.el);
    const edited = () => {
      this.edited = true;
      this.clearError();
      this.onEdit();
    };
    this.el.addEventListener('input', edited);
    this.el.addEventListener('change', edited);
  }

  mount(parent: HTMLElement): void {
    parent.append(this.el);
  }

  private row(label: string, control: HTMLElement, id: string, hint: string): void {
    this.el.append(fieldRow(label, control, id, hint));
  }

  private check(field: Check, label: string, hint: string): void {
    const i = el('input');
    i.type = 'checkbox';
    i.id = `proactive-${field}`;
    this.checks.set(field, i);
    this.el.append(checkRow(i, label, hint));
  }

  private text(field: Text, placeholder: string): HTMLInputElement {
    const i = el('input', 'control');
    i.type = 'text';
    i.id = `proactive-${field}`;
    i.placeholder = placeholder;
    i.autocomplete = 'off';
    i.spellcheck = false;
    this.texts.set(field, i);
    return i;
  }

  private number(field: Num, placeholder: string): HTMLInputElement {
    const i = el('input', 'control');
    i.type = 'number';
    i.min = '1';
    i.id = `proactive-${field}`;
    i.placeholder = placeholder;
    this.texts.set(field, i);
    return i;
  }

  private times(fields: Text[], placeholders: string[]): HTMLElement {
    const box = el('div', 'proactive-times');
    fields.forEach((f, n) => {
      const i = this.text(f, placeholders[n]!);
      i.inputMode = 'numeric';
      i.size = 5;
      const label = TIME_LABELS[f];
      i.setAttribute('aria-label', label ? t(label) : f);
      box.append(i);
    });
    return box;
  }

  apply(m: CoreMessage): void {
    if (m.type !== 'settings_proactive') return;
    // Drafts stay: a new saved form (the tray's switch) shows only while
    // nothing is edited.
    const keep = this.dirty ? this.current() : null;
    this.saved = m.form;
    this.show(m.form);
    this.baseline = JSON.stringify(this.current());
    if (keep) this.show(keep);
    else this.edited = false;
    this.onEdit();
  }

  private show(f: ProactiveForm): void {
    const c = (k: Check) => this.checks.get(k)!;
    c('quiet').checked = f.quiet;
    c('greetings').checked = !f.greetings_off;
    c('checkins').checked = !f.checkins_off;
    c('app_notes').checked = !f.app_notes_off;
    c('quiet_hours').checked = !f.quiet_hours_off;
    const t = (k: Text | Num, v: string) => { this.texts.get(k)!.value = v; };
    for (const k of ['morning', 'afternoon', 'evening', 'night', 'quiet_from', 'quiet_to'] as const) t(k, f[k]);
    for (const k of ['away_minutes', 'stretch_minutes', 'quiet_gap_minutes', 'debounce_minutes', 'hourly_cap'] as const) t(k, f[k] ? String(f[k]) : '');
    t('checkin_minutes', (f.checkin_minutes ?? []).join(', '));
    t('call_apps', (f.call_apps ?? []).join(', '));
    this.whenMuted.value = f.when_muted === 'text' ? 'text' : '';
    this.schedules.value = (f.schedules ?? []).map(scheduleLine).join('\n');
  }

  /** The form as edited now. */
  current(): ProactiveForm {
    const c = (k: Check) => this.checks.get(k)!.checked;
    const t = (k: Text | Num) => this.texts.get(k)!.value.trim();
    const n = (k: Num) => (t(k) === '' ? 0 : Number(t(k)));
    const list = (k: Text) => t(k).split(',').map((s) => s.trim()).filter((s) => s);
    const mins = list('checkin_minutes').map(Number);
    const apps = list('call_apps');
    const sched = this.schedules.value.split('\n').filter((l) => l.trim()).map(parseSchedule);
    return {
      quiet: c('quiet'), greetings_off: !c('greetings'),
      morning: t('morning'), afternoon: t('afternoon'), evening: t('evening'), night: t('night'),
      away_minutes: n('away_minutes'), checkins_off: !c('checkins'), checkin_minutes: mins.length ? mins : null,
      app_notes_off: !c('app_notes'), stretch_minutes: n('stretch_minutes'), quiet_gap_minutes: n('quiet_gap_minutes'),
      debounce_minutes: n('debounce_minutes'), hourly_cap: n('hourly_cap'), quiet_hours_off: !c('quiet_hours'),
      quiet_from: t('quiet_from'), quiet_to: t('quiet_to'), when_muted: this.whenMuted.value,
      call_apps: apps.length ? apps : null, schedules: sched.length ? sched : null,
    };
  }

  get dirty(): boolean {
    return !!this.saved && this.edited && JSON.stringify(this.current()) !== this.baseline;
  }

  addTo(req: SaveSettings): void {
    if (this.dirty) req.proactive = this.current();
  }

  answered(r: SettingsResult, sent: SaveSettings): void {
    if (!sent.proactive) return;
    if (r.ok) {
      this.saved = sent.proactive;
      this.baseline = JSON.stringify(sent.proactive);
      this.onEdit();
      return;
    }
    if (!r.field?.startsWith('proactive.')) return;
    const name = r.field.replace(/^proactive\./, '').split(/[.[]/)[0]!;
    const ctl: HTMLElement | undefined = name === 'schedules' ? this.schedules : name === 'when_muted' ? this.whenMuted
      : this.texts.get(name as Text) ?? this.checks.get(name as Check);
    this.error.show(r.error ?? t('settings.not_saved'), ctl, false);
  }

  revert(): void {
    this.clearError();
    if (this.saved) this.show(this.saved);
    this.edited = false;
  }

  private clearError(): void {
    this.error.clear([...this.texts.values(), ...this.checks.values(), this.schedules, this.whenMuted]);
  }
}
