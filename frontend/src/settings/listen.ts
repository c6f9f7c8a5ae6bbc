// The settings window's Listening section (docs/voice.md, "Listening"):
// one for every character (there is one microphone), below the character
// form. It has its own Save (it is not part of a character's save), and a
// live level meter while the window shows it: the core sends each 100 ms
// chunk's level only while the meter is on.

import './listen.css';
import { el } from '../dom';
import type { Choice, CoreMessage, ListenForm, PageMessage, SettingsListen } from '../protocol';

export interface ListenHost {
  send(m: PageMessage): boolean;
}

/** The saved form's fields the section edits. */
type Field = keyof Omit<ListenForm, 'has_key'>;

export class ListenSection {
  readonly el: HTMLElement;
  private readonly controls = new Map<Field, HTMLInputElement | HTMLSelectElement>();
  private readonly key: HTMLInputElement;
  private readonly note: HTMLElement;
  private readonly status: HTMLElement;
  private readonly meter: HTMLElement;
  private readonly meterBar: HTMLElement;
  private readonly meterMark: HTMLElement;
  private readonly device: HTMLSelectElement;
  private readonly pttKey: HTMLSelectElement;
  private saved: SettingsListen | null = null;
  private seq = 0;
  private pendingId = '';
  private meterOn = false;

  constructor(private readonly host: ListenHost) {
    this.el = el('section', 'section listen-section');
    this.el.id = 'section-listen';
    this.el.dataset.section = 'listen';
    const h = el('h2', 'section-title', 'Listening (all characters)');
    h.id = 'listen-title';
    this.el.setAttribute('aria-labelledby', h.id);
    this.note = el('p', 'hint listen-note');
    this.note.hidden = true;
    this.el.append(h, this.note);

    this.check('on', 'Listen all the time', 'Off: the microphone opens only while you hold the push-to-talk key, or after the tray\'s Listen.');
    this.device = this.select('device', 'Microphone');
    this.el.append(this.row('Microphone', this.device, 'listen-device',
      'An echo-cancelled microphone (PulseAudio\'s module-echo-cancel) keeps her own voice out; otherwise wear headphones.'));
    const sens = this.input('sensitivity', 'range');
    sens.min = '1';
    sens.max = '100';
    this.meter = el('div', 'listen-meter');
    this.meter.setAttribute('role', 'meter');
    this.meter.setAttribute('aria-label', 'Microphone level');
    this.meter.setAttribute('aria-valuemin', '0');
    this.meter.setAttribute('aria-valuemax', '100');
    this.meterBar = el('div', 'listen-meter-bar');
    this.meterMark = el('div', 'listen-meter-mark');
    this.meter.append(this.meterBar, this.meterMark);
    const sensBody = el('div');
    sensBody.append(sens, this.meter);
    this.el.append(this.row('Sensitivity', sensBody, 'listen-sensitivity',
      'Speak: the bar shows your level, the mark where speech starts to count.'));
    this.check('barge_in', 'Interrupt her when I speak', 'Your speech stops her and the reply she is giving (barge-in).');
    this.pttKey = this.select('push_to_talk_key', 'Push-to-talk key');
    this.el.append(this.row('Push-to-talk key', this.pttKey, 'listen-ptt', 'Hold it in a character\'s window to talk.'));
    const url = this.input('base_url', 'url');
    url.placeholder = 'https://api.openai.com/v1';
    this.el.append(this.row('Transcription URL', url, 'listen-endpoint', 'Any OpenAI-compatible /audio/transcriptions endpoint.'));
    this.key = el('input', 'control');
    this.key.type = 'password';
    this.key.id = 'listen-key';
    this.key.autocomplete = 'off';
    this.el.append(this.row('Transcription key', this.key, 'listen-key', 'Its own key: the chat key never goes there.'));
    const model = this.input('model', 'text');
    model.placeholder = 'whisper-1';
    this.el.append(this.row('Transcription model', model, 'listen-model', ''));
    const lang = this.input('language', 'text');
    lang.placeholder = 'detect';
    this.el.append(this.row('Language', lang, 'listen-language', 'Two letters (en, ja), or empty to let the server detect it.'));

    const actions = el('div', 'section-actions');
    this.status = el('span', 'listen-status');
    this.status.setAttribute('role', 'status');
    const save = el('button', 'btn', 'Save listening');
    save.type = 'button';
    save.addEventListener('click', () => this.save());
    actions.append(this.status, save);
    this.el.append(actions);
    document.addEventListener('visibilitychange', () => this.setMeter(!document.hidden));
  }

  private row(label: string, control: HTMLElement, id: string, hint: string): HTMLElement {
    const f = el('div', 'field');
    f.dataset.anchor = id;
    const l = el('label', 'field-label', label);
    const c = control.querySelector('input,select') ?? control;
    if (!c.id) c.id = `${id}-control`;
    l.htmlFor = c.id;
    const body = el('div', 'field-body');
    body.append(control);
    if (hint) body.append(el('div', 'hint', hint));
    f.append(l, body);
    return f;
  }

  private check(field: Field, label: string, hint: string): void {
    const i = el('input');
    i.type = 'checkbox';
    i.id = `listen-${field}`;
    this.controls.set(field, i);
    const f = el('div', 'field field-check');
    const body = el('div', 'field-body');
    const line = el('div', 'check-line');
    const l = el('label', '', label);
    l.htmlFor = i.id;
    line.append(i, l);
    body.append(line, el('div', 'hint', hint));
    f.append(el('span', 'field-label'), body);
    this.el.append(f);
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
      case 'settings_listen':
        this.saved = m;
        this.render(m);
        break;
      case 'listen_level': {
        this.meterBar.style.width = `${m.level}%`;
        this.meterMark.style.left = `${m.threshold}%`;
        this.meter.setAttribute('aria-valuenow', String(m.level));
        this.meter.dataset.speech = String(m.level >= m.threshold);
        break;
      }
      case 'settings_result':
        if (m.request_id !== this.pendingId) return;
        this.pendingId = '';
        this.status.textContent = m.ok ? 'Saved' : `Not saved: ${m.error ?? ''}`;
        this.status.dataset.kind = m.ok ? 'ok' : 'error';
        if (m.ok) this.key.value = '';
        break;
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
    this.note.textContent = m.note;
    (this.controls.get('on') as HTMLInputElement).checked = f.on;
    (this.controls.get('barge_in') as HTMLInputElement).checked = f.barge_in;
    this.fill(this.device, m.devices ?? [], f.device);
    this.fill(this.pttKey, m.keys ?? [], f.push_to_talk_key);
    (this.controls.get('sensitivity') as HTMLInputElement).value = String(f.sensitivity || 50);
    for (const k of ['base_url', 'model', 'language'] as const) (this.controls.get(k) as HTMLInputElement).value = f[k];
    this.key.placeholder = f.has_key ? 'saved — type to replace' : 'none';
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

  save(): boolean {
    this.pendingId = `listen-${++this.seq}`;
    const key = this.key.value;
    const ok = this.host.send({ type: 'save_listen', request_id: this.pendingId, form: this.current(), ...(key ? { key } : {}) });
    this.status.textContent = ok ? 'Saving…' : 'Not saved: no connection to Yui';
    return ok;
  }
}
