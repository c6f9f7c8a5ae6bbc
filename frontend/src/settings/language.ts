// The settings window's Language section (docs/languages.md): the UI
// language for every window, the tray and the core's lines, and for each
// character the language of her spoken lines (her fillers, failure lines
// and system voice). Its edits are drafts of the form's one Save and
// Revert (a FormPart, like the Listening section); the core validates and
// names a wrong field (language, presets[1].speech_language).

import { el } from '../dom';
import { t, type Lang } from '../i18n';
import type { CoreMessage, PresetForm, SaveSettings, SettingsResult } from '../protocol';
import type { FormPart } from './listen';

/** Each language by its own name: the same in every UI language, so a
 * user finds theirs in a window they cannot read. */
export const languageNames: Record<Lang, string> = { en: 'English', ja: '日本語', ko: '한국어', 'zh-Hans': '简体中文' };

/** The saved (or edited) languages: the UI's, and each character's by id. */
export interface Languages { language: string; speech: Record<string, string> }

export class LanguageSection implements FormPart {
  readonly el: HTMLElement;
  private readonly ui: HTMLSelectElement;
  private readonly characters: HTMLElement;
  private readonly speech = new Map<string, HTMLSelectElement>();
  private readonly error: HTMLElement;
  private saved: Languages | null = null;
  onEdit: () => void = () => {};

  constructor() {
    this.el = el('section', 'section language-section');
    this.el.id = 'section-language';
    this.el.dataset.section = 'language';
    const h = el('h2', 'section-title', t('settings.language.title'));
    h.id = 'language-title';
    this.el.setAttribute('aria-labelledby', h.id);
    this.el.append(h);
    this.ui = this.select('language-ui', t('settings.language.system'));
    this.el.append(this.field(t('settings.language.ui'), this.ui, t('settings.language.ui_hint')));
    this.characters = el('div', 'language-characters');
    this.el.append(this.characters);
    this.error = el('div', 'field-error language-error');
    this.error.setAttribute('role', 'alert');
    this.error.hidden = true;
    this.el.append(this.error);
    const edited = () => {
      this.clearError();
      this.onEdit();
    };
    this.el.addEventListener('change', edited);
  }

  mount(parent: HTMLElement): void {
    parent.append(this.el);
  }

  private select(id: string, none: string): HTMLSelectElement {
    const s = el('select', 'control');
    s.id = id;
    const o = el('option', '', none);
    o.value = '';
    s.append(o);
    for (const [lang, name] of Object.entries(languageNames)) {
      const o = el('option', '', name);
      o.value = lang;
      o.lang = lang;
      s.append(o);
    }
    return s;
  }

  private field(label: string, control: HTMLSelectElement, hint: string): HTMLElement {
    const f = el('div', 'field');
    const l = el('label', 'field-label', label);
    l.htmlFor = control.id;
    const body = el('div', 'field-body');
    body.append(control);
    if (hint) body.append(el('div', 'hint', hint));
    f.append(l, body);
    return f;
  }

  apply(m: CoreMessage): void {
    if (m.type !== 'settings_state') return;
    // Drafts stay: a new saved state shows only where nothing is edited.
    const keep = this.dirty ? this.current() : null;
    const presets: PresetForm[] = m.presets ?? [];
    this.saved = { language: m.language ?? '', speech: Object.fromEntries(presets.map((p) => [p.id, p.speech_language ?? ''])) };
    this.characters.replaceChildren();
    this.speech.clear();
    presets.forEach((p, n) => {
      const s = this.select(`language-speech-${p.id}`, t('settings.language.same_as_ui'));
      this.speech.set(p.id, s);
      this.characters.append(this.field(t('settings.language.speech', { name: p.name || p.id }), s,
        n === presets.length - 1 ? t('settings.language.speech_hint') : ''));
    });
    this.show(this.saved);
    if (keep) {
      this.ui.value = keep.language;
      for (const [id, v] of Object.entries(keep.speech)) {
        const s = this.speech.get(id);
        if (s) s.value = v;
      }
    }
    this.onEdit();
  }

  private show(l: Languages): void {
    this.ui.value = l.language in languageNames ? l.language : '';
    for (const [id, s] of this.speech) {
      const v = l.speech[id] ?? '';
      s.value = v in languageNames ? v : '';
    }
  }

  /** The languages as edited now. */
  current(): Languages {
    const speech: Record<string, string> = {};
    for (const [id, s] of this.speech) speech[id] = s.value;
    return { language: this.ui.value, speech };
  }

  get dirty(): boolean {
    if (!this.saved) return false;
    const c = this.current();
    return c.language !== this.saved.language || Object.entries(c.speech).some(([id, v]) => v !== (this.saved!.speech[id] ?? ''));
  }

  /** Adds what changed: the UI language, and each changed character's
   * speech_language (absent keeps the saved one). */
  addTo(req: SaveSettings): void {
    if (!this.dirty) return;
    const c = this.current();
    if (c.language !== this.saved!.language) req.language = c.language;
    for (const p of req.presets) {
      const v = c.speech[p.id];
      if (v !== undefined && v !== (this.saved!.speech[p.id] ?? '')) p.speech_language = v;
    }
  }

  answered(r: SettingsResult, sent: SaveSettings): void {
    const mine = sent.language !== undefined || sent.presets.some((p) => p.speech_language !== undefined);
    if (!mine) return;
    if (r.ok) {
      if (!this.saved) return;
      if (sent.language !== undefined) this.saved.language = sent.language;
      for (const p of sent.presets) if (p.speech_language !== undefined) this.saved.speech[p.id] = p.speech_language;
      this.onEdit();
      return;
    }
    let ctl: HTMLSelectElement | undefined;
    if (r.field === 'language') ctl = this.ui;
    const m = /^presets\[(\d+)\]\.speech_language$/.exec(r.field ?? '');
    if (m) ctl = this.speech.get(sent.presets[Number(m[1])]?.id ?? '');
    if (!ctl) return;
    this.error.textContent = r.error ?? t('settings.not_saved');
    this.error.hidden = false;
    ctl.setAttribute('aria-invalid', 'true');
    ctl.closest('.field')?.querySelector('.field-body')?.append(this.error);
    ctl.focus({ preventScroll: true });
  }

  revert(): void {
    this.clearError();
    if (this.saved) this.show(this.saved);
  }

  private clearError(): void {
    if (this.error.hidden) return;
    this.error.hidden = true;
    this.error.textContent = '';
    for (const c of [this.ui, ...this.speech.values()]) c.removeAttribute('aria-invalid');
  }
}
