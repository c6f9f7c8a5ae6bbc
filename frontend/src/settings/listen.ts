// The settings window's Listening section (docs/voice.md, "Listening"):
// one for every character (there is one microphone), below the character
// form, and a live level meter while the window shows it: the core sends
// each 100 ms chunk's level only while the meter is on. Its edits are
// drafts of the form's one Save and Revert (issue 21: it had its own
// "Save listening" beside them): the view asks it whether it is edited,
// puts its fields in the save_settings it sends, and tells it the answer.

import './listen.css';
import { t } from '../i18n';
import { el } from '../dom';
import type { Choice, CoreMessage, ListenForm, PageMessage, SaveSettings, SettingsListen, SettingsResult } from '../protocol';
import { ErrorLine } from './errorline';
import { checkRow, fieldRow } from './rows';
import { wordDevices } from './choicewords';
import { phrase } from '../corephrases';

export interface ListenHost {
  send(m: PageMessage): boolean;
}

/** A part of the settings form outside the characters' drafts, saved and
 * reverted with them (SettingsView.addPart). */
export interface FormPart {
  /** Edited since what the core last said. */
  readonly dirty: boolean;
  /** Called on each edit (set by the view: the footer follows). */
  onEdit: () => void;
  /** Adds the edits to the request Save sends. */
  addTo(req: SaveSettings): void;
  /** The core answered a request this part added to. */
  answered(r: SettingsResult, sent: SaveSettings): void;
  /** Revert: the saved values again. */
  revert(): void;
}

/** The saved form's fields the section edits. */
type Field = keyof Omit<ListenForm, 'has_key'>;

export class ListenSection implements FormPart {
  readonly el: HTMLElement;
  private readonly controls = new Map<Field, HTMLInputElement | HTMLSelectElement>();
  private readonly key: HTMLInputElement;
  private readonly note: HTMLElement;
  private readonly error = new ErrorLine('listen-error');
  private readonly meter: HTMLElement;
  private readonly meterBar: HTMLElement;
  private readonly meterMark: HTMLElement;
  private readonly device: HTMLSelectElement;
  private readonly pttKey: HTMLSelectElement;
  private saved: SettingsListen | null = null;
  /** The user changed a control since the saved form was shown. */
  private edited = false;
  private meterOn = false;
  onEdit: () => void = () => {};

  constructor(private readonly host: ListenHost) {
    this.el = el('section', 'section listen-section');
    this.el.id = 'section-listen';
    this.el.dataset.section = 'listen';
    const h = el('h2', 'section-title', t('settings.listen.title'));
    h.id = 'listen-title';
    this.el.setAttribute('aria-labelledby', h.id);
    this.note = el('p', 'hint listen-note');
    this.note.hidden = true;
    this.el.append(h, this.note);

    this.check('on', t('settings.listen.on'), t('settings.listen.on_hint'));
    this.device = this.select('device', t('settings.listen.microphone'));
    this.el.append(fieldRow(t('settings.listen.microphone'), this.device, 'listen-device',
      t('settings.listen.microphone_hint')));
    const sens = this.input('sensitivity', 'range');
    sens.min = '1';
    sens.max = '100';
    this.meter = el('div', 'listen-meter');
    this.meter.setAttribute('role', 'meter');
    this.meter.setAttribute('aria-label', t('settings.listen.level'));
    this.meter.setAttribute('aria-valuemin', '0');
    this.meter.setAttribute('aria-valuemax', '100');
    this.meterBar = el('div', 'listen-meter-bar');
    this.meterMark = el('div', 'listen-meter-mark');
    this.meter.append(this.meterBar, this.meterMark);
    const sensBody = el('div');
    sensBody.append(sens, this.meter);
    this.el.append(fieldRow(t('settings.listen.sensitivity'), sensBody, 'listen-sensitivity',
      t('settings.listen.sensitivity_hint')));
    this.check('barge_in', t('settings.listen.barge_in'), t('settings.listen.barge_in_hint'));
    this.pttKey = this.select('push_to_talk_key', t('settings.listen.ptt'));
    this.el.append(fieldRow(t('settings.listen.ptt'), this.pttKey, 'listen-ptt', t('settings.listen.ptt_hint')));
    const url = this.input('base_url', 'url');
    url.placeholder = 'https://api.openai.com/v1';
    this.el.append(fieldRow(t('settings.listen.url'), url, 'listen-endpoint', t('settings.listen.url_hint')));
    this.key = el('input', 'control');
    this.key.type = 'password';
    this.key.id = 'listen-key';
    this.key.autocomplete = 'off';
    this.el.append(fieldRow(t('settings.listen.key'), this.key, 'listen-key', t('settings.listen.key_hint')));
    const model = this.input('model', 'text');
    model.placeholder = 'whisper-1';
    this.el.append(fieldRow(t('settings.listen.model'), model, 'listen-model', ''));
    const lang = this.input('language', 'text');
    lang.placeholder = 'detect';
    this.el.append(fieldRow(t('settings.listen.language'), lang, 'listen-language', t('settings.listen.language_hint')));

    // A refused field's reason (the core names it: listen.language …).
    this.el.append(this.error.el);
    const edited = () => {
      this.edited = true;
      this.clearError();
      this.onEdit();
    };
    this.el.addEventListener('input', edited);
    this.el.addEventListener('change', edited);
    document.addEventListener('visibilitychange', () => this.setMeter(!document.hidden));
  }

  private check(field: Field, label: string, hint: string): void {
    const i = el('input');
    i.type = 'checkbox';
    i.id = `listen-${field}`;
    this.controls.set(field, i);
    this.el.append(checkRow(i, label, hint));
  }

  private input(field: Field, type: string): HTMLInputElement {
    const i = el('input', 'control');
    i.type = type;
    i.id = `listen-${field}`;
    i.autocomplete = 'off';
    i.spellcheck = false;
    this.controls.set(field, i);
    return i;
  }

  private select(field: Field, _label: string): HTMLSelectElement {
    const s = el('select', 'control');
    s.id = `listen-${field}`;
    this.controls.set(field, s);
    return s;
  }

  private fill(s: HTMLSelectElement, choices: Choice[], value: string): void {
    s.replaceChildren();
    for (const c of choices) {
      const o = el('option', '', c.available || !c.note ? c.label : `${c.label} — ${c.note}`);
      o.value = c.id;
      o.disabled = !c.available && c.id !== value;
      s.append(o);
    }
    s.value = value;
  }

  mount(parent: HTMLElement): void {
    parent.append(this.el);
    this.setMeter(!document.hidden);
  }

  private setMeter(on: boolean): void {
    if (on === this.meterOn) return;
    if (this.host.send({ type: 'listen_meter', on })) this.meterOn = on;
  }

  /** Called when the connection comes back: the meter is asked for again. */
  reconnected(): void {
    this.meterOn = false;
    this.setMeter(!document.hidden);
  }

  apply(m: CoreMessage): void {
    switch (m.type) {
      case 'settings_listen': {
        // Drafts stay: a new saved form (the pet menu's target, devices
        // plugged in) shows only while nothing is edited.
        const keep = this.dirty ? this.current() : null;
        const key = this.key.value;
        this.saved = m;
        this.render(m);
        if (keep) {
          this.show(keep);
          this.key.value = key;
        } else {
          this.edited = false;
        }
        this.onEdit();
        break;
      }
      case 'listen_level': {
        this.meterBar.style.width = `${m.level}%`;
        this.meterMark.style.left = `${m.threshold}%`;
        this.meter.setAttribute('aria-valuenow', String(m.level));
        this.meter.dataset.speech = String(m.level >= m.threshold);
        break;
      }
      case 'settings_focus':
        if (m.section === 'listen') {
          this.el.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
          (this.el.querySelector('input,select') as HTMLElement | null)?.focus({ preventScroll: true });
        }
        break;
    }
  }

  private render(m: SettingsListen): void {
    const f = m.form;
    this.note.hidden = !m.note;
    this.note.textContent = phrase(m.note_msg, m.note);
    this.fill(this.device, wordDevices(m.devices ?? [], 'input'), f.device);
    this.fill(this.pttKey, m.keys ?? [], f.push_to_talk_key);
    this.show(f);
    this.key.value = '';
    this.key.placeholder = f.has_key ? 'saved — type to replace' : 'none';
  }

  /** Puts a form's values in the controls. */
  private show(f: ListenForm): void {
    (this.controls.get('on') as HTMLInputElement).checked = f.on;
    (this.controls.get('barge_in') as HTMLInputElement).checked = f.barge_in;
    this.device.value = f.device;
    this.pttKey.value = f.push_to_talk_key;
    (this.controls.get('sensitivity') as HTMLInputElement).value = String(f.sensitivity || 50);
    for (const k of ['base_url', 'model', 'language'] as const) (this.controls.get(k) as HTMLInputElement).value = f[k];
  }

  /** Edited: a control differs from the saved form, or a key is typed. */
  get dirty(): boolean {
    if (!this.saved || !this.edited) return false;
    if (this.key.value !== '') return true;
    const a = this.current();
    const b = this.saved.form;
    return (Object.keys(a) as Array<keyof ListenForm>).some((k) => k !== 'has_key' && k !== 'target' && a[k] !== (k === 'sensitivity' ? b[k] || 50 : b[k]));
  }

  addTo(req: SaveSettings): void {
    if (!this.dirty) return;
    req.listen = this.current();
    if (this.key.value) req.listen_key = this.key.value;
  }

  answered(r: SettingsResult, sent: SaveSettings): void {
    if (!sent.listen) return;
    if (r.ok) {
      // Saved: the typed key leaves the page at once; the core's
      // settings_listen that follows becomes the baseline.
      if (this.key.value === (sent.listen_key ?? '')) this.key.value = '';
      if (this.saved) this.saved = { ...this.saved, form: { ...sent.listen, has_key: sent.listen_key ? true : this.saved.form.has_key } };
      this.onEdit();
      return;
    }
    const field = (r.field ?? '').replace(/^listen\./, '');
    if (!r.field?.startsWith('listen.')) return;
    const ctl = field === 'key' ? this.key : this.controls.get(field as Field);
    this.error.show(r.error ?? t('settings.not_saved'), ctl, true);
  }

  revert(): void {
    this.clearError();
    if (this.saved) this.render(this.saved);
    this.edited = false;
  }

  private clearError(): void {
    this.error.clear([...this.controls.values(), this.key]);
  }

  /** The form as edited now. */
  current(): ListenForm {
    const v = (k: Field) => this.controls.get(k)!;
    return {
      on: (v('on') as HTMLInputElement).checked,
      device: v('device').value,
      sensitivity: Number(v('sensitivity').value) || 50,
      barge_in: (v('barge_in') as HTMLInputElement).checked,
      base_url: v('base_url').value.trim(),
      model: v('model').value.trim(),
      language: v('language').value.trim(),
      target: this.saved?.form.target ?? '',
      push_to_talk_key: v('push_to_talk_key').value,
      has_key: this.saved?.form.has_key ?? false,
    };
  }

}
