// The view protocol's messages as the page sees them. docs/view-protocol.md
// is the reference; app/view/protocol.go is the Go side.

export interface PresetInfo { type: 'preset'; id: string; name: string; look: string }
/** `cause`: why the connection failed, in plain words; `settings`: the fix
 * is in Settings → Backend (the page offers a button). */
/** A text the core publishes for the page to word (app/phrase): a key of
 * the catalogues (src/corephrases.ts lists them) and its {name} values. */
export interface Phrase { key: string; vars?: Record<string, string> | null }
export interface Plate {
  type: 'plate'; kind: '' | 'connection' | 'thinking'; text: string; action?: string;
  cause?: string; settings?: boolean;
  /** text and cause as phrases; text and cause are their English. */
  msg?: Phrase | null; cause_msg?: Phrase | null;
}
export interface Composer { type: 'composer'; locked: boolean }
export interface ErrorLine { type: 'error_line'; text: string; where: 'composer' | 'pill' }
export interface Notice { type: 'notice'; id: string; text: string; msg?: Phrase | null }
/** `voiced`: the speech is heard, the mouth follows `mouth` levels;
 * otherwise it flaps while `speaking`. */
export interface CharacterState { type: 'character'; emotion: string; motion: string; speaking: boolean; voiced?: boolean }
/** Lip-sync (not sticky): `levels[i]` (0–100) is heard from `at +
 * i × step_ms` (epoch ms). Empty levels: the sound stopped at `at`. */
export interface Mouth { type: 'mouth'; at: number; step_ms: number; levels: number[] | null; tones?: number[] | null }
/** The character's voice for the pet menu. */
export interface VoiceState { type: 'voice'; muted: boolean; global_muted: boolean; engine: string }
/** The quiet companion switches for the pet menu (docs/proactive.md). */
export interface Companion { type: 'companion'; quiet: boolean; global_quiet: boolean }
/** One reminder: a label at "HH:MM", on a date ("YYYY-MM-DD") or on days ("mon"…), else daily. */
export interface ScheduleForm { label: string; at: string; date: string; days: string[] | null }
/** settings.json's proactive section ("" and 0: the defaults). */
export interface ProactiveForm {
  quiet: boolean; greetings_off: boolean; morning: string; afternoon: string; evening: string; night: string;
  away_minutes: number; checkins_off: boolean; checkin_minutes: number[] | null; app_notes_off: boolean;
  stretch_minutes: number; quiet_gap_minutes: number; debounce_minutes: number; hourly_cap: number;
  quiet_hours_off: boolean; quiet_from: string; quiet_to: string; when_muted: string;
  call_apps: string[] | null; schedules: ScheduleForm[] | null;
}
/** The saved "Speaking first" section for the settings window. */
export interface SettingsProactive { type: 'settings_proactive'; form: ProactiveForm }
export interface Bubble {
  type: 'bubble';
  seq: number;
  turn_id: string;
  kind: 'speech' | 'filler' | 'failure' | string;
  text: string;
  speaking: boolean;
  muted: boolean;
}
export interface PillTool { tool_id: string; state: 'running' | 'done' | 'failed' | string; label: string; phrase?: string }
export interface Pill { type: 'pill'; tool: PillTool | null; error: string; capture?: boolean; voice?: string }
/** A prompt with `site` asks to open that web site in the browser (the
 * browser tool); with `tool`, to use a tool (an MCP tool's first call);
 * with neither, to see the monitor. */
export interface PermissionPrompt {
  type: 'permission'; id: number; backend: string; monitor: number; label: string; text: string;
  /** Set: a tool's prompt (an MCP tool's first call), not the screen's. */
  tool?: string;
  /** Set: the browser tool asks to open this site. */
  site?: string;
}
/** With append, text is added to the end of the turn's shown text; cut: its head was dropped. */
export interface Reasoning { type: 'reasoning'; turn_id: string; text: string; streaming: boolean; append?: boolean; cut?: boolean }
export interface Usage { type: 'usage'; total_tokens: number; context_window: number }
export interface DelegationItem {
  id: string;
  title: string;
  started_at: number; // epoch ms
  state: 'running' | 'done' | string;
  ended_at?: number;
  status?: string;
  summary?: string;
}
export interface Delegations { type: 'delegations'; items: DelegationItem[] | null }
/** The app-wide menu items' state (the tray's, in the pet's menu). */
export interface Desktop { type: 'desktop'; voices_muted: boolean; start_at_login: boolean; start_at_login_available: boolean }
/** A pet menu's app-wide action: hide this character, mute or unmute
 * every voice, start Yui at login or not, quit Yui. */
export type DesktopActionKind = 'hide' | 'reset_position' | 'mute' | 'unmute' | 'start_at_login_on' | 'start_at_login_off' | 'quit';
/** The global shortcut: open the composer and focus it (not sticky). */
export interface OpenComposer { type: 'open_composer' }
/** A look folder's art (docs/looks.md): one sanitised SVG per emotion as a
 * data: URL; empty `emotions` means the look is a built-in one. */
export interface LookArt { type: 'look_art'; look: string; emotions: Record<string, string> | null; poses?: Record<string, string> | null; vrm?: VRMLook }
/** A VRM look folder (docs/looks.md): paths on the core's view server (the
 * page adds its token), the emotion → expression weights the core resolved,
 * the motions its clips play, its options. */
export interface VRMLook {
  model: string;
  emotions: Record<string, Record<string, number>> | null;
  motions: Record<string, string> | null;
  clips: Record<string, string> | null;
  breathing: 'low' | 'off' | string;
}
/** Where the pointer is (the pet window's pixels) while it is near her;
 * near: false — it went away. Not sticky. */
export interface PointerAt { type: 'pointer'; x: number; y: number; near: boolean }

// ---- the settings window (docs/view-protocol.md, "Settings window") ----

/** A section of the settings form that open_settings and settings_focus name. */
export type SettingsSection = '' | 'character' | 'backend' | 'voice' | 'permissions' | 'session' | 'listen';

export interface PermissionsForm {
  screen: 'ask' | 'allow' | 'deny' | string;
  screenshot_each_turn: boolean;
  /** "Tell the agent which app I'm using" unticked; absent = told. */
  hide_frontmost?: boolean;
  /** "May read pages on this computer and local network" (the browser tool). */
  local_pages?: boolean;
  /** The sites the browser may open without asking ("Always for this site"). */
  browser_sites?: string[];
}

/** One of a character's standings (rate_relation), as the settings window
 * lists it; `target` is "user" or another character's preset id. */
export interface Standing {
  target: string;
  name: string;
  value: number;
  band: string;
  reason?: string;
  at: number;
}

/** One preset as the settings form edits it; the key itself never leaves
 * the core, only whether one is saved. */
export interface PresetForm {
  id: string;
  name: string;
  enabled: boolean;
  look: string;
  chat_api: string;
  chat_base_url: string;
  has_key: boolean;
  chat_id: string;
  model: string;
  reasoning_effort: string;
  card: string;
  context_window: number;
  /** Standard Agents: the agent a new thread is made for, and the thread
   * ("" makes a new one when the character connects). */
  agent_id?: string;
  thread_id?: string;
  permissions: PermissionsForm;
  /** Why the key field is empty: a save moved the preset to another
   * backend and dropped its key (shown until a key is saved). */
  key_note?: string;
  /** The last save took back the screen permissions: the backend changed. */
  screen_note?: string;
  key_note_msg?: Phrase | null;
  screen_note_msg?: Phrase | null;
  /** How she feels about the user and the others, the user first. */
  standings?: Standing[];
  voice: VoiceForm;
  has_voice_key: boolean;
  /** Her VRM look options (settings/lookoptions.ts). */
  look_options: CharacterLookOptions;
  /** The language of her spoken lines ('' the UI language; settings/language.ts). */
  speech_language?: string;
}

/** A character's voice as the form edits it (the speech key never leaves
 * the core: `has_voice_key`, and `voice_key` in a save only when typed). */
export interface VoiceForm {
  engine: 'system' | 'endpoint' | 'off' | string;
  program: string;
  system_voice: string;
  rate: number;
  base_url: string;
  model: string;
  endpoint_voice: string;
  format: 'wav' | 'pcm' | string;
  emotion_text_map: Record<string, string> | null;
  volume: number;
  muted: boolean;
}

/** The sound settings every character shares. */
export interface AudioForm { muted: boolean; device: string }
/** The global shortcut (opens the main character's composer from any app);
 * `note` (from the core) says why it does not work. */
export interface KeyboardForm { shortcut: string; shortcut_off: boolean; note?: string }

/** One option of a select or radio group; an unavailable one is shown
 * greyed out with its note. */
export interface Choice { id: string; label: string; available: boolean; note?: string }

export interface SettingsChoices {
  chat_apis: Choice[] | null;
  reasoning_efforts: Choice[] | null;
  screen_modes: Choice[] | null;
  looks: Choice[] | null;
  voice_engines?: Choice[] | null;
  voice_programs?: Choice[] | null;
  voice_formats?: Choice[] | null;
  system_voices?: Record<string, Choice[] | null> | null;
  vrm_looks?: VRMLookChoice[] | null;
}
/** A VRM look in the settings window: its thumbnail (a PNG data: URL, ''
 * until the settings page rendered one), VRM version and options. */
export interface VRMLookChoice { id: string; thumb: string; version: string; breathing: string; touch_turns: boolean }
export interface LookThumbnail { type: 'look_thumbnail'; look: string; png: string }
/** A character's VRM look options (preset; '' values keep the look's
 * own), or without preset a look folder's own defaults. */
export interface LookOptions { type: 'look_options'; preset?: string; look?: string; breathing: string; touch_turns: string }
/** A character's VRM look options as the form shows them ('' the look's own). */
export interface CharacterLookOptions { breathing: string; touch_turns: string }
export interface Touch { type: 'touch'; kind: 'pat' | 'poke' | string; where: 'head' | 'body' | string }
export interface LookFailed { type: 'look_failed'; look: string; reason: string }

export interface SettingsState {
  type: 'settings_state';
  revision: number;
  path: string;
  active_preset: string;
  presets: PresetForm[] | null;
  audio?: AudioForm;
  keyboard?: KeyboardForm;
  /** How characters talk among themselves (absent from an older core). */
  talk?: TalkState;
  choices: SettingsChoices;
  /** The backend Add character starts on: the main character's (absent
   * from an older core: push with no URL). */
  new_preset?: NewPresetForm;
  /** The saved UI language ('' follows the system; settings/language.ts). */
  language?: string;
  /** The UI language in force: the settings page switches to it in place. */
  ui_language?: string;
}
/** settings.json's talk section: a chain of characters addressing each
 * other ends after max_hops hops, at most per_minute start in a minute (0: the default). */
export interface TalkForm { max_hops: number; per_minute: number }
/** The caps in force (the defaults for 0) and the bounds the core accepts (1 to the limit). */
export interface TalkState { max_hops: number; per_minute: number; hops_limit: number; per_minute_limit: number }
/** What a new character starts with: the main character's backend, and
 * key_from, the saved preset whose key it takes on that backend ('' none). */
export interface NewPresetForm {
  chat_api: string;
  chat_base_url: string;
  model: string;
  reasoning_effort: string;
  context_window: number;
  agent_id: string;
  key_from: string;
}
/** The sound server as the core found it, and its output devices. */
export interface SettingsAudio { type: 'settings_audio'; server: string; note: string; note_msg?: Phrase | null; devices: Choice[] | null }
export interface SettingsFocus { type: 'settings_focus'; seq: number; preset: string; section: SettingsSection | string }
/** problem: what keeps a Standard Agents character from its thread
 * ('thread_deleted', 'agent_unknown'), absent when nothing. */
export interface PresetStatus { id: string; state: string; text: string; msg?: Phrase | null; problem?: string }
export interface SettingsStatus { type: 'settings_status'; presets: PresetStatus[] | null }
/** `suggestion`: a value the refused field probably meant (a URL without a
 * scheme → http://…); the form offers it. */
export interface SettingsResult {
  type: 'settings_result'; request_id: string; ok: boolean; field?: string; error?: string; suggestion?: string;
}
/** One preset's delegation history, newest first (at most 200 items). */
export interface PresetHistory { id: string; items: DelegationItem[] | null }
/** Every preset's delegation history, for the Session section (read-only). */
export interface SettingsHistory { type: 'settings_history'; presets: PresetHistory[] | null }

/** One preset in a save request: PresetForm's editable fields, and `key`
 * only when the user typed a new one (absent keeps the saved key, "" removes
 * it). */
export interface SavePreset {
  id: string;
  name: string;
  enabled: boolean;
  look: string;
  chat_api: string;
  chat_base_url: string;
  key?: string;
  model: string;
  reasoning_effort: string;
  card: string;
  context_window: number;
  agent_id: string;
  thread_id: string;
  permissions: PermissionsForm;
  voice?: VoiceForm;
  voice_key?: string;
  /** A new preset without a typed key: take this saved preset's key (the
   * core copies it only onto the same origin). */
  key_from?: string;
  /** Her spoken lines' language; absent keeps the saved one. */
  speech_language?: string;
}

export interface SaveSettings {
  type: 'save_settings'; request_id: string; active_preset: string; presets: SavePreset[]; audio?: AudioForm; keyboard?: KeyboardForm;
  /** The Listening section, when edited (saved by the same Save); its
   * target is the pet menu's and not read. listen_key: typed, or '' to remove. */
  listen?: ListenForm; listen_key?: string;
  /** The "Speaking first" section, when edited (docs/proactive.md). */
  proactive?: ProactiveForm;
  /** The UI language ('' follows the system), when edited. */
  language?: string;
  /** How characters talk among themselves, when edited (docs/decisions.md, "Among friends"). */
  talk?: TalkForm;
}
export interface OpenSettings { type: 'open_settings'; section?: SettingsSection }
/** What the settings page can ask of a running preset: `reconnect` (a fresh
 * connection attempt now) or `reset` (a new conversation: stop, then the
 * backend starts a new transcript; the delegation history is kept; on a
 * Standard Agents character a new thread, the old one left as it is). */
export type PresetActionKind = 'reconnect' | 'reset';
/** Settings page → core only; a switched-off preset has nothing to act on
 * (the core logs and drops it). */
export interface PresetAction { type: 'preset_action'; preset: string; action: PresetActionKind }

/** Settings page → core: try the backend as the form has it (not saved).
 * key is a key typed in the form; without it the core uses the saved key
 * only for the saved base URL. */
export interface TestConnection {
  type: 'test_connection'; request_id: string; preset: string; chat_api: string; chat_base_url: string; key?: string;
  /** Standard Agents: the agent and thread to check. */
  agent_id?: string; thread_id?: string;
  /** A new character without a typed key: test with this saved preset's
   * key (the core uses it only on the same origin). */
  key_from?: string;
}
/** One agent a Standard Agents runtime lists. */
export interface AgentItem { id: string; label: string }
/** Core → settings page: what the test found. models: GET {base}/models;
 * agents: GET /api/agents (Standard Agents). */
export interface ConnectionTest {
  type: 'connection_test'; request_id: string; preset: string;
  kind: 'ok' | 'refused' | 'unreachable' | 'failed' | 'unsupported' | string; text: string; models: string[] | null;
  /** text as phrases, one a sentence (src/corephrases.ts). */
  msg?: Phrase[] | null;
  /** The failure's cause (app/conncause): refused, no_host, timeout, tls, not_push, not_api (an answer that is not the API's: a web page), key, … */
  cause?: string;
  settings?: boolean;
  agents?: AgentItem[] | null;
}

// ---- the message window (docs/message-window.md) ----

/** One transcript row; `id` grows with every row (updates come by id). */
export interface TranscriptEntry {
  type: 'transcript_entry';
  id: number;
  turn_id: string;
  kind: 'user' | 'reply' | 'tool' | 'delegation' | 'error' | string;
  text: string;
  reasoning: string;
  state: 'streaming' | 'done' | 'running' | 'failed' | string;
  at: number; // epoch ms
  /** The conversation it belongs to (New conversation starts the next). */
  conv: number;
}
/**
 * The newest rows of the current conversation `conv`, oldest first: it
 * replaces what the page shows; `more`: older rows exist (history_more).
 */
export interface Transcript { type: 'transcript'; conv: number; entries: Omit<TranscriptEntry, 'type'>[] | null; more: boolean }

// The history (docs/history.md): older pages, search, export.
/** The rows before `before`, oldest first; `more`: older ones exist. */
export interface HistoryPage { type: 'history_page'; before: number; entries: Omit<TranscriptEntry, 'type'>[] | null; more: boolean }
/** One row found; the matched words sit between U+0002 and U+0003 in `snippet`. */
export interface HistoryHit { entry: Omit<TranscriptEntry, 'type'>; snippet: string }
export interface HistoryResults { type: 'history_results'; query: string; hits: HistoryHit[] | null; error?: string }
export interface HistoryExported { type: 'history_exported'; conv: number; format: string; path?: string; error?: string }
export interface HistorySearch { type: 'history_search'; query: string }
export interface HistoryExport { type: 'history_export'; conv: number; format: 'markdown' | 'json' }

// Listening (docs/voice.md, "Listening"; app/view/listen.go).
/** Her body's pose (docs/desktop-life.md): what the core's life room
 * says she does; the page draws it. */
export type Posture = 'standing' | 'sitting' | 'peeking' | 'walking' | 'dragging' | 'sleeping';
export interface BodyPose { type: 'body'; posture: Posture | string; side: string; facing: string; perched: boolean }
export type ListenMode = 'off' | 'listening' | 'hearing' | 'sending' | 'error';
export type ListenFix = 'listen-endpoint' | 'listen-key' | 'listen-device';
export interface ListenState {
  type: 'listen'; mode: ListenMode | string; error?: string; fix?: ListenFix | string; open: boolean;
  push_to_talk_key: string; target: boolean;
}
export interface ListenForm {
  on: boolean; device: string; sensitivity: number; barge_in: boolean; base_url: string; model: string;
  language: string; target: string; push_to_talk_key: string; has_key: boolean;
}
export interface SettingsListen { type: 'settings_listen'; form: ListenForm; devices: Choice[] | null; keys: Choice[] | null; note: string; note_msg?: Phrase | null }
export interface ListenLevel { type: 'listen_level'; level: number; floor: number; threshold: number }

// What she remembers and her MCP servers (docs/memory.md, docs/mcp.md;
// app/view/mind.go).
export interface MCPServerForm { name: string; command: string; args: string[] | null; url: string; off: boolean }
export interface MCPGrantForm { tool: string; mode: 'allow' | 'deny' | string }
export interface MindPreset {
  id: string; applies: boolean; note?: string; note_msg?: Phrase | null; summary: string; facts: string[] | null;
  servers: MCPServerForm[] | null; grants: MCPGrantForm[] | null;
}
export interface SettingsMind { type: 'settings_mind'; presets: MindPreset[] | null }
export interface MemoryForm { summary: string; facts: string[] }
export interface MCPForm { servers: MCPServerForm[]; grants: MCPGrantForm[] }
/** Settings page → core: saves one character's memory or MCP servers at once. */
export interface MindSave { type: 'mind_save'; request_id: string; preset: string; memory?: MemoryForm; mcp?: MCPForm }
export interface MindResult { type: 'mind_result'; request_id: string; ok: boolean; field?: string; error?: string }

export type CoreMessage =
  | PresetInfo | Plate | Composer | ErrorLine | Notice
  | CharacterState | Mouth | VoiceState | Bubble | Pill | Reasoning | Usage | Delegations | PermissionPrompt | Desktop
  | OpenComposer | LookArt | PointerAt
  | SettingsState | SettingsFocus | SettingsStatus | SettingsResult | SettingsHistory | ConnectionTest | SettingsAudio
  | Transcript | TranscriptEntry | HistoryPage | HistoryResults | HistoryExported
  | ListenState | SettingsListen | ListenLevel
  | Companion | SettingsProactive
  | SettingsMind | MindResult
  | BodyPose;

export type PageMessage =
  | { type: 'send_text'; text: string; images?: string[] }
  | { type: 'stop' }
  | { type: 'reconnect' }
  | { type: 'dismiss'; id: string }
  | { type: 'reset' }
  | { type: 'permission_answer'; id: number; answer: 'once' | 'always' | 'deny' }
  | { type: 'mute'; scope: 'character' | 'all'; muted: boolean }
  | { type: 'quiet'; scope: 'character' | 'all'; quiet: boolean; preset?: string }
  | SaveSettings
  | OpenSettings
  | PresetAction
  | { type: 'desktop_action'; action: DesktopActionKind }
  | TestConnection
  | { type: 'open_messages' }
  | { type: 'history_more'; before: number }
  | HistorySearch
  | HistoryExport
  | { type: 'reset_standing'; preset: string; target: string }
  | { type: 'listen_hold'; held: boolean }
  | { type: 'listen_target' }
  | { type: 'listen_meter'; on: boolean }
  | Touch | LookFailed | LookThumbnail | LookOptions
  | MindSave
  | { type: 'body_drag'; phase: 'start' | 'end'; x: number; y: number }
  | { type: 'body_menu'; action: 'go_to_bed' | 'wake' };

const known = new Set([
  'preset', 'plate', 'composer', 'error_line', 'notice',
  'character', 'mouth', 'voice', 'bubble', 'pill', 'reasoning', 'usage', 'delegations', 'permission', 'desktop',
  'open_composer', 'look_art', 'pointer',
  'settings_state', 'settings_focus', 'settings_status', 'settings_result', 'settings_history', 'connection_test',
  'settings_audio', 'transcript', 'transcript_entry', 'listen', 'settings_listen', 'listen_level',
  'companion', 'settings_proactive',
  'settings_mind', 'mind_result',
  'body',
  'history_page', 'history_results', 'history_exported',
]);

/** Parses one frame from the core; returns null for anything unusable. */
export function parseCoreMessage(data: unknown): CoreMessage | null {
  if (typeof data !== 'string') return null;
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const t = (v as { type?: unknown }).type;
  if (typeof t !== 'string' || !known.has(t)) return null;
  return v as CoreMessage;
}
