// The settings window's "What she remembers" section (docs/memory.md,
// docs/mcp.md): the selected character's running summary and facts, and
// her MCP servers with the answers saved from their prompts. It is not
// part of the form's drafts: each part has its own Save, sent at once as
// mind_save, answered by mind_result. On push and Standard Agents the
// section only says why it is off (the core's note).

import './mind.css';
import { el } from '../dom';
import { t } from '../i18n';
import { phrase } from '../corephrases';
import type { MCPGrantForm, MCPServerForm, MindPreset, MindResult, MindSave, SettingsMind } from '../protocol';

/** The most bytes of summary the core keeps (app/memory). */
export const MAX_SUMMARY_BYTES = 8 << 10;

/** The facts as the textarea holds them: one a line, blanks dropped. */
export function factsOf(text: string): string[] {
  return text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

/** A server row's target read back: an http(s) URL, else a command. */
export function serverOf(name: string, target: string, args: string, off: boolean): MCPServerForm {
  const t = target.trim();
  const isURL = /^https?:\/\//i.test(t);
  return { name: name.trim(), command: isURL ? '' : t, url: isURL ? t : '', args: isURL ? [] : factsOf(args), off };
}

interface ServerRow { el: HTMLElement; name: HTMLInputElement; target: HTMLInputElement; args: HTMLTextAreaElement; off: HTMLInputElement }

let seq = 0;

export class MindSection {
  readonly el: HTMLElement;
  private readonly ids = `mind${++seq}`;
  private readonly note: HTMLElement;
  private readonly body: HTMLElement;
  private readonly summary: HTMLTextAreaElement;
  private readonly facts: HTMLTextAreaElement;
  private readonly memLine: HTMLElement;
  private readonly servers: HTMLElement;
  private readonly grants: HTMLElement;
  private readonly mcpLine: HTMLElement;
  private rows: ServerRow[] = [];
  private grantList: MCPGrantForm[] = [];
  private byPreset = new Map<string, MindPreset>();
  private preset = '';
  private isNew = false;
  /** The shown values came from this message generation; edits keep them. */
  private shownGen = -1;
  private gen = 0;
  private memEdited = false;
  private mcpEdited = false;
  private pending = new Map<string, 'memory' | 'mcp'>();
  private reqSeq = 0;

  constructor(private readonly send: (m: MindSave) => boolean) {
    this.el = el('section', 'section section-mind');
    this.el.id = 'section-mind';
    this.el.dataset.section = 'mind';
    const h = el('h2', 'section-title', t('settings.mind.title'));
    h.id = `${this.ids}-title`;
    this.el.setAttribute('aria-labelledby', h.id);
    this.note = el('p', 'hint mind-note');
    this.body = el('div', 'mind-body');

    this.summary = el('textarea', { class: 'control mind-summary', attrs: { rows: 5, id: `${this.ids}-summary` } });
    this.facts = el('textarea', { class: 'control mind-facts', attrs: { rows: 4, id: `${this.ids}-facts` } });
    const saveMem = el('button', 'btn', t('settings.mind.save_memory'));
    saveMem.type = 'button';
    const clearMem = el('button', 'btn btn-danger', t('settings.mind.clear_memory'));
    clearMem.type = 'button';
    this.memLine = el('div', 'hint mind-line');
    this.memLine.setAttribute('role', 'status');
    saveMem.addEventListener('click', () => this.saveMemory(false));
    clearMem.addEventListener('click', () => this.saveMemory(true));
    this.summary.addEventListener('input', () => { this.memEdited = true; });
    this.facts.addEventListener('input', () => { this.memEdited = true; });

    this.servers = el('div', 'mind-servers');
    const add = el('button', 'btn', t('settings.mind.add_server'));
    add.type = 'button';
    add.addEventListener('click', () => {
      this.mcpEdited = true;
      this.addRow({ name: '', command: '', url: '', args: [], off: false }).name.focus();
    });
    this.grants = el('ul', 'mind-grants');
    const saveMCP = el('button', 'btn', t('settings.mind.save_servers'));
    saveMCP.type = 'button';
    saveMCP.addEventListener('click', () => this.saveMCP());
    this.mcpLine = el('div', 'hint mind-line');
    this.mcpLine.setAttribute('role', 'status');
    this.servers.addEventListener('input', () => { this.mcpEdited = true; });

    this.body.append(
      this.field(t('settings.mind.summary'), this.summary, t('settings.mind.summary_hint')),
      this.field(t('settings.mind.facts'), this.facts, t('settings.mind.facts_hint')),
      el('div', 'inline mind-buttons', saveMem, clearMem), this.memLine,
      el('h3', 'mind-subtitle', t('settings.mind.servers')),
      el('p', 'hint', t('settings.mind.servers_hint')),
      this.servers, el('div', 'inline mind-buttons', add, saveMCP),
      el('h3', 'mind-subtitle', t('settings.mind.grants')), this.grants, this.mcpLine,
    );
    this.el.append(h, this.note, this.body);
  }

  private field(label: string, control: HTMLElement, hint: string): HTMLElement {
    const f = el('div', 'field');
    const l = el('label', 'field-label', label);
    l.htmlFor = control.id;
    f.append(l, el('div', 'field-body', control, el('div', 'hint', hint)));
    return f;
  }

  /** A new settings_mind: the shown character's values are replaced unless
   * the user is editing them. */
  setMind(m: SettingsMind): void {
    this.byPreset = new Map();
    for (const p of Array.isArray(m.presets) ? m.presets : []) {
      if (p && typeof p.id === 'string') this.byPreset.set(p.id, p);
    }
    this.gen++;
    if (this.preset) this.render();
  }

  /** Shows a character's section (isNew: not saved yet, nothing to edit). */
  show(preset: string, isNew: boolean): void {
    if (preset !== this.preset || isNew !== this.isNew) {
      this.preset = preset;
      this.isNew = isNew;
      this.memEdited = this.mcpEdited = false;
      this.shownGen = -1;
      this.memLine.textContent = this.mcpLine.textContent = '';
    }
    this.render();
  }

  /** A mind_result: the line under the part that was saved. */
  onResult(r: MindResult): void {
    const part = this.pending.get(r.request_id);
    if (!part) return;
    this.pending.delete(r.request_id);
    const line = part === 'memory' ? this.memLine : this.mcpLine;
    line.classList.toggle('error', !r.ok);
    line.textContent = r.ok ? t('settings.mind.saved') : r.field
      ? t('settings.mind.not_saved_field', { field: r.field, reason: r.error ?? '' })
      : t('settings.not_saved_reason', { reason: r.error ?? '' });
    if (r.ok) {
      if (part === 'memory') this.memEdited = false;
      else this.mcpEdited = false;
      this.shownGen = -1;
      this.render();
    }
  }

  private render(): void {
    const p = this.byPreset.get(this.preset);
    if (this.isNew || !p) {
      this.note.textContent = this.isNew ? t('settings.mind.save_first') : '';
      this.body.hidden = true;
      return;
    }
    this.note.textContent = p.applies ? '' : (p.note ? phrase(p.note_msg, p.note) : t('settings.mind.off'));
    this.body.hidden = !p.applies;
    if (this.shownGen === this.gen) return;
    this.shownGen = this.gen;
    if (!this.memEdited) {
      if (this.summary.value !== p.summary) this.summary.value = p.summary;
      const facts = (p.facts ?? []).join('\n');
      if (this.facts.value !== facts) this.facts.value = facts;
    }
    if (!this.mcpEdited) {
      this.rows = [];
      this.servers.replaceChildren();
      for (const s of p.servers ?? []) this.addRow(s);
      this.grantList = [...(p.grants ?? [])];
      this.renderGrants();
    }
  }

  private renderGrants(): void {
    const items = this.grantList.map((g, i) => {
      const forget = el('button', 'btn btn-small', t('settings.mind.ask_again'));
      forget.type = 'button';
      forget.addEventListener('click', () => {
        this.grantList.splice(i, 1);
        this.mcpEdited = true;
        this.renderGrants();
      });
      return el('li', 'mind-grant', el('code', '', g.tool), ` ${g.mode === 'allow' ? t('settings.mind.allowed') : t('settings.mind.denied')} `, forget);
    });
    if (items.length === 0) items.push(el('li', 'hint', t('settings.mind.none_yet')));
    this.grants.replaceChildren(...items);
  }

  private addRow(s: MCPServerForm): ServerRow {
    const n = this.rows.length;
    const name = el('input', { class: 'control mind-server-name', attrs: { placeholder: t('settings.mind.server_name_ph'), 'aria-label': t('settings.mind.server_name', { n: String(n + 1) }) } });
    name.value = s.name;
    const target = el('input', { class: 'control mind-server-target', attrs: { placeholder: t('settings.mind.server_target_ph'), 'aria-label': t('settings.mind.server_target', { n: String(n + 1) }) } });
    target.value = s.url || s.command;
    const args = el('textarea', { class: 'control mind-server-args', attrs: { rows: 2, placeholder: t('settings.mind.server_args_ph'), 'aria-label': t('settings.mind.server_args', { n: String(n + 1) }) } });
    args.value = (s.args ?? []).join('\n');
    const off = el('input', { attrs: { type: 'checkbox', 'aria-label': t('settings.mind.server_off', { n: String(n + 1) }) } });
    off.checked = s.off;
    const remove = el('button', 'btn btn-small', t('settings.mind.remove'));
    remove.type = 'button';
    const row: ServerRow = { el: el('div', 'mind-server', name, target, args, el('label', 'check-line', off, t('settings.mind.off_check')), remove), name, target, args, off };
    remove.addEventListener('click', () => {
      this.rows = this.rows.filter((r) => r !== row);
      row.el.remove();
      this.mcpEdited = true;
    });
    this.rows.push(row);
    this.servers.append(row.el);
    return row;
  }

  private next(part: 'memory' | 'mcp'): string {
    const id = `mind-${++this.reqSeq}`;
    this.pending.set(id, part);
    return id;
  }

  private saveMemory(clear: boolean): void {
    if (!this.preset) return;
    const summary = clear ? '' : this.summary.value;
    const line = this.memLine;
    if (new TextEncoder().encode(summary.trim()).length > MAX_SUMMARY_BYTES) {
      line.classList.add('error');
      line.textContent = t('settings.mind.too_long', { n: String(MAX_SUMMARY_BYTES) });
      return;
    }
    const m: MindSave = { type: 'mind_save', request_id: this.next('memory'), preset: this.preset,
      memory: { summary, facts: clear ? [] : factsOf(this.facts.value) } };
    if (clear) {
      this.summary.value = '';
      this.facts.value = '';
    }
    if (!this.send(m)) {
      line.classList.add('error');
      line.textContent = t('settings.offline_save');
    }
  }

  private saveMCP(): void {
    if (!this.preset) return;
    const servers = this.rows.map((r) => serverOf(r.name.value, r.target.value, r.args.value, r.off.checked));
    const m: MindSave = { type: 'mind_save', request_id: this.next('mcp'), preset: this.preset,
      mcp: { servers, grants: this.grantList } };
    if (!this.send(m)) {
      this.mcpLine.classList.add('error');
      this.mcpLine.textContent = t('settings.offline_save');
    }
  }
}
