// The settings window's "Among friends" section: how characters talk among
// themselves (address_character, docs/decisions.md "Among friends"), for
// every character — at most N turns in a row without the user, M per
// minute. The core sends the caps in force and their bounds with the
// saved state (settings_state.talk); the edits are drafts of the form's one
// Save and Revert (a FormPart, like the Speaking first section), and the
// core refuses a cap out of range naming talk.max_hops or talk.per_minute.

import { el } from '../dom';
import { t as tr } from '../i18n';
import type { CoreMessage, SaveSettings, SettingsResult, TalkForm, TalkState } from '../protocol';
import type { FormPart } from './listen';

type Field = keyof TalkForm;

/** A sentence with {name} slots filled by elements (the number boxes sit
 * where the language puts them). */
function fill(text: string, slots: Record<string, HTMLElement>): Array<string | HTMLElement> {
  return text.split(/(\{\w+\})/).filter((p) => p !== '').map((p) => slots[p.slice(1, -1)] ?? p);
}

export class TalkSection implements FormPart {
  readonly el: HTMLElement;
  private readonly inputs = new Map<Field, HTMLInputElement>();
  private readonly hint: HTMLElement;
  private readonly error: HTMLElement;
  private saved: TalkState | null = null;
  /** current() right after the saved caps were shown. */
  private baseline = '';
  private edited = false;
  onEdit: () => void = () => {};

  constructor() {
    this.el = el('section', 'section talk-section');
    this.el.id = 'section-talk';
    this.el.dataset.section = 'talk';
    const h = el('h2', 'section-title', tr('settings.talk.title'));
    h.id = 'talk-title';
    this.el.setAttribute('aria-labelledby', h.id);
    const f = el('div', 'field');
    f.dataset.anchor = 'talk-manners';
    const label = el('span', 'field-label', tr('settings.talk.label'));
    label.id = 'talk-label';
    const line = el('div', { class: 'talk-line', attrs: { role: 'group', 'aria-labelledby': label.id } },
      ...fill(tr('settings.talk.line'), {
        hops: this.number('max_hops', tr('settings.talk.hops_label')),
        minute: this.number('per_minute', tr('settings.talk.minute_label')),
      }));
    this.hint = el('div', 'hint');
    this.error = el('div', 'field-error talk-error');
    this.error.setAttribute('role', 'alert');
    this.error.hidden = true;
    const body = el('div', 'field-body');
    body.append(line, this.hint, this.error);
    f.append(label, body);
    this.el.append(h, f);
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

  private number(field: Field, aria: string): HTMLInputElement {
    const i = el('input', 'control talk-number');
    i.type = 'number';
    i.id = `talk-${field}`;
    i.min = '1';
    i.step = '1';
    i.size = 3;
    i.setAttribute('aria-label', aria);
    this.inputs.set(field, i);
    return i;
  }

  apply(m: CoreMessage): void {
    if (m.type !== 'settings_state' || !m.talk) return;
    // A draft stays: a new saved state shows only while nothing is edited.
    const keep = this.dirty ? this.current() : null;
    this.saved = m.talk;
    this.show(m.talk);
    this.baseline = JSON.stringify(this.current());
    if (keep) this.show(keep);
    else this.edited = false;
    const t = m.talk;
    this.inputs.get('max_hops')!.max = String(t.hops_limit);
    this.inputs.get('per_minute')!.max = String(t.per_minute_limit);
    this.hint.textContent = tr('settings.talk.hint', { hops: String(t.hops_limit), minute: String(t.per_minute_limit) });
    this.onEdit();
  }

  private show(f: TalkForm): void {
    for (const k of ['max_hops', 'per_minute'] as const) this.inputs.get(k)!.value = f[k] ? String(f[k]) : '';
  }

  /** The caps as shown now. An empty box is 0, the default; what is not a
   * whole number goes as -1, which the core refuses naming the field. */
  current(): TalkForm {
    const n = (k: Field): number => {
      const v = this.inputs.get(k)!.value.trim();
      if (v === '') return 0;
      const x = Number(v);
      return Number.isSafeInteger(x) ? x : -1;
    };
    return { max_hops: n('max_hops'), per_minute: n('per_minute') };
  }

  get dirty(): boolean {
    return !!this.saved && this.edited && JSON.stringify(this.current()) !== this.baseline;
  }

  addTo(req: SaveSettings): void {
    if (this.dirty) req.talk = this.current();
  }

  answered(r: SettingsResult, sent: SaveSettings): void {
    if (!sent.talk) return;
    if (r.ok) {
      // The state that follows the save shows the caps in force.
      this.baseline = JSON.stringify(sent.talk);
      this.edited = false;
      this.onEdit();
      return;
    }
    if (!r.field?.startsWith('talk.')) return;
    const ctl = this.inputs.get(r.field.replace(/^talk\./, '') as Field);
    this.error.textContent = r.error ?? tr('settings.not_saved');
    this.error.hidden = false;
    if (ctl) {
      ctl.setAttribute('aria-invalid', 'true');
      ctl.focus({ preventScroll: true });
    }
  }

  revert(): void {
    this.clearError();
    if (this.saved) this.show(this.saved);
    this.edited = false;
  }

  private clearError(): void {
    if (this.error.hidden) return;
    this.error.hidden = true;
    this.error.textContent = '';
    for (const c of this.inputs.values()) c.removeAttribute('aria-invalid');
  }
}
