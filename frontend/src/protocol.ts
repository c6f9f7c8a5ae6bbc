// The view protocol's messages as the page sees them. docs/view-protocol.md
// is the reference; app/view/protocol.go is the Go side.

export interface PresetInfo { type: 'preset'; id: string; name: string; look: string }
export interface Plate { type: 'plate'; kind: '' | 'connection' | 'thinking'; text: string; action?: string }
export interface Composer { type: 'composer'; locked: boolean }
export interface ErrorLine { type: 'error_line'; text: string; where: 'composer' | 'pill' }
export interface Notice { type: 'notice'; id: string; text: string }
export interface CharacterState { type: 'character'; emotion: string; motion: string; speaking: boolean }
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
export interface Pill { type: 'pill'; tool: PillTool | null; error: string; capture?: boolean }
export interface PermissionPrompt { type: 'permission'; id: number; backend: string; monitor: number; label: string; text: string }
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

// ---- the settings window (docs/view-protocol.md, "Settings window") ----

/** A section of the settings form that open_settings and settings_focus name. */
export type SettingsSection = '' | 'character' | 'backend' | 'permissions' | 'session';

export interface PermissionsForm { screen: 'ask' | 'allow' | 'deny' | string; screenshot_each_turn: boolean }

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
  permissions: PermissionsForm;
}

/** One option of a select or radio group; an unavailable one is shown
 * greyed out with its note. */
export interface Choice { id: string; label: string; available: boolean; note?: string }

export interface SettingsChoices {
  chat_apis: Choice[] | null;
  reasoning_efforts: Choice[] | null;
  screen_modes: Choice[] | null;
  looks: Choice[] | null;
}

export interface SettingsState {
  type: 'settings_state';
  revision: number;
  path: string;
  active_preset: string;
  presets: PresetForm[] | null;
  choices: SettingsChoices;
}
export interface SettingsFocus { type: 'settings_focus'; seq: number; preset: string; section: SettingsSection | string }
export interface PresetStatus { id: string; state: string; text: string }
export interface SettingsStatus { type: 'settings_status'; presets: PresetStatus[] | null }
export interface SettingsResult { type: 'settings_result'; request_id: string; ok: boolean; field?: string; error?: string }
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
  permissions: PermissionsForm;
}

export interface SaveSettings { type: 'save_settings'; request_id: string; active_preset: string; presets: SavePreset[] }
export interface OpenSettings { type: 'open_settings'; section?: SettingsSection }
/** What the settings page can ask of a running preset: `reconnect` (a fresh
 * connection attempt now) or `reset` (a new conversation: stop, then the
 * backend starts a new transcript; the delegation history is kept). */
export type PresetActionKind = 'reconnect' | 'reset';
/** Settings page → core only; a switched-off preset has nothing to act on
 * (the core logs and drops it). */
export interface PresetAction { type: 'preset_action'; preset: string; action: PresetActionKind }

export type CoreMessage =
  | PresetInfo | Plate | Composer | ErrorLine | Notice
  | CharacterState | Bubble | Pill | Reasoning | Usage | Delegations | PermissionPrompt
  | SettingsState | SettingsFocus | SettingsStatus | SettingsResult | SettingsHistory;

export type PageMessage =
  | { type: 'send_text'; text: string; images?: string[] }
  | { type: 'stop' }
  | { type: 'reconnect' }
  | { type: 'dismiss'; id: string }
  | { type: 'reset' }
  | { type: 'permission_answer'; id: number; answer: 'once' | 'always' | 'deny' }
  | SaveSettings
  | OpenSettings
  | PresetAction;

const known = new Set([
  'preset', 'plate', 'composer', 'error_line', 'notice',
  'character', 'bubble', 'pill', 'reasoning', 'usage', 'delegations', 'permission',
  'settings_state', 'settings_focus', 'settings_status', 'settings_result', 'settings_history',
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
