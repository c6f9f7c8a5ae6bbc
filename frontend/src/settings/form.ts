// One preset's form: three sections (Character, Backend, Screen) built
// once for a set of choices, then shown for whichever draft is selected.
// It reports each edit by field name and never keeps values of its own;
// the view owns the drafts (model.ts). The fourth, read-only Session
// section (history.ts) is built by the view and added after them; so is
// the Backend section's connection line (actions.ts).

import './form.css';
import { plural, t } from '../i18n';
import { el } from '../dom';
import type { AgentItem, AudioForm, Choice, KeyboardForm, SettingsAudio, SettingsChoices, Standing } from '../protocol';
import { StandingsView } from './standings';
import type { DraftPreset, FieldName } from './model';
import { comboFromKey } from './shortcut';
import { wordChoices, wordDevices } from './choicewords';
import { phrase } from '../corephrases';

export interface FormHandlers {
  edit(field: FieldName, value: string | number | boolean): void;
  removeKey(): void;
  removeVoiceKey(): void;
  remove(): void;
  /** Standard Agents: the running character's deleted thread is replaced
   * by a new one (a new conversation). */
  replaceThread(): void;
  /** Forget one of the character's standings (rate_relation). */
  resetStanding?(preset: string, target: string): void;
}

/** The chat API whose character talks to an agent of a Standard Agents
 * runtime: the agent and thread replace the model settings. */
export const STANDARD_AGENTS = 'standard_agents';

/** What the form shows beside a draft's own fields. */
export interface FormContext {
  isMain: boolean;
  hasKey: boolean;
  chatId: string;
  isNew: boolean;
  /** Why the key is gone (the preset moved to another backend), or ''. */
  keyNote: string;
  /** A new character takes this character's key when saved (its name), or ''. */
  keyFrom?: string;
  /** Why the screen permissions went back to asking, or ''. */
  screenNote: string;
  /** The thread id as saved ('' for none or a new character). */
  savedThread: string;
  /** What keeps the running character from its thread ('thread_deleted',
   * 'agent_unknown') or ''. */
  threadProblem: string;
  /** The core runs the character (saved and switched on). */
  live: boolean;
  hasVoiceKey?: boolean;
  /** The working shared sound settings and what the core found. */
  audio?: AudioForm;
  /** The working global shortcut, with the core's note. */
  keyboard?: KeyboardForm;
  sound?: SettingsAudio | null;
  /** Her standings as saved (rate_relation). */
  standings?: Standing[];
}

/** One-line explanations of the screen access modes, for a choice that
 * comes without a note. */
function screenHelp(id: string): string {
  switch (id) {
    case 'ask': return t('settings.form.screen_ask_help');
    case 'allow': return t('settings.form.screen_allow_help');
    case 'deny': return t('settings.form.screen_deny_help');
  }
  return '';
}

/** The key field's placeholder: saved, none, or removed on save. */
function keyPlaceholder(which: 'saved' | 'none' | 'removed'): string {
  return which === 'saved' ? t('settings.form.key_saved') : which === 'removed' ? t('settings.form.key_removed') : t('settings.form.key_none');
}

let formSeq = 0;

/** Shows (or hides, for '') a note under a control it describes. */
function showNote(note: HTMLElement, text: string, describes: HTMLElement): void {
  if (note.textContent !== text) note.textContent = text;
  note.hidden = text === '';
  if (text === '') removeDescribedBy(describes, note.id);
  else addDescribedBy(describes, note.id);
}


export class PresetFormView {
  readonly el: HTMLElement;
  private readonly ids: string;
  private readonly sections = new Map<string, HTMLElement>();
  private readonly controls = new Map<FieldName, HTMLElement>();
  private readonly errors = new Map<FieldName, HTMLElement>();
  private readonly name: HTMLInputElement;
  private readonly look: HTMLSelectElement;
  /** Says which look folders cannot be used, naming the file at fault. */
  private readonly lookNote: HTMLElement;
  private readonly enabled: HTMLInputElement;
  private readonly main: HTMLInputElement;
  private readonly shortcut: HTMLInputElement;
  private readonly shortcutOff: HTMLInputElement;
  private readonly shortcutNote: HTMLElement;
  private readonly chatAPI: HTMLSelectElement;
  private readonly chatAPINote: HTMLElement;
  private readonly url: HTMLInputElement;
  private readonly key: HTMLInputElement;
  private readonly removeKeyBtn: HTMLButtonElement;
  private readonly keyNote: HTMLElement;
  private readonly screenNote: HTMLElement;
  private readonly model: HTMLInputElement;
  private readonly modelList: HTMLDataListElement;
  /** The models Test connection listed, as a list to click (hidden while none). */
  private readonly modelPick: HTMLSelectElement;
  private readonly modelHint: HTMLElement;
  private readonly effort: HTMLSelectElement;
  private readonly contextWindow: HTMLInputElement;
  private readonly card: HTMLTextAreaElement;
  private readonly chatId: HTMLElement;
  private readonly agent: HTMLInputElement;
  private readonly agentList: HTMLDataListElement;
  private readonly agentPick: HTMLSelectElement;
  private readonly agentHint: HTMLElement;
  private readonly thread: HTMLInputElement;
  private readonly threadHint: HTMLElement;
  private readonly newThreadBtn: HTMLButtonElement;
  private readonly threadProblem: HTMLElement;
  private readonly threadProblemText: HTMLElement;
  private readonly replaceThreadBtn: HTMLButtonElement;
  /** Rows shown for the request APIs only, and for Standard Agents only. */
  private readonly modelRows: HTMLElement[] = [];
  private readonly agentRows: HTMLElement[] = [];
  private readonly screen: HTMLFieldSetElement;
  private readonly screenRadios: HTMLInputElement[] = [];
  private readonly screenshot: HTMLInputElement;
  private readonly tellFrontmost: HTMLInputElement;
  private readonly localPages: HTMLInputElement;
  private readonly standings: StandingsView;
  private readonly removeBtn: HTMLButtonElement;
  private readonly voiceEngine: HTMLSelectElement;
  private readonly voiceProgram: HTMLSelectElement;
  private readonly systemVoice: HTMLInputElement;
  private readonly systemVoices: HTMLDataListElement;
  private readonly rate: HTMLInputElement;
  private readonly speechURL: HTMLInputElement;
  private readonly voiceKey: HTMLInputElement;
  private readonly removeVoiceKeyBtn: HTMLButtonElement;
  private readonly speechModel: HTMLInputElement;
  private readonly endpointVoice: HTMLInputElement;
  private readonly voiceFormat: HTMLSelectElement;
  private readonly tags: HTMLTextAreaElement;
  private readonly volume: HTMLInputElement;
  private readonly volumeOut: HTMLOutputElement;
  private readonly voiceMuted: HTMLInputElement;
  private readonly muteAll: HTMLInputElement;
  private readonly device: HTMLSelectElement;
  private readonly soundNote: HTMLElement;
  private shownError: FieldName | null = null;

  private readonly choices: SettingsChoices;

  constructor(coreChoices: SettingsChoices, private readonly h: FormHandlers) {
    const choices = wordChoices(coreChoices);
    this.choices = choices;
    this.ids = `f${++formSeq}`;
    this.standings = new StandingsView((preset, target) => this.h.resetStanding?.(preset, target));
    this.el = el('div', 'preset-form');

    // ---- Character ----
    const character = this.section('character', t('settings.form.character'));
    this.name = this.input('name', 'text');
    character.append(this.row('name', t('settings.form.name'), this.name));
    this.look = this.select('look', choices.looks ?? []);
    this.lookNote = el('div', 'hint look-note');
    this.lookNote.id = this.id('look-note');
    this.lookNote.setAttribute('role', 'status');
    character.append(this.row('look', t('settings.form.look'), this.look, this.lookNote));
    // Refused folders, and usable ones with a refused pose file (its note).
    const refused = (choices.looks ?? []).filter((c) => c.note);
    showNote(this.lookNote, refused.map((c) => `${c.label} ${c.note}`).join('\n'), this.look);
    this.enabled = this.checkbox('enabled');
    character.append(this.check('enabled', t('settings.form.enabled'), this.enabled, t('settings.form.enabled_hint')));
    this.main = this.checkbox('active_preset', 'radio');
    character.append(this.check('active_preset', t('settings.main_character'), this.main, t('settings.form.main_hint')));
    // The global shortcut (shared by all characters; it opens the main one's composer).
    this.shortcut = this.input('keyboard.shortcut', 'text');
    this.shortcut.placeholder = 'Ctrl+Alt+Y';
    // Pressing a combination writes it (Tab and plain typing pass through).
    this.shortcut.addEventListener('keydown', (e) => {
      const combo = comboFromKey(e);
      if (!combo) return;
      e.preventDefault();
      e.stopPropagation();
      this.shortcut.value = combo;
      this.h.edit('keyboard.shortcut', combo);
    });
    this.shortcutNote = el('div', 'hint shortcut-note');
    this.shortcutNote.id = this.id('keyboard.shortcut-note');
    this.shortcutNote.setAttribute('role', 'status');
    character.append(this.row('keyboard.shortcut', t('settings.form.shortcut'), this.shortcut, this.shortcutNote));
    this.shortcutOff = this.checkbox('keyboard.shortcut_off');
    character.append(this.check('keyboard.shortcut_off', t('settings.form.shortcut_off'), this.shortcutOff, t('settings.form.shortcut_off_hint')));
    this.removeBtn = el('button', 'btn btn-danger', t('settings.form.remove'));
    this.removeBtn.type = 'button';
    this.removeBtn.addEventListener('click', () => this.h.remove());
    const actions = el('div', 'section-actions');
    actions.append(this.removeBtn);
    character.append(actions);

    // ---- Backend ----
    const backend = this.section('backend', t('settings.form.backend'));
    this.chatAPI = this.select('chat_api', choices.chat_apis ?? []);
    this.chatAPINote = el('div', 'hint');
    this.chatAPINote.id = this.id('chat_api-note');
    backend.append(this.row('chat_api', t('settings.form.chat_api'), this.chatAPI, this.chatAPINote));
    this.url = this.input('chat_base_url', 'text');
    this.url.inputMode = 'url';
    this.url.placeholder = 'https://…';
    backend.append(this.row('chat_base_url', t('settings.form.base_url'), this.url));
    this.key = this.input('key', 'password');
    this.key.autocomplete = 'new-password';
    this.removeKeyBtn = el('button', 'btn btn-small', t('settings.form.remove_key'));
    this.removeKeyBtn.type = 'button';
    this.removeKeyBtn.addEventListener('click', () => this.h.removeKey());
    const keyLine = el('div', 'inline');
    keyLine.append(this.key, this.removeKeyBtn);
    this.keyNote = el('div', 'hint backend-note');
    this.keyNote.id = this.id('key-note');
    this.keyNote.setAttribute('role', 'status');
    this.keyNote.hidden = true;
    backend.append(this.row('key', t('settings.form.api_key'), keyLine, this.keyNote));
    this.model = this.input('model', 'text');
    this.modelList = el('datalist');
    this.modelList.id = this.id('model-list');
    this.model.setAttribute('list', this.modelList.id);
    this.modelHint = el('div', 'hint', t('settings.form.model_hint'));
    const modelPick = this.pickList('model', t('settings.form.listed_models'));
    this.modelPick = modelPick.select;
    const modelBox = el('div', 'model-box inline');
    modelBox.append(this.model, this.modelList, modelPick.label, this.modelPick);
    // Standard Agents: the agent (picked from what Test connection lists,
    // or typed) and the thread (pasted, or made when saved).
    this.agent = this.input('agent_id', 'text');
    this.agentList = el('datalist');
    this.agentList.id = this.id('agent-list');
    this.agent.setAttribute('list', this.agentList.id);
    this.agentHint = el('div', 'hint', t('settings.form.agent_hint'));
    const agentPick = this.pickList('agent_id', t('settings.form.listed_agents'));
    this.agentPick = agentPick.select;
    const agentBox = el('div', 'model-box inline');
    agentBox.append(this.agent, this.agentList, agentPick.label, this.agentPick);
    this.agentRows.push(this.row('agent_id', t('settings.form.agent'), agentBox, this.agentHint));
    this.thread = this.input('thread_id', 'text');
    // Short enough to show whole beside New thread; the hint says when.
    this.thread.placeholder = t('settings.form.thread_placeholder');
    this.newThreadBtn = el('button', 'btn btn-small new-thread', t('settings.form.new_thread'));
    this.newThreadBtn.type = 'button';
    this.newThreadBtn.title = t('settings.form.new_thread_tip');
    this.newThreadBtn.addEventListener('click', () => {
      this.h.edit('thread_id', '');
      this.thread.focus();
    });
    const threadLine = el('div', 'inline');
    threadLine.append(this.thread, this.newThreadBtn);
    this.threadHint = el('div', 'hint');
    this.threadProblem = el('div', 'thread-problem');
    this.threadProblem.setAttribute('role', 'status');
    this.threadProblem.hidden = true;
    this.threadProblemText = el('span', 'thread-problem-text');
    this.threadProblemText.id = this.id('thread-problem');
    this.replaceThreadBtn = el('button', 'btn btn-small start-new-thread', t('settings.form.start_new_thread'));
    this.replaceThreadBtn.type = 'button';
    this.replaceThreadBtn.setAttribute('aria-describedby', this.threadProblemText.id);
    this.replaceThreadBtn.addEventListener('click', () => this.h.replaceThread());
    this.threadProblem.append(this.threadProblemText, this.replaceThreadBtn);
    const threadBox = el('div');
    threadBox.append(threadLine, this.threadProblem);
    this.agentRows.push(this.row('thread_id', t('settings.form.thread'), threadBox, this.threadHint));
    backend.append(...this.agentRows);
    backend.append(this.row('model', t('settings.form.model'), modelBox, this.modelHint));
    this.modelRows.push(backend.lastElementChild as HTMLElement);
    this.effort = this.select('reasoning_effort', choices.reasoning_efforts ?? []);
    backend.append(this.row('reasoning_effort', t('settings.form.effort'), this.effort));
    this.modelRows.push(backend.lastElementChild as HTMLElement);
    this.contextWindow = this.input('context_window', 'number');
    this.contextWindow.min = '0';
    this.contextWindow.step = '1';
    this.contextWindow.inputMode = 'numeric';
    const cwHint = el('div', 'hint', t('settings.form.context_window_hint'));
    backend.append(this.row('context_window', t('settings.form.context_window'), this.contextWindow, cwHint));
    this.modelRows.push(backend.lastElementChild as HTMLElement);
    this.card = el('textarea', 'control');
    this.card.id = this.id('card');
    this.card.rows = 5;
    this.card.spellcheck = true;
    this.card.addEventListener('input', () => this.h.edit('card', this.card.value));
    this.controls.set('card', this.card);
    const cardHint = el('div', 'hint', t('settings.form.card_hint'));
    backend.append(this.row('card', t('settings.form.card'), this.card, cardHint));
    this.modelRows.push(backend.lastElementChild as HTMLElement);
    this.chatId = el('div', 'chat-id');
    backend.append(this.chatId);

    // ---- Voice ----
    const voice = this.section('voice', t('settings.form.voice'));
    this.voiceEngine = this.select('voice.engine', choices.voice_engines ?? []);
    voice.append(this.row('voice.engine', t('settings.form.voice'), this.voiceEngine,
      el('div', 'hint', t('settings.form.engine_hint'))));
    this.voiceProgram = this.select('voice.program', choices.voice_programs ?? []);
    voice.append(this.row('voice.program', t('settings.form.program'), this.voiceProgram));
    this.systemVoice = this.input('voice.system_voice', 'text');
    this.systemVoice.placeholder = t('settings.form.system_voice_placeholder');
    this.systemVoices = el('datalist');
    this.systemVoices.id = this.id('system-voices');
    this.systemVoice.setAttribute('list', this.systemVoices.id);
    const sv = el('div');
    sv.append(this.systemVoice, this.systemVoices);
    voice.append(this.row('voice.system_voice', t('settings.form.system_voice'), sv,
      el('div', 'hint', t('settings.form.system_voice_hint'))));
    this.rate = this.input('voice.rate', 'number');
    this.rate.min = '0';
    this.rate.max = '450';
    this.rate.step = '5';
    voice.append(this.row('voice.rate', t('settings.form.rate'), this.rate, el('div', 'hint', t('settings.form.rate_hint'))));
    this.speechURL = this.input('voice.base_url', 'text');
    this.speechURL.inputMode = 'url';
    this.speechURL.placeholder = 'https://api.openai.com/v1';
    voice.append(this.row('voice.base_url', t('settings.form.speech_endpoint'), this.speechURL,
      el('div', 'hint', t('settings.form.speech_endpoint_hint'))));
    this.voiceKey = this.input('voice.key', 'password');
    this.voiceKey.autocomplete = 'new-password';
    this.removeVoiceKeyBtn = el('button', 'btn btn-small', t('settings.form.remove_key'));
    this.removeVoiceKeyBtn.type = 'button';
    this.removeVoiceKeyBtn.addEventListener('click', () => this.h.removeVoiceKey());
    const vkLine = el('div', 'inline');
    vkLine.append(this.voiceKey, this.removeVoiceKeyBtn);
    voice.append(this.row('voice.key', t('settings.form.speech_key'), vkLine, el('div', 'hint', t('settings.form.speech_key_hint'))));
    this.speechModel = this.input('voice.model', 'text');
    this.speechModel.placeholder = 'gpt-4o-mini-tts';
    voice.append(this.row('voice.model', t('settings.form.speech_model'), this.speechModel));
    this.endpointVoice = this.input('voice.endpoint_voice', 'text');
    this.endpointVoice.placeholder = 'alloy';
    voice.append(this.row('voice.endpoint_voice', t('settings.form.endpoint_voice'), this.endpointVoice));
    this.voiceFormat = this.select('voice.format', choices.voice_formats ?? []);
    voice.append(this.row('voice.format', t('settings.form.audio_format'), this.voiceFormat));
    this.tags = el('textarea', 'control');
    this.tags.id = this.id('voice.emotion_text_map');
    this.tags.rows = 3;
    this.tags.spellcheck = false;
    // Emoji of the Emoticons block, which the common fonts draw (👂 showed as a box).
    this.tags.placeholder = t('settings.form.voice_tags_placeholder');
    this.tags.addEventListener('input', () => this.h.edit('voice.emotion_text_map', this.tags.value));
    this.controls.set('voice.emotion_text_map', this.tags);
    voice.append(this.row('voice.emotion_text_map', t('settings.form.voice_tags'), this.tags, el('div', 'hint',
      t('settings.form.voice_tags_hint'))));
    this.volume = el('input', 'control control-range');
    this.volume.type = 'range';
    this.volume.min = '0';
    this.volume.max = '100';
    this.volume.step = '5';
    this.volume.id = this.id('voice.volume');
    this.volumeOut = el('output', 'range-value');
    this.volumeOut.setAttribute('for', this.volume.id);
    this.volume.addEventListener('input', () => {
      this.volumeOut.value = `${this.volume.value} %`;
      this.h.edit('voice.volume', Number(this.volume.value));
    });
    this.controls.set('voice.volume', this.volume);
    const volLine = el('div', 'inline');
    volLine.append(this.volume, this.volumeOut);
    voice.append(this.row('voice.volume', t('settings.form.volume'), volLine));
    this.voiceMuted = this.checkbox('voice.muted');
    voice.append(this.check('voice.muted', t('settings.form.mute'), this.voiceMuted, t('settings.form.mute_hint')));
    // The shared sound settings, the same in every character's form.
    voice.append(el('h3', 'subsection-title', t('settings.form.all_characters')));
    this.muteAll = this.checkbox('audio.muted');
    voice.append(this.check('audio.muted', t('settings.form.mute_all'), this.muteAll, t('settings.form.mute_all_hint')));
    this.device = this.select('audio.device', []);
    this.soundNote = el('div', 'hint sound-note');
    this.soundNote.id = this.id('sound-note');
    voice.append(this.row('audio.device', t('settings.form.device'), this.device, this.soundNote));

    // ---- Screen ----
    const perms = this.section('permissions', t('settings.form.screen'));
    this.screenNote = el('div', 'hint backend-note');
    this.screenNote.id = this.id('screen-note');
    this.screenNote.setAttribute('role', 'status');
    this.screenNote.hidden = true;
    perms.append(this.screenNote);
    this.screen = el('fieldset', 'radio-group');
    this.screen.append(el('legend', '', t('settings.form.screen_access')));
    for (const c of choices.screen_modes ?? []) this.screen.append(this.radio(c));
    this.controls.set('permissions.screen', this.screen);
    const screenErr = this.errorEl('permissions.screen');
    this.screen.append(screenErr);
    perms.append(this.screen);
    this.screenshot = this.checkbox('permissions.screenshot_each_turn');
    perms.append(this.check('permissions.screenshot_each_turn', t('settings.form.screenshot'), this.screenshot,
      t('settings.form.screenshot_hint')));
    this.tellFrontmost = this.checkbox('permissions.tell_frontmost');
    perms.append(this.check('permissions.tell_frontmost', t('settings.form.frontmost'), this.tellFrontmost,
      t('settings.form.frontmost_hint')));
    this.localPages = this.checkbox('permissions.local_pages');
    perms.append(this.check('permissions.local_pages', t('settings.form.local_pages'), this.localPages,
      t('settings.form.local_pages_hint')));
    perms.append(this.standings.el);
  }

  /** Shows a draft. Values are set only where they differ, so the field
   * being typed in keeps its caret. */
  show(d: DraftPreset, ctx: FormContext): void {
    this.el.dataset.preset = d.id;
    setValue(this.name, d.name);
    this.setSelect(this.look, this.choices.looks ?? [], d.look);
    this.enabled.checked = d.enabled;
    this.main.checked = ctx.isMain;
    const kb = ctx.keyboard ?? { shortcut: 'Ctrl+Alt+Y', shortcut_off: false };
    setValue(this.shortcut, kb.shortcut);
    this.shortcut.disabled = kb.shortcut_off;
    this.shortcutOff.checked = kb.shortcut_off;
    showNote(this.shortcutNote, kb.shortcut_off ? '' : (kb.note ?? ''), this.shortcut);
    this.setSelect(this.chatAPI, this.choices.chat_apis ?? [], d.chat_api);
    const api = (this.choices.chat_apis ?? []).find((c) => c.id === d.chat_api);
    this.chatAPINote.textContent = api?.note ?? '';
    this.chatAPINote.hidden = !api?.note;
    setValue(this.url, d.chat_base_url);
    setValue(this.key, d.key ?? '');
    this.key.placeholder = d.key === '' ? keyPlaceholder('removed') : ctx.hasKey ? keyPlaceholder('saved')
      : ctx.keyFrom ? t('settings.form.key_from', { name: ctx.keyFrom }) : keyPlaceholder('none');
    this.removeKeyBtn.hidden = !(ctx.hasKey || ctx.keyFrom) || d.key === '';
    // A typed key answers the note; until then it says why the key is gone.
    showNote(this.keyNote, d.key ? '' : ctx.keyNote, this.key);
    showNote(this.screenNote, ctx.screenNote, this.screen);
    setValue(this.model, d.model);
    syncPick(this.modelPick, d.model);
    this.setSelect(this.effort, this.choices.reasoning_efforts ?? [], d.reasoning_effort);
    if (Number(this.contextWindow.value || 0) !== d.context_window || this.contextWindow.value === '') {
      this.contextWindow.value = String(d.context_window);
    }
    setValue(this.card, d.card);
    const agents = d.chat_api === STANDARD_AGENTS;
    for (const r of this.agentRows) r.hidden = !agents;
    // The agent is defined on the runtime: model, effort, card and window
    // are its business.
    for (const r of this.modelRows) r.hidden = agents;
    setValue(this.agent, d.agent_id);
    syncPick(this.agentPick, d.agent_id);
    setValue(this.thread, d.thread_id);
    this.newThreadBtn.disabled = d.thread_id === '';
    const savedThread = ctx.savedThread;
    this.threadHint.textContent = d.thread_id === ''
      ? (savedThread ? t('settings.form.thread_new_old_stays') : t('settings.form.thread_new'))
      : t('settings.form.thread_paste');
    const problem = agents && ctx.threadProblem !== '' && d.thread_id === savedThread ? ctx.threadProblem : '';
    this.threadProblem.hidden = problem === '';
    this.threadProblem.dataset.problem = problem;
    this.threadProblemText.textContent = problem === 'thread_deleted'
      ? t('settings.form.thread_deleted')
      : problem === 'agent_unknown' ? t('settings.form.agent_unknown') : '';
    this.replaceThreadBtn.hidden = problem !== 'thread_deleted' || !ctx.live;
    this.chatId.textContent = ctx.isNew || !ctx.chatId ? t('settings.form.chat_id_new') : t('settings.form.chat_id', { id: ctx.chatId });
    this.chatId.hidden = agents; // the thread is this wire's conversation
    for (const r of this.screenRadios) r.checked = r.value === d.permissions.screen;
    this.screenshot.checked = d.permissions.screenshot_each_turn;
    this.tellFrontmost.checked = !d.permissions.hide_frontmost;
    this.localPages.checked = !!d.permissions.local_pages;
    this.standings.show(ctx.isNew ? undefined : d.id, ctx.standings ?? []);
    this.showVoice(d, ctx);
  }

  private showVoice(d: DraftPreset, ctx: FormContext): void {
    const v = d.voice;
    this.setSelect(this.voiceEngine, this.choices.voice_engines ?? [], v.engine);
    this.setSelect(this.voiceProgram, this.choices.voice_programs ?? [], v.program);
    const voices = this.choices.system_voices?.[v.program] ?? [];
    if (this.systemVoices.dataset.program !== v.program) {
      this.systemVoices.dataset.program = v.program;
      this.systemVoices.replaceChildren(...voices.map((c) => {
        const o = el('option');
        o.value = c.id;
        o.label = c.label;
        return o;
      }));
    }
    setValue(this.systemVoice, v.system_voice);
    if (Number(this.rate.value || 0) !== v.rate || this.rate.value === '') this.rate.value = String(v.rate);
    setValue(this.speechURL, v.base_url);
    setValue(this.voiceKey, d.voice_key ?? '');
    const hasKey = !!ctx.hasVoiceKey;
    this.voiceKey.placeholder = d.voice_key === '' ? keyPlaceholder('removed') : hasKey ? keyPlaceholder('saved') : keyPlaceholder('none');
    this.removeVoiceKeyBtn.hidden = !hasKey || d.voice_key === '';
    setValue(this.speechModel, v.model);
    setValue(this.endpointVoice, v.endpoint_voice);
    this.setSelect(this.voiceFormat, this.choices.voice_formats ?? [], v.format);
    setValue(this.tags, v.emotion_text_map);
    if (this.volume.value !== String(v.volume)) this.volume.value = String(v.volume);
    this.volumeOut.value = `${v.volume} %`;
    this.voiceMuted.checked = v.muted;
    // Only the chosen engine's fields show.
    const show = (field: FieldName, on: boolean) => {
      const row = this.el.querySelector<HTMLElement>(`.field[data-field="${field}"]`);
      if (row) row.hidden = !on;
    };
    const system = v.engine === 'system';
    const endpoint = v.engine === 'endpoint';
    for (const f of ['voice.program', 'voice.system_voice', 'voice.rate'] as const) show(f, system);
    for (const f of ['voice.base_url', 'voice.key', 'voice.model', 'voice.endpoint_voice', 'voice.format', 'voice.emotion_text_map'] as const) show(f, endpoint);
    show('voice.volume', v.engine !== 'off');
    show('voice.muted', v.engine !== 'off');
    // The shared settings.
    const a = ctx.audio ?? { muted: false, device: '' };
    this.muteAll.checked = a.muted;
    const devices = wordDevices(ctx.sound?.devices ?? [{ id: '', label: '', available: true }], 'output');
    const key = JSON.stringify(devices);
    if (this.device.dataset.choices !== key) {
      this.device.dataset.choices = key;
      this.device.replaceChildren(...devices.map((c) => {
        const o = el('option', '', c.available || !c.note ? c.label : `${c.label} — ${c.note}`);
        o.value = c.id;
        return o;
      }));
    }
    this.setSelect(this.device, devices, a.device);
    const sound = ctx.sound;
    const note = !sound ? '' : phrase(sound.note_msg, sound.note) || (sound.server ? t('settings.form.playing_through', { server: sound.server }) : '');
    this.soundNote.textContent = note;
    this.soundNote.hidden = note === '';
    this.soundNote.dataset.kind = sound?.note ? 'warning' : '';
  }

  /** Offers the models a connection test listed (none: free text only). */
  setModels(models: string[]): void {
    this.modelList.replaceChildren(...models.map((m) => {
      const o = el('option');
      o.value = m;
      return o;
    }));
    fillPick(this.modelPick, models.map((m) => ({ id: m, label: m })), 'model', this.model.value);
    this.modelHint.textContent = models.length > 0
      ? plural(models.length, 'settings.form.models_listed_one', 'settings.form.models_listed')
      : t('settings.form.model_hint');
  }

  /** Offers the agents a connection test listed (none: free text only). */
  setAgents(agents: AgentItem[]): void {
    this.agentList.replaceChildren(...agents.map((a) => {
      const o = el('option');
      o.value = a.id;
      o.label = a.label;
      return o;
    }));
    fillPick(this.agentPick, agents.map((a) => ({ id: a.id, label: a.label && a.label !== a.id ? `${a.label} (${a.id})` : a.id })),
      'agent', this.agent.value);
    this.agentHint.textContent = agents.length > 0
      ? plural(agents.length, 'settings.form.agents_listed_one', 'settings.form.agents_listed')
      : t('settings.form.agent_hint');
  }

  /** The agent ids offered now. */
  get agents(): string[] {
    return [...this.agentList.options].map((o) => o.value);
  }

  /** The models offered now. */
  get models(): string[] {
    return [...this.modelList.options].map((o) => o.value);
  }

  /** Adds a section built elsewhere at the end (the read-only Session
   * section), so sectionEl and firstControl find it. */
  addSection(id: string, section: HTMLElement): void {
    this.sections.set(id, section);
    this.el.append(section);
  }

  /** Puts a row built elsewhere (the connection line) right after a
   * field's row. */
  placeAfter(field: FieldName, row: HTMLElement): void {
    this.el.querySelector(`.field[data-field="${field}"]`)?.after(row);
  }

  /** The section element (for settings_focus). */
  sectionEl(s: string): HTMLElement | null {
    return this.sections.get(s) ?? null;
  }

  /** The first control of a section that takes focus (an action button
   * marked data-no-focus, as "New conversation", never does). */
  firstControl(s: string): HTMLElement | null {
    return this.sectionEl(s)?.querySelector<HTMLElement>(
      'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]):not([data-no-focus])') ?? null;
  }

  /** What the text fields show now (inputs and text areas, by field):
   * what Save must send, read from the controls themselves. */
  typedValues(): Array<[FieldName, string]> {
    const out: Array<[FieldName, string]> = [];
    for (const [f, c] of this.controls) {
      if (c instanceof HTMLTextAreaElement || (c instanceof HTMLInputElement && (c.type === 'text' || c.type === 'password' || c.type === 'number'))) {
        out.push([f, c.value]);
      }
    }
    return out;
  }

  /** The field whose control has the focus, if any. */
  get focusedField(): FieldName | null {
    const a = document.activeElement;
    for (const [f, c] of this.controls) if (c === a) return f;
    return null;
  }

  /** The control for a field (a radio group's checked or first radio). */
  control(field: string): HTMLElement | null {
    if (field === 'permissions.screen' || field === 'permissions') {
      return this.screenRadios.find((r) => r.checked) ?? this.screenRadios[0] ?? null;
    }
    if (field === 'permissions.screenshot_each_turn') return this.screenshot;
    if (field === 'permissions.tell_frontmost') return this.tellFrontmost;
    if (field === 'permissions.local_pages') return this.localPages;
    return this.controls.get(field as FieldName) ?? null;
  }

  /** Marks a field wrong with the message under it; returns the control to
   * focus, or null when the form has no such field. */
  setError(field: string, message: string, suggestion?: string): HTMLElement | null {
    this.clearError();
    const f = (field === 'permissions' ? 'permissions.screen' : field) as FieldName;
    const err = this.errors.get(f);
    const ctl = this.control(f);
    if (!err || !ctl) return null;
    err.textContent = message;
    if (suggestion) {
      // The core's guess (a URL without a scheme): one click takes it.
      const use = el('button', 'btn btn-small field-suggestion', t('settings.form.use_suggestion', { value: suggestion }));
      use.type = 'button';
      use.addEventListener('click', () => this.h.edit(f, suggestion));
      err.append(' ', use);
    }
    err.hidden = false;
    const marked = f === 'permissions.screen' ? this.screen : ctl;
    marked.setAttribute('aria-invalid', 'true');
    for (const r of f === 'permissions.screen' ? this.screenRadios : [ctl]) addDescribedBy(r, err.id);
    this.shownError = f;
    return ctl;
  }

  clearError(): void {
    const f = this.shownError;
    if (!f) return;
    this.shownError = null;
    const err = this.errors.get(f)!;
    err.hidden = true;
    err.textContent = '';
    const ctl = f === 'permissions.screen' ? this.screen : this.controls.get(f);
    ctl?.removeAttribute('aria-invalid');
    for (const r of f === 'permissions.screen' ? this.screenRadios : ctl ? [ctl] : []) removeDescribedBy(r, err.id);
  }

  get errorField(): FieldName | null {
    return this.shownError;
  }

  // ---- building ----

  private id(field: string): string {
    return `${this.ids}-${field.replace(/\./g, '-')}`;
  }

  private section(id: string, title: string): HTMLElement {
    const s = el('section', 'section');
    s.id = `section-${id}`;
    s.dataset.section = id;
    const h = el('h2', 'section-title', title);
    h.id = `${this.ids}-h-${id}`;
    s.setAttribute('aria-labelledby', h.id);
    s.append(h);
    this.sections.set(id, s);
    this.el.append(s);
    return s;
  }

  private input(field: FieldName, type: string): HTMLInputElement {
    const i = el('input', 'control');
    i.type = type;
    i.id = this.id(field);
    i.autocomplete = 'off';
    i.spellcheck = false;
    i.addEventListener('input', () => {
      if (type === 'number') {
        const n = i.value.trim() === '' ? 0 : Math.trunc(Number(i.value));
        this.h.edit(field, Number.isFinite(n) ? n : 0);
      } else {
        this.h.edit(field, i.value);
      }
    });
    this.controls.set(field, i);
    return i;
  }

  private select(field: FieldName, choices: Choice[]): HTMLSelectElement {
    const s = el('select', 'control');
    s.id = this.id(field);
    for (const c of choices) {
      const o = el('option', '', c.available || !c.note ? c.label : `${c.label} — ${c.note}`);
      o.value = c.id;
      o.disabled = !c.available;
      s.append(o);
    }
    s.addEventListener('change', () => this.h.edit(field, s.value));
    this.controls.set(field, s);
    return s;
  }

  /** Selects `value`, adding an option for a value the choices lack (a
   * saved setting this build does not list) so it shows as it is. */
  private setSelect(s: HTMLSelectElement, choices: Choice[], value: string): void {
    for (const o of [...s.options]) {
      if (o.dataset.extra && o.value !== value) o.remove();
      // A saved value that is now unavailable stays selectable for this
      // preset, so showing it does not change it.
      else if (!o.dataset.extra) o.disabled = !(choices.find((c) => c.id === o.value)?.available ?? true) && o.value !== value;
    }
    if (![...s.options].some((o) => o.value === value)) {
      const o = el('option', '', value === '' ? t('settings.form.none_value') : value);
      o.value = value;
      o.dataset.extra = 'true';
      s.append(o);
    }
    if (s.value !== value) s.value = value;
  }

  /** A dropdown of what Test connection listed, beside a free-text field
   * (the field keeps its datalist for typing): the datalist alone showed
   * nothing until a letter was typed in WebKitGTK, so "pick one" had
   * nothing to click. Choosing an entry writes it into the field; typing
   * stays free. Hidden while nothing is listed. */
  private pickList(field: 'model' | 'agent_id', label: string): { select: HTMLSelectElement; label: HTMLLabelElement } {
    const s = el('select', 'control pick-list');
    s.id = this.id(`${field}-pick`);
    s.hidden = true;
    // Named for assistive technology; the row's label names the field.
    const l = el('label', 'pick-list-label', label);
    l.htmlFor = s.id;
    s.addEventListener('change', () => {
      if (s.value !== '') this.h.edit(field, s.value);
    });
    return { select: s, label: l };
  }

  private checkbox(field: FieldName, type: 'checkbox' | 'radio' = 'checkbox'): HTMLInputElement {
    const i = el('input');
    i.type = type;
    i.id = this.id(field);
    i.addEventListener('change', () => this.h.edit(field, i.checked));
    this.controls.set(field, i);
    return i;
  }

  private radio(c: Choice): HTMLElement {
    const wrap = el('div', 'radio');
    const r = el('input');
    r.type = 'radio';
    r.name = this.id('screen');
    r.value = c.id;
    r.id = this.id(`screen-${c.id}`);
    r.disabled = !c.available;
    r.addEventListener('change', () => {
      if (r.checked) this.h.edit('permissions.screen', c.id);
    });
    const text = el('div', 'radio-text');
    const label = el('label', '', c.label);
    label.htmlFor = r.id;
    // The core's note explains the mode; this page's words are the fallback.
    const help = el('div', 'hint', c.note || (c.available ? screenHelp(c.id) : ''));
    help.id = this.id(`screen-${c.id}-help`);
    r.setAttribute('aria-describedby', help.id);
    text.append(label, help);
    wrap.append(r, text);
    this.screenRadios.push(r);
    return wrap;
  }

  private errorEl(field: FieldName): HTMLElement {
    const e = el('div', 'field-error');
    e.id = this.id(`${field}-error`);
    e.setAttribute('role', 'alert');
    e.hidden = true;
    this.errors.set(field, e);
    return e;
  }

  /** A labelled row: label, the control, optional hint, the error line. */
  private row(field: FieldName, label: string, control: HTMLElement, hint?: HTMLElement): HTMLElement {
    const row = el('div', 'field');
    row.dataset.field = field;
    const l = el('label', 'field-label', label);
    l.htmlFor = this.id(field);
    const body = el('div', 'field-body');
    body.append(control);
    if (hint) {
      body.append(hint);
      if (!hint.id) hint.id = this.id(`${field}-hint`);
      addDescribedBy(this.controls.get(field)!, hint.id);
    }
    body.append(this.errorEl(field));
    row.append(l, body);
    return row;
  }

  /** A checkbox (or the main radio) with its label beside it. */
  private check(field: FieldName, label: string, input: HTMLInputElement, hint: string): HTMLElement {
    const row = el('div', 'field field-check');
    row.dataset.field = field;
    const body = el('div', 'field-body');
    const line = el('div', 'check-line');
    const l = el('label', '', label);
    l.htmlFor = input.id;
    line.append(input, l);
    const h = el('div', 'hint', hint);
    h.id = this.id(`${field}-hint`);
    addDescribedBy(input, h.id);
    body.append(line, h, this.errorEl(field));
    row.append(el('div', 'field-label'), body);
    return row;
  }
}

/** Fills a pick list: a first entry that asks to pick (short: the list
 * takes at most half the row; the hint says how many are listed), then
 * each one; shows the field's value when it is one of them. */
function fillPick(s: HTMLSelectElement, items: Array<{ id: string; label: string }>, noun: 'model' | 'agent', value: string): void {
  const head = el('option', '', t('settings.form.pick_one'));
  head.title = noun === 'model'
    ? plural(items.length, 'settings.form.listed_models_n_one', 'settings.form.listed_models_n')
    : plural(items.length, 'settings.form.listed_agents_n_one', 'settings.form.listed_agents_n');
  head.value = '';
  s.replaceChildren(head, ...items.map((c) => {
    const o = el('option', '', c.label);
    o.value = c.id;
    return o;
  }));
  s.hidden = items.length === 0;
  syncPick(s, value);
}

/** Selects the field's value in its pick list, or the first entry. */
function syncPick(s: HTMLSelectElement, value: string): void {
  const v = [...s.options].some((o) => o.value !== '' && o.value === value.trim()) ? value.trim() : '';
  if (s.value !== v) s.value = v;
}

function setValue(i: HTMLInputElement | HTMLTextAreaElement, v: string): void {
  if (i.value !== v) i.value = v;
}

function addDescribedBy(e: Element, id: string): void {
  const ids = (e.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  if (!ids.includes(id)) ids.push(id);
  e.setAttribute('aria-describedby', ids.join(' '));
}

function removeDescribedBy(e: Element, id: string): void {
  const ids = (e.getAttribute('aria-describedby') ?? '').split(' ').filter((x) => x && x !== id);
  if (ids.length) e.setAttribute('aria-describedby', ids.join(' '));
  else e.removeAttribute('aria-describedby');
}
