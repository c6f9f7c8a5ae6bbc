// The settings window's page: the characters in a sidebar, the selected
// one's form, and a footer with the file, a status line, Revert and Save.
// The core validates and applies every change (docs/view-protocol.md,
// "Settings window"); this page keeps drafts until a save and shows what
// the core answers.

import { t, type Key } from '../i18n';
import { phrase, phrases } from '../corephrases';
import { el } from '../dom';
import type {
  AgentItem, ConnectionTest, CoreMessage, PageMessage, PresetActionKind, PresetStatus, SaveSettings, SettingsAudio, SettingsFocus,
  SettingsResult, SettingsState, TestConnection,
} from '../protocol';
import { realScheduler, type Scheduler } from '../scheduler';
import { ConnectionLine, NewConversation, TestConnectionLine, type ActionTarget, type TestState } from './actions';
import { PresetFormView, STANDARD_AGENTS } from './form';
import { SessionHistory } from './history';
import { MindSection } from './mind';
import { LookImport, type LookImportHost } from './lookimport';
import { LookOptionsSection } from './lookoptions';
import { newPresetId, RequestIds } from './ids';
import { ConfirmDialog, type ConfirmOptions } from './confirm';
import type { FormPart } from './listen';
import {
  draftFrom, getField, parseFieldPath, setField, SettingsModel, stateMatches, takesKey, type Conflict, type FieldName, type PresetField,
} from './model';

export interface SettingsHost {
  send(m: PageMessage): boolean;
  /** Asks the user to confirm, at once (tests). Without it the view asks
   * in its own dialog (confirm.ts), never the browser's confirm(). */
  confirm?(message: string): boolean;
}

export interface SettingsOptions {
  sched?: Scheduler;
  newId?: () => string;
  requestIds?: { next(): string };
  /** Importing VRM models under Look (lookimport.ts); none: no importer. */
  looks?: LookImportHost;
}

/** How long "Saved" stays in the status line. */
export const SAVED_MS = 3000;

/** The note's lead when a field the user edited changed elsewhere too. */
export function changedElsewhere(): string {
  return t('settings.changed_elsewhere');
}

/** How the note names a field (a key of the page's catalogue). */
const FIELD_LABELS: Record<Conflict['field'], Key> = {
  name: 'settings.field.name', enabled: 'settings.field.enabled', look: 'settings.field.look', chat_api: 'settings.field.chat_api',
  chat_base_url: 'settings.field.chat_base_url', model: 'settings.field.model',
  reasoning_effort: 'settings.field.reasoning_effort', card: 'settings.field.card', context_window: 'settings.field.context_window',
  agent_id: 'settings.field.agent_id', thread_id: 'settings.field.thread_id',
  'permissions.screen': 'settings.field.screen', 'permissions.screenshot_each_turn': 'settings.field.screenshot',
  'permissions.tell_frontmost': 'settings.field.tell_frontmost',
  'permissions.local_pages': 'settings.field.local_pages',
  'voice.engine': 'settings.field.voice_engine', 'voice.program': 'settings.field.voice_program',
  'voice.system_voice': 'settings.field.system_voice', 'voice.rate': 'settings.field.rate',
  'voice.base_url': 'settings.field.speech_url', 'voice.model': 'settings.field.speech_model',
  'voice.endpoint_voice': 'settings.field.endpoint_voice', 'voice.format': 'settings.field.format',
  'voice.emotion_text_map': 'settings.field.voice_tags', 'voice.volume': 'settings.field.volume', 'voice.muted': 'settings.field.muted',
  removed: 'settings.field.removed', active_preset: 'settings.field.main',
};

interface Pending {
  id: string;
  sent: SaveSettings;
  /** settings_states that arrived while the answer was outstanding. */
  held: SettingsState[];
  /** The edit count when it was sent. */
  edits: number;
}

/** An accepted save whose settings_state has not arrived yet. */
interface Accepted { sent: SaveSettings; edits: number }

interface FieldErr { preset: string; field: string; message: string; suggestion?: string }


export class SettingsView {
  readonly root: HTMLElement;
  readonly model = new SettingsModel();
  private readonly sched: Scheduler;
  private readonly newId: () => string;
  private readonly requestIds: { next(): string };
  private readonly list: HTMLUListElement;
  private readonly addBtn: HTMLButtonElement;
  private readonly pane: HTMLElement;
  private readonly note: HTMLElement;
  private readonly formHost: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly statusLine: HTMLElement;
  private readonly pathLine: HTMLElement;
  private readonly revertBtn: HTMLButtonElement;
  private readonly saveBtn: HTMLButtonElement;
  private form: PresetFormView | null = null;
  /** The Session section (its history read-only): kept across form
   * rebuilds, never part of the drafts or a save. */
  private readonly session: SessionHistory;
  /** What she remembers and her MCP servers (mind.ts): saved on its own. */
  private readonly mind: MindSection;
  /** The Backend section's connection line and the Session section's "New
   * conversation": kept across form rebuilds like the Session section. */
  private readonly connection: ConnectionLine;
  private readonly newConversation: NewConversation;
  /** "Test connection" and what it found, per character; the models a
   * test listed are offered in the Model field. */
  private readonly tester: TestConnectionLine;
  private readonly confirmDialog = new ConfirmDialog();
  private readonly tests = new Map<string, TestState>();
  private readonly testIds = new Map<string, string>();
  private readonly models = new Map<string, string[]>();
  private readonly agents = new Map<string, AgentItem[]>();
  private formChoices = '';
  private selectedId = '';
  private readonly status = new Map<string, PresetStatus>();
  /** The sound server and devices as the core last found them. */
  private sound: SettingsAudio | null = null;
  private pending: Pending | null = null;
  /** A save was accepted; the next settings_state is its result. */
  private accepted: Accepted | null = null;
  private edits = 0;
  /** Fields the user edited that changed elsewhere too (shown while the
   * user's value still differs from the saved one). */
  private conflicts: Conflict[] = [];
  /** The status line says the page is offline (cleared on reconnect). */
  private offlineStatus = false;
  private lastFocusSeq = 0;
  private pendingFocus: SettingsFocus | null = null;
  private fieldErr: FieldErr | null = null;
  private statusTimer = 0;
  private connected = true;
  /** Parts of the form outside the characters' drafts (the Listening
   * section): saved and reverted with them by the one Save and Revert. */
  private readonly parts: FormPart[] = [];

  private readonly lookImport: LookImport | null;
  private readonly lookOptions: LookOptionsSection | null;

  constructor(private readonly host: SettingsHost, opts: SettingsOptions = {}) {
    this.sched = opts.sched ?? realScheduler;
    this.lookImport = opts.looks ? new LookImport(opts.looks, (look) => this.edit('look', look)) : null;
    this.lookOptions = opts.looks ? new LookOptionsSection(opts.looks) : null;
    this.newId = opts.newId ?? (() => newPresetId());
    this.requestIds = opts.requestIds ?? new RequestIds();
    this.session = new SessionHistory({ now: () => this.sched.now() });
    this.mind = new MindSection((m) => this.host.send(m));
    this.connection = new ConnectionLine(() => this.presetAction('reconnect'));
    this.newConversation = new NewConversation(() => this.presetAction('reset'));
    this.tester = new TestConnectionLine(() => this.testConnection(),
      () => (this.form?.control('chat_api') as HTMLElement | null)?.focus());
    this.session.setActions(this.newConversation.el);
    this.root = el('div', 'settings');
    const sidebar = el('nav', 'sidebar');
    sidebar.setAttribute('aria-label', t('settings.characters'));
    const title = el('h1', 'sidebar-title', t('settings.characters'));
    title.id = 'characters-title';
    this.list = el('ul', 'preset-list');
    this.list.setAttribute('aria-labelledby', title.id);
    this.addBtn = el('button', 'btn add-preset');
    this.addBtn.type = 'button';
    this.addBtn.append(el('span', 'add-icon', '+'), t('settings.add_character'));
    this.addBtn.querySelector('.add-icon')!.setAttribute('aria-hidden', 'true');
    sidebar.append(title, this.list, this.addBtn);

    this.pane = el('main', 'pane');
    this.note = el('div', 'note', changedElsewhere());
    this.note.setAttribute('role', 'status');
    this.note.hidden = true;
    this.formHost = el('div', 'form-host');
    this.empty = el('div', 'empty', t('settings.loading'));
    this.pane.append(this.note, this.formHost, this.empty);

    const footer = el('footer', 'footer');
    const info = el('div', 'footer-info');
    this.statusLine = el('div', 'status');
    this.statusLine.setAttribute('role', 'status');
    this.statusLine.setAttribute('aria-live', 'polite');
    this.pathLine = el('div', 'path');
    info.append(this.statusLine, this.pathLine);
    const buttons = el('div', 'footer-buttons');
    this.revertBtn = el('button', 'btn', t('settings.revert'));
    this.revertBtn.type = 'button';
    this.saveBtn = el('button', 'btn btn-primary', t('settings.save'));
    this.saveBtn.type = 'button';
    this.saveBtn.title = t('settings.save_tip');
    this.saveBtn.setAttribute('aria-keyshortcuts', 'Control+S Meta+S');
    buttons.append(this.revertBtn, this.saveBtn);
    footer.append(info, buttons);
    this.root.append(sidebar, this.pane, footer);
    this.wire();
    this.render();
  }

  mount(parent: HTMLElement): void {
    this.root.append(this.confirmDialog.el);
    parent.append(this.root);
  }

  /** Runs then once the user confirms: the host's confirm when it has one,
   * else the app's own dialog. */
  private confirmThen(o: ConfirmOptions, then: () => void): void {
    if (this.host.confirm) {
      if (this.host.confirm(o.message)) then();
      return;
    }
    void this.confirmDialog.ask(o).then((ok) => {
      if (ok) then();
    });
  }

  get selected(): string {
    return this.selectedId;
  }

  get saving(): boolean {
    return this.pending !== null;
  }

  /** Something is edited and not saved. */
  get hasDrafts(): boolean {
    return this.dirty;
  }

  /** Applies one message from the core; pet messages are not for this page. */
  apply(m: CoreMessage): void {
    switch (m.type) {
      case 'settings_state':
        this.onState(m);
        break;
      case 'settings_focus':
        this.onFocus(m);
        break;
      case 'settings_status':
        this.status.clear();
        for (const p of m.presets ?? []) this.status.set(p.id, p);
        this.renderList();
        this.renderForm(); // the thread's problem shows in the form
        break;
      case 'settings_result':
        this.onResult(m);
        break;
      case 'settings_history':
        // Only the Session section changes: no form render, no focus or
        // scroll moved.
        this.session.setHistory(m);
        break;
      case 'connection_test':
        this.onTested(m);
        break;
      case 'settings_mind':
        this.mind.setMind(m);
        break;
      case 'mind_result':
        this.mind.onResult(m);
        break;
      case 'settings_audio':
        this.sound = m;
        this.renderForm();
        break;
    }
  }

  /** The socket's state: a lost connection ends a save in flight. */
  setConnection(state: 'connecting' | 'open' | 'closed'): void {
    if (state !== 'closed') {
      this.connected = true;
      // Connected again: a line saying we are not is stale.
      if (state === 'open' && this.offlineStatus) this.setStatus('', '');
      return;
    }
    this.connected = false;
    if (this.pending) {
      this.pending = null;
      this.setStatus(t('settings.lost_connection'), 'error');
    } else {
      this.setStatus(t('settings.offline'), 'error');
      this.offlineStatus = true;
    }
    this.render();
  }

  select(id: string): void {
    if (!this.model.find(id)) return;
    this.selectedId = id;
    this.render();
  }

  /** Adds a part saved and reverted with the characters (the Listening
   * section, one for all of them). */
  addPart(p: FormPart): void {
    this.parts.push(p);
    p.onEdit = () => {
      this.edits++;
      this.renderFooter();
    };
  }

  /** Anything differs from the saved settings: a character's draft or a part. */
  private get dirty(): boolean {
    return this.model.dirty || this.parts.some((p) => p.dirty);
  }

  /** Sends the working copy (Save, Ctrl+S). */
  save(): void {
    this.takeTyped();
    if (!this.model.loaded || !this.dirty || this.pending) return;
    const req = this.model.request(this.requestIds.next());
    for (const p of this.parts) p.addTo(req);
    if (!this.host.send(req)) {
      this.setStatus(this.connected ? t('settings.unreachable_save') : t('settings.offline_save'), 'error');
      this.offlineStatus = !this.connected;
      return;
    }
    this.pending = { id: req.request_id, sent: req, held: [], edits: this.edits };
    this.clearFieldError();
    this.setStatus('', '');
    this.render();
  }

  /** Takes what the text fields show into the drafts, where it differs
   * (what Save sends is what the user sees, even if an input event was
   * never handled). */
  private takeTyped(): void {
    if (!this.form || !this.model.find(this.selectedId)) return;
    const d = this.model.find(this.selectedId)!;
    for (const [f, v] of this.form.typedValues()) {
      if (f === 'context_window' || f === 'voice.rate') {
        const n = v.trim() === '' ? 0 : Math.trunc(Number(v)) || 0;
        if (n !== Number(getField(d, f))) this.edit(f, n);
        continue;
      }
      const held = f === 'key' ? (d.key ?? '') : f === 'voice.key' ? (d.voice_key ?? '')
        : f === 'keyboard.shortcut' ? this.model.keyboard.shortcut
        : f === 'active_preset' || f === 'audio.muted' || f === 'audio.device' || f === 'keyboard.shortcut_off' ? v
        : String(getField(d, f));
      if (held !== v) this.edit(f, v);
    }
  }

  /** Drops every draft and shows the saved settings. */
  revert(): void {
    if (!this.model.state || this.pending) return;
    this.model.reset(this.model.state);
    for (const p of this.parts) p.revert();
    this.conflicts = [];
    this.clearFieldError();
    this.setStatus('', '');
    this.keepSelection();
    this.render();
  }

  addCharacter(): void {
    if (!this.model.loaded) return;
    const looks = this.model.state!.choices.looks ?? [];
    const look = (looks.find((c) => c.available) ?? looks[0])?.id ?? 'yui';
    const d = this.model.add(this.newId(), look);
    this.edits++;
    this.selectedId = d.id;
    this.render();
    const name = this.form?.control('name') as HTMLInputElement | null;
    name?.focus();
    name?.select();
  }

  // ---- core messages ----

  private onState(s: SettingsState): void {
    if (this.pending) {
      // Wait for the answer: it says whether one of these is our save.
      this.pending.held.push(s);
      return;
    }
    const own = this.accepted;
    this.accepted = null;
    this.takeState(s, own);
  }

  /** Shows a new saved state: the result of our own accepted save (`own`),
   * or a change made elsewhere, merged into the drafts field by field. */
  private takeState(s: SettingsState, own: Accepted | null): void {
    if (own) {
      // Drafts made since the save went stay; the rest is what was saved.
      if (this.edits === own.edits) this.model.reset(s);
      else this.model.rebase(s, own.sent);
      this.conflicts = [];
    } else if (!this.model.loaded || !this.model.dirty) {
      this.model.reset(s);
      this.conflicts = [];
    } else {
      const seen = new Set(this.conflicts.map((c) => `${c.preset} ${c.field}`));
      for (const c of this.model.rebase(s)) {
        if (!seen.has(`${c.preset} ${c.field}`)) this.conflicts.push(c);
      }
    }
    this.keepSelection();
    this.render();
    if (this.pendingFocus) {
      const f = this.pendingFocus;
      this.pendingFocus = null;
      this.onFocus(f);
    }
  }

  private onResult(r: SettingsResult): void {
    const p = this.pending;
    if (!p || r.request_id !== p.id) return;
    this.pending = null;
    this.accepted = null;
    for (const part of this.parts) part.answered(r, p.sent);
    if (r.ok) {
      this.model.savedKeys(p.sent);
      this.setStatus(t('settings.saved'), 'ok');
    } else {
      const msg = r.error || t('settings.save_failed');
      this.setStatus(t('settings.not_saved_reason', { reason: msg }), 'error');
      this.showFieldError(r.field ?? '', msg, p.sent, r.suggestion);
    }
    // The core answers a save before it sends the state the save made, so
    // a state that came while waiting is a change made elsewhere — unless
    // it holds exactly what was sent. Else the next state is ours.
    let ownSeen = !r.ok;
    for (const h of p.held) {
      const own = !ownSeen && stateMatches(h, p.sent);
      if (own) ownSeen = true;
      this.takeState(h, own ? { sent: p.sent, edits: p.edits } : null);
    }
    if (!ownSeen) this.accepted = { sent: p.sent, edits: p.edits };
    if (p.held.length === 0) this.render();
    if (!r.ok) this.focusFieldError();
  }

  private onFocus(f: SettingsFocus): void {
    if (f.seq <= this.lastFocusSeq) return;
    if (!this.model.loaded) {
      if (!this.pendingFocus || f.seq > this.pendingFocus.seq) this.pendingFocus = f;
      return;
    }
    this.lastFocusSeq = f.seq;
    if (this.model.find(f.preset)) this.selectedId = f.preset;
    this.render();
    const sec = this.form?.sectionEl(f.section);
    if (sec) {
      sec.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
      this.form!.firstControl(f.section)?.focus({ preventScroll: true });
    } else {
      // No section: the top of the character's form, with the cursor in
      // its first field (the name), as a preferences window opens.
      this.pane.scrollTop = 0;
      this.form?.firstControl('character')?.focus({ preventScroll: true });
    }
  }

  // ---- field errors ----

  /** Maps a refused field's path in `sent` to a preset and field. */
  private showFieldError(path: string, message: string, sent: SaveSettings, suggestion?: string): void {
    const fp = parseFieldPath(path);
    let preset = '';
    if (fp.index !== null) preset = sent.presets[fp.index]?.id ?? '';
    // The shared sound settings show in every character's Voice section.
    else if (fp.field.startsWith('audio.') || fp.field.startsWith('keyboard.')) preset = this.selectedId;
    else if (fp.field === 'active_preset') preset = this.model.find(sent.active_preset) ? sent.active_preset : this.selectedId;
    if (!preset || !this.model.find(preset)) {
      this.fieldErr = null;
      return;
    }
    this.selectedId = preset;
    this.fieldErr = { preset, field: fp.field, message, suggestion };
  }

  private focusFieldError(): void {
    const e = this.fieldErr;
    if (!e || !this.form) return;
    const ctl = this.form.control(e.field);
    if (!ctl || this.form.errorField === null) return;
    ctl.scrollIntoView?.({ block: 'center' });
    ctl.focus({ preventScroll: true });
  }

  private clearFieldError(): void {
    this.fieldErr = null;
    this.form?.clearError();
  }

  // ---- edits ----

  private edit(field: FieldName, value: string | number | boolean): void {
    const d = this.model.find(this.selectedId);
    if (!d) return;
    if (field === 'chat_api' || field === 'chat_base_url' || field === 'key' || field === 'agent_id' || field === 'thread_id') {
      // What the last test found is about another backend now.
      this.tests.delete(d.id);
      this.testIds.delete(d.id);
      this.tester.show({ state: 'idle' });
    }
    switch (field) {
      case 'name': case 'look': case 'chat_api': case 'chat_base_url': case 'model': case 'reasoning_effort': case 'card':
      case 'agent_id': case 'thread_id':
        d[field] = String(value);
        break;
      case 'enabled':
        d.enabled = Boolean(value);
        break;
      case 'context_window':
        d.context_window = Number(value);
        break;
      case 'permissions.screen':
        d.permissions.screen = String(value);
        break;
      case 'permissions.screenshot_each_turn':
        d.permissions.screenshot_each_turn = Boolean(value);
        break;
      case 'permissions.tell_frontmost':
        d.permissions.hide_frontmost = !value;
        break;
      case 'permissions.local_pages':
        d.permissions.local_pages = Boolean(value);
        break;
      case 'active_preset':
        if (value) this.model.active = d.id;
        break;
      case 'key':
        this.model.typeKey(d.id, String(value));
        break;
      case 'voice.key':
        this.model.typeVoiceKey(d.id, String(value));
        break;
      case 'audio.muted':
        this.model.audio.muted = Boolean(value);
        break;
      case 'audio.device':
        this.model.audio.device = String(value);
        break;
      case 'keyboard.shortcut':
        this.model.keyboard.shortcut = String(value);
        break;
      case 'keyboard.shortcut_off':
        this.model.keyboard.shortcut_off = Boolean(value);
        break;
      default:
        if (field.startsWith('voice.')) setField(d, field as PresetField, value);
    }
    this.edits++;
    const e = this.fieldErr;
    if (e && e.preset === d.id && (e.field === field || (e.field === 'active_preset' && field === 'enabled'))) {
      this.clearFieldError();
      if (this.statusLine.dataset.kind === 'error') this.setStatus('', '');
    }
    this.render();
  }

  private removeKey(): void {
    const d = this.model.find(this.selectedId);
    if (!d) return;
    this.model.removeKey(d.id);
    this.edits++;
    this.render();
    (this.form?.control('key') as HTMLElement | null)?.focus();
  }

  private removeVoiceKey(): void {
    const d = this.model.find(this.selectedId);
    if (!d) return;
    this.model.removeVoiceKey(d.id);
    this.edits++;
    this.render();
    (this.form?.control('voice.key') as HTMLElement | null)?.focus();
  }

  private removeSelected(): void {
    const d = this.model.find(this.selectedId);
    if (!d) return;
    const name = d.name.trim() || t('settings.this_character');
    const id = d.id;
    this.confirmThen({ message: t('settings.remove_confirm', { name }), confirm: t('settings.remove'), danger: true },
      () => this.removePreset(id));
  }

  private removePreset(id: string): void {
    const d = this.model.find(id);
    if (!d) return; // gone meanwhile (a state from elsewhere)
    if (this.fieldErr?.preset === d.id) this.clearFieldError();
    this.selectedId = this.model.remove(d.id);
    this.edits++;
    this.render();
    this.list.querySelector<HTMLElement>(`[data-id="${CSS.escape(this.selectedId)}"]`)?.focus();
  }

  // ---- actions on the running character ----

  /** The selected character as the actions see it; null when none. */
  private actionTarget(): (ActionTarget & { id: string; name: string }) | null {
    const d = this.model.find(this.selectedId);
    if (!d) return null;
    const saved = this.model.savedForm(d.id);
    return {
      id: d.id,
      name: d.name.trim() || saved?.name.trim() || t('settings.this_character'),
      // What the core runs is the saved preset: a switch not saved yet
      // changes nothing there.
      live: !!saved?.enabled,
      enabledDraft: d.enabled,
      status: this.status.get(d.id),
    };
  }

  /** Tests the selected character's backend as the form has it. */
  private testConnection(): void {
    const d = this.model.find(this.selectedId);
    if (!d) return;
    const requestId = this.requestIds.next();
    const m: TestConnection = { type: 'test_connection', request_id: requestId, preset: d.id, chat_api: d.chat_api, chat_base_url: d.chat_base_url.trim() };
    if (d.key) m.key = d.key;
    else if (takesKey(d)) m.key_from = d.key_from!.preset;
    if (d.chat_api === STANDARD_AGENTS) {
      m.agent_id = d.agent_id.trim();
      m.thread_id = d.thread_id.trim();
    }
    if (!this.host.send(m)) {
      this.tests.set(d.id, { state: 'done', kind: 'unreachable', text: t('settings.test_offline') });
    } else {
      this.testIds.set(d.id, requestId);
      this.tests.set(d.id, { state: 'running' });
    }
    this.tester.show(this.tests.get(d.id)!);
  }

  /** A test's answer: shown if it is the character's latest test. */
  private onTested(m: ConnectionTest): void {
    if (this.testIds.get(m.preset) !== m.request_id) return;
    this.testIds.delete(m.preset);
    this.tests.set(m.preset, { state: 'done', kind: m.kind, text: phrases(m.msg, m.text), cause: m.cause });
    if (m.models && m.models.length > 0) this.models.set(m.preset, m.models);
    if (m.agents && m.agents.length > 0) this.agents.set(m.preset, m.agents);
    if (m.preset !== this.selectedId || !this.form) return;
    this.tester.show(this.tests.get(m.preset)!);
    this.form.setModels(this.models.get(m.preset) ?? []);
    this.form.setAgents(this.agents.get(m.preset) ?? []);
  }

  /** A running Standard Agents character whose thread was deleted starts
   * a new thread (the reset of this wire; nothing to confirm: the old
   * thread is gone). */
  private replaceThread(): void {
    const target = this.actionTarget();
    if (!target?.live) return;
    if (!this.host.send({ type: 'preset_action', preset: target.id, action: 'reset' })) {
      this.setStatus(this.connected ? t('settings.thread_unreachable') : t('settings.thread_offline'), 'error');
      this.offlineStatus = !this.connected;
      return;
    }
    this.setStatus(t('settings.thread_starting', { name: target.name }), 'ok');
  }

  /** Reconnect (now) or New conversation (after the user confirms) for
   * the selected character, which the core runs. */
  private presetAction(action: PresetActionKind): void {
    const target = this.actionTarget();
    if (!target?.live) return;
    if (action === 'reset') {
      this.confirmThen({ message: t('settings.reset_confirm', { name: target.name }),
        confirm: t('settings.start_over') }, () => this.runPresetAction(target, action));
      return;
    }
    this.runPresetAction(target, action);
  }

  private runPresetAction(target: ActionTarget & { id: string; name: string }, action: PresetActionKind): void {
    if (!this.host.send({ type: 'preset_action', preset: target.id, action })) {
      const vars = { name: target.name };
      this.setStatus(action === 'reset'
        ? t(this.connected ? 'settings.reset_unreachable' : 'settings.reset_offline', vars)
        : t(this.connected ? 'settings.reconnect_unreachable' : 'settings.reconnect_offline', vars), 'error');
      this.offlineStatus = !this.connected;
      return;
    }
    if (action === 'reset') this.setStatus(t('settings.reset_done', { name: target.name }), 'ok');
  }

  // ---- rendering ----

  private keepSelection(): void {
    if (this.model.find(this.selectedId)) return;
    this.selectedId = (this.model.find(this.model.active) ?? this.model.presets[0])?.id ?? '';
  }

  private render(): void {
    this.renderList();
    this.renderForm();
    this.renderFooter();
  }

  /** What the character list shows, as one string: the list is rebuilt
   * only when it changes, so a keystroke in most fields touches none of
   * it. */
  private listShown = '';

  private renderList(): void {
    const shown = JSON.stringify([this.selectedId, this.model.active, this.model.loaded, this.model.presets.map((d) => {
      const st = this.status.get(d.id);
      return [d.id, d.name.trim(), d.enabled, this.model.isNew(d.id), this.model.presetDirty(d.id), st?.state ?? '', st?.text ?? ''];
    })]);
    if (shown === this.listShown) return;
    this.listShown = shown;
    const focused = (document.activeElement as HTMLElement | null)?.closest?.('.preset-item') as HTMLElement | null;
    const refocus = focused && this.list.contains(focused) ? focused.dataset.id : undefined;
    const items: HTMLElement[] = [];
    for (const d of this.model.presets) {
      const li = el('li');
      const b = el('button', 'preset-item');
      b.type = 'button';
      b.dataset.id = d.id;
      if (d.id === this.selectedId) b.setAttribute('aria-current', 'true');
      const isNew = this.model.isNew(d.id);
      const dirty = this.model.presetDirty(d.id);
      const top = el('span', 'preset-top');
      const name = el('span', 'preset-name', d.name.trim() || t('settings.unnamed'));
      top.append(name);
      if (d.id === this.model.active) {
        const star = el('span', 'preset-main', '★');
        star.title = t('settings.main_character');
        star.setAttribute('aria-label', t('settings.main_character'));
        top.append(star);
      }
      if (dirty && !isNew) {
        const mark = el('span', 'preset-edited', '•');
        mark.title = t('settings.unsaved');
        mark.setAttribute('aria-label', t('settings.unsaved'));
        top.append(mark);
      }
      const sub = el('span', 'preset-sub');
      const st = this.status.get(d.id);
      if (isNew) {
        const n = el('span', 'preset-new', t('settings.new_not_saved'));
        n.title = t('settings.not_saved_yet');
        sub.append(n);
      } else if (!d.enabled) {
        sub.dataset.state = 'off';
        sub.append(el('span', 'dot'), el('span', '', t('settings.off')));
      } else if (st) {
        sub.dataset.state = st.state;
        sub.append(el('span', 'dot'), el('span', '', phrase(st.msg, st.text) || st.state));
      }
      sub.querySelector('.dot')?.setAttribute('aria-hidden', 'true');
      b.append(top, sub);
      li.append(b);
      items.push(li);
    }
    this.list.replaceChildren(...items);
    if (refocus) this.list.querySelector<HTMLElement>(`[data-id="${CSS.escape(refocus)}"]`)?.focus();
    this.addBtn.disabled = !this.model.loaded;
  }

  private renderForm(): void {
    const state = this.model.state;
    const d = this.model.find(this.selectedId);
    // Until the first settings state, the window shows one loading state
    // and nothing else (page.css), never a part of the form.
    this.root.dataset.loading = String(!state);
    if (!state || !d) {
      this.form?.el.remove();
      this.form = null;
      this.formChoices = '';
      this.empty.hidden = false;
      this.empty.textContent = state ? t('settings.no_characters') : t('settings.loading');
      return;
    }
    this.empty.hidden = true;
    const key = JSON.stringify(state.choices);
    let refocus: { field: FieldName; start: number | null; end: number | null } | null = null;
    if (!this.form || key !== this.formChoices) {
      // The field being typed in keeps the focus and caret across the
      // rebuild, so no keystroke after it lands elsewhere.
      const f = this.form?.focusedField ?? null;
      const a = document.activeElement as HTMLInputElement | HTMLTextAreaElement | null;
      if (f && a && this.form?.el.dataset.preset === d.id) refocus = { field: f, start: a.selectionStart ?? null, end: a.selectionEnd ?? null };
      this.form?.el.remove();
      this.form = new PresetFormView(state.choices, {
        edit: (f, v) => this.edit(f, v),
        removeKey: () => this.removeKey(),
        removeVoiceKey: () => this.removeVoiceKey(),
        remove: () => this.removeSelected(),
        replaceThread: () => this.replaceThread(),
        resetStanding: (preset, target) => { this.host.send({ type: 'reset_standing', preset, target }); },
      });
      this.formChoices = key;
      this.form.addSection('mind', this.mind.el);
      this.form.addSection('session', this.session.el);
      this.form.placeAfter('key', this.tester.el);
      this.form.placeAfter('key', this.connection.el);
      if (this.lookOptions) this.form.placeAfter('look', this.lookOptions.el);
      if (this.lookImport) this.form.placeAfter('look', this.lookImport.el);
      this.formHost.append(this.form.el);
    }
    const changedPreset = this.form.el.dataset.preset !== d.id;
    this.form.show(d, {
      isMain: this.model.active === d.id,
      hasKey: this.model.hasKey(d.id),
      chatId: this.model.savedForm(d.id)?.chat_id ?? '',
      isNew: this.model.isNew(d.id),
      keyNote: phrase(this.model.savedForm(d.id)?.key_note_msg, this.model.savedForm(d.id)?.key_note ?? ''),
      keyFrom: takesKey(d) ? (this.model.savedForm(d.key_from!.preset)?.name || t('settings.the_main_character')) : '',
      screenNote: phrase(this.model.savedForm(d.id)?.screen_note_msg, this.model.savedForm(d.id)?.screen_note ?? ''),
      savedThread: this.model.savedForm(d.id)?.thread_id ?? '',
      threadProblem: this.status.get(d.id)?.problem ?? '',
      live: !!this.model.savedForm(d.id)?.enabled,
      hasVoiceKey: this.model.hasVoiceKey(d.id),
      audio: this.model.audio,
      keyboard: { ...this.model.keyboard, note: this.model.state?.keyboard?.note ?? '' },
      sound: this.sound,
      standings: this.model.savedForm(d.id)?.standings ?? [],
    });
    this.session.show(d.id, d.name, this.model.isNew(d.id));
    this.mind.show(d.id, this.model.isNew(d.id));
    this.lookImport?.show(state.choices.vrm_looks, d.look);
    this.lookOptions?.show(state.choices.vrm_looks?.find((l) => l.id === d.look), this.model.isNew(d.id) ? '' : d.id, this.model.savedForm(d.id)?.look_options);
    this.form.setModels(this.models.get(d.id) ?? []);
    this.form.setAgents(this.agents.get(d.id) ?? []);
    this.tester.show(this.tests.get(d.id) ?? { state: 'idle' });
    this.renderActions();
    const e = this.fieldErr;
    if (e && e.preset === d.id) {
      if (this.form.errorField !== e.field) this.form.setError(e.field, e.message, e.suggestion);
    } else {
      this.form.clearError();
    }
    if (changedPreset) this.pane.scrollTop = 0;
    if (refocus) {
      const c = this.form.control(refocus.field) as HTMLInputElement | HTMLTextAreaElement | null;
      c?.focus({ preventScroll: true });
      if (c && refocus.start !== null && 'setSelectionRange' in c) {
        try {
          c.setSelectionRange(refocus.start, refocus.end);
        } catch {
          // number inputs have no selection
        }
      }
    }
  }

  /** The connection line and New conversation of the selected character. */
  private renderActions(): void {
    const t = this.actionTarget();
    if (!t || !this.form) return;
    this.connection.show(t);
    this.newConversation.show(t);
  }

  private renderFooter(): void {
    const state = this.model.state;
    this.pathLine.textContent = state?.path ?? '';
    this.pathLine.title = state?.path ?? '';
    const dirty = this.dirty;
    this.saveBtn.disabled = !dirty || this.pending !== null;
    this.saveBtn.textContent = this.pending ? t('settings.saving') : t('settings.save');
    this.revertBtn.disabled = !dirty || this.pending !== null;
    const conflicts = this.liveConflicts();
    this.note.hidden = !(conflicts.length > 0 && dirty);
    if (!this.note.hidden) {
      const byPreset = new Map<string, string[]>();
      for (const c of conflicts) {
        const name = this.model.find(c.preset)?.name.trim() || t('settings.unnamed');
        byPreset.set(name, [...(byPreset.get(name) ?? []), t(FIELD_LABELS[c.field])]);
      }
      const what = [...byPreset].map(([name, fields]) => t('settings.changed_fields', { name, fields: fields.join(t('settings.list_sep')) }))
        .join(t('settings.group_sep'));
      const text = t('settings.changed_note', { lead: changedElsewhere(), what });
      // Set only when it changes: the note is a live region.
      if (this.note.textContent !== text) this.note.textContent = text;
    }
    this.root.dataset.dirty = String(dirty);
  }

  /** The conflicts that still hold: the user's value still differs from the
   * saved one (an edit set back, or saved since, is no conflict). */
  private liveConflicts(): Conflict[] {
    const state = this.model.state;
    if (!state) return [];
    return this.conflicts.filter((c) => {
      if (c.field === 'active_preset') return this.model.active !== state.active_preset;
      const d = this.model.find(c.preset);
      if (!d) return false;
      const saved = this.model.savedForm(c.preset);
      if (c.field === 'removed') return !saved;
      return saved !== undefined && getField(d, c.field) !== getField(draftFrom(saved), c.field);
    });
  }

  private setStatus(text: string, kind: '' | 'ok' | 'error'): void {
    if (this.statusTimer) this.sched.clearTimeout(this.statusTimer);
    this.statusTimer = 0;
    this.offlineStatus = false;
    this.statusLine.textContent = text;
    if (kind) this.statusLine.dataset.kind = kind;
    else delete this.statusLine.dataset.kind;
    if (kind === 'ok') {
      this.statusTimer = this.sched.setTimeout(() => {
        this.statusTimer = 0;
        this.setStatus('', '');
      }, SAVED_MS);
    }
  }

  get statusText(): string {
    return this.statusLine.textContent ?? '';
  }

  // ---- events ----

  private wire(): void {
    this.addBtn.addEventListener('click', () => this.addCharacter());
    this.saveBtn.addEventListener('click', () => this.save());
    this.revertBtn.addEventListener('click', () => this.revert());
    this.list.addEventListener('click', (e) => {
      const b = (e.target as Element).closest<HTMLElement>('.preset-item');
      if (b?.dataset.id) this.select(b.dataset.id);
    });
    this.list.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
      const items = [...this.list.querySelectorAll<HTMLElement>('.preset-item')];
      const i = items.indexOf(document.activeElement as HTMLElement);
      if (i < 0 || items.length === 0) return;
      e.preventDefault();
      const j = e.key === 'Home' ? 0 : e.key === 'End' ? items.length - 1
        : Math.max(0, Math.min(items.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)));
      items[j]!.focus();
      this.select(items[j]!.dataset.id!);
    });
    this.root.addEventListener('keydown', (e) => {
      // Enter in a one-line field submits nothing (there is no form to submit).
      if (e.key === 'Enter' && e.target instanceof HTMLInputElement) e.preventDefault();
    });
    document.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        this.save();
      }
    });
  }
}
