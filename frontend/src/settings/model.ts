// The settings page's data: the saved baseline (the last settings_state)
// and the working copy the user edits — every preset, in sidebar order, and
// which one is main. The working copy is a draft across all presets until a
// save; nothing here touches the DOM.
//
// A draft's edits are the fields that differ from the saved settings it was
// edited from. A new settings_state merges field by field (rebase): a field
// the user did not change takes the new saved value, an edited one keeps the
// user's value, so a save never undoes a change made elsewhere (an "Always"
// answered in a pet window) that the user did not touch.

import type { AudioForm, KeyboardForm, NewPresetForm, PermissionsForm, PresetForm, SavePreset, SaveSettings, SettingsState, VoiceForm } from '../protocol';

/** A key edit: null keeps the saved key, "" removes it, anything else is the
 * new key the user typed. */
export type KeyEdit = string | null;

/** One preset's editable fields as the user has them now. */
export interface DraftPreset {
  id: string;
  name: string;
  enabled: boolean;
  look: string;
  chat_api: string;
  chat_base_url: string;
  key: KeyEdit;
  model: string;
  reasoning_effort: string;
  card: string;
  context_window: number;
  agent_id: string;
  thread_id: string;
  permissions: PermissionsForm;
  voice: VoiceDraft;
  /** The speech endpoint's key, an edit like `key`. */
  voice_key: KeyEdit;
  /** A new character on the main one's backend (settings_state.new_preset):
   * the saved preset whose key it takes, while its URL is still that
   * backend's and no key is typed or removed. */
  key_from?: { preset: string; base_url: string };
}

/** Whether a draft takes another preset's key on save (SavePreset.key_from). */
export function takesKey(d: DraftPreset): boolean {
  return !!d.key_from && d.key === null && d.chat_base_url.trim() === d.key_from.base_url.trim();
}

/** A character's voice as edited: the form's fields, the tag table as
 * text ("tag = meaning" per line). */
export interface VoiceDraft {
  engine: string;
  program: string;
  system_voice: string;
  rate: number;
  base_url: string;
  model: string;
  endpoint_voice: string;
  format: string;
  emotion_text_map: string;
  volume: number;
  muted: boolean;
}

/** A new character's voice: the system voice, full volume. */
export const DEFAULT_VOICE: Readonly<VoiceDraft> = {
  engine: 'system', program: 'espeak-ng', system_voice: '', rate: 0, base_url: '', model: '', endpoint_voice: '',
  format: 'wav', emotion_text_map: '', volume: 100, muted: false,
};

/** The tag table as the form shows it: one "tag = meaning" per line,
 * sorted by tag. */
export function tagsText(m: Record<string, string> | null | undefined): string {
  return Object.keys(m ?? {}).sort().map((k) => `${k} = ${m![k]}`).join('\n');
}

/** Reads the tag table's text: each non-blank line is "tag = meaning"
 * (or "tag: meaning"); a line without either is a tag with no meaning,
 * which the core refuses by name. Keys come out sorted. */
export function parseTags(text: string): Record<string, string> {
  const pairs: Array<[string, string]> = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^(.*?)\s*[=:]\s*(.*)$/u.exec(line);
    pairs.push(m && m[1] ? [m[1].trim(), m[2]!.trim()] : [line, '']);
  }
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Record<string, string> = {};
  for (const [k, v] of pairs) out[k] = v;
  return out;
}

function voiceDraft(v: VoiceForm | undefined): VoiceDraft {
  if (!v) return { ...DEFAULT_VOICE };
  return {
    engine: v.engine || 'system', program: v.program || 'espeak-ng', system_voice: v.system_voice ?? '', rate: v.rate ?? 0,
    base_url: v.base_url ?? '', model: v.model ?? '', endpoint_voice: v.endpoint_voice ?? '', format: v.format || 'wav',
    emotion_text_map: tagsText(v.emotion_text_map), volume: v.volume ?? 100, muted: !!v.muted,
  };
}

function voiceForm(v: VoiceDraft): VoiceForm {
  return {
    engine: v.engine, program: v.program, system_voice: v.system_voice, rate: v.rate, base_url: v.base_url, model: v.model,
    endpoint_voice: v.endpoint_voice, format: v.format, emotion_text_map: parseTags(v.emotion_text_map), volume: v.volume,
    muted: v.muted,
  };
}

/** The voice fields by their form name (`voice.engine` …). */
export type VoiceField = `voice.${keyof VoiceDraft}`;

/** The names the form uses for a preset's fields: the save request's JSON
 * paths below `presets[N].`, plus `active_preset` for the main control. */
export type FieldName =
  | 'name' | 'enabled' | 'look' | 'chat_api' | 'chat_base_url' | 'key' | 'model'
  | 'reasoning_effort' | 'card' | 'context_window' | 'agent_id' | 'thread_id'
  | 'permissions.screen' | 'permissions.screenshot_each_turn' | 'permissions.tell_frontmost' | 'permissions.local_pages'
  | VoiceField | 'voice.key'
  | 'audio.muted' | 'audio.device'
  | 'keyboard.shortcut' | 'keyboard.shortcut_off'
  | 'active_preset';

/** A refused field as the core names it, split: `presets[2].permissions.screen`
 * is index 2, field `permissions.screen`; `active_preset` has no index. */
export interface FieldPath { index: number | null; field: string }

export function parseFieldPath(path: string): FieldPath {
  const m = /^presets\[(\d+)\](?:\.(.+))?$/.exec(path);
  if (m) return { index: Number(m[1]), field: m[2] ?? '' };
  return { index: null, field: path };
}

export function draftFrom(p: PresetForm): DraftPreset {
  return {
    id: p.id,
    name: p.name,
    enabled: p.enabled,
    look: p.look,
    chat_api: p.chat_api,
    chat_base_url: p.chat_base_url,
    key: null,
    model: p.model,
    reasoning_effort: p.reasoning_effort,
    card: p.card,
    context_window: p.context_window,
    agent_id: p.agent_id ?? '',
    thread_id: p.thread_id ?? '',
    permissions: { screen: p.permissions?.screen ?? 'ask', screenshot_each_turn: !!p.permissions?.screenshot_each_turn,
      hide_frontmost: !!p.permissions?.hide_frontmost, local_pages: !!p.permissions?.local_pages },
    voice: voiceDraft(p.voice),
    voice_key: null,
  };
}

/** The request form of one draft: `key` only when there is a key edit. */
export function savePreset(d: DraftPreset): SavePreset {
  const out: SavePreset = {
    id: d.id,
    name: d.name,
    enabled: d.enabled,
    look: d.look,
    chat_api: d.chat_api,
    chat_base_url: d.chat_base_url,
    model: d.model,
    reasoning_effort: d.reasoning_effort,
    card: d.card,
    context_window: d.context_window,
    agent_id: d.agent_id,
    thread_id: d.thread_id,
    permissions: { screen: d.permissions.screen, screenshot_each_turn: d.permissions.screenshot_each_turn,
      hide_frontmost: d.permissions.hide_frontmost, local_pages: d.permissions.local_pages },
    voice: voiceForm(d.voice),
  };
  if (d.key !== null) out.key = d.key;
  if (d.voice_key !== null) out.voice_key = d.voice_key;
  if (takesKey(d)) out.key_from = d.key_from!.preset;
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields of a preset a new state merges one by one (the key is an
 * edit of its own: it never comes back from the core). */
export type PresetField = Exclude<FieldName, 'key' | 'voice.key' | 'active_preset' | 'audio.muted' | 'audio.device' | 'keyboard.shortcut' | 'keyboard.shortcut_off'>;

export const VOICE_FIELDS: readonly VoiceField[] = [
  'voice.engine', 'voice.program', 'voice.system_voice', 'voice.rate', 'voice.base_url', 'voice.model',
  'voice.endpoint_voice', 'voice.format', 'voice.emotion_text_map', 'voice.volume', 'voice.muted',
];

export const PRESET_FIELDS: readonly PresetField[] = [
  'name', 'enabled', 'look', 'chat_api', 'chat_base_url', 'model', 'reasoning_effort', 'card', 'context_window',
  'agent_id', 'thread_id', 'permissions.screen', 'permissions.screenshot_each_turn', 'permissions.tell_frontmost', 'permissions.local_pages', ...VOICE_FIELDS,
];

const isVoiceField = (f: string): f is VoiceField => f.startsWith('voice.') && f !== 'voice.key';

/** A field the user edited that changed elsewhere too (their value is
 * kept), an edited preset removed elsewhere (`removed`: kept as a new
 * draft), or the main character chosen both here and elsewhere. */
export interface Conflict { preset: string; field: PresetField | 'removed' | 'active_preset' }

export function getField(d: DraftPreset, f: PresetField): string | number | boolean {
  if (isVoiceField(f)) return d.voice[f.slice(6) as keyof VoiceDraft];
  switch (f) {
    case 'permissions.screen': return d.permissions.screen;
    case 'permissions.screenshot_each_turn': return d.permissions.screenshot_each_turn;
    case 'permissions.tell_frontmost': return !d.permissions.hide_frontmost;
    case 'permissions.local_pages': return !!d.permissions.local_pages;
    default: return d[f];
  }
}

export function setField(d: DraftPreset, f: PresetField, v: string | number | boolean): void {
  if (isVoiceField(f)) {
    const k = f.slice(6) as keyof VoiceDraft;
    const voice = d.voice as unknown as Record<string, string | number | boolean>;
    voice[k] = k === 'rate' || k === 'volume' ? Number(v) : k === 'muted' ? Boolean(v) : String(v);
    return;
  }
  switch (f) {
    case 'permissions.screen': d.permissions.screen = String(v); break;
    case 'permissions.screenshot_each_turn': d.permissions.screenshot_each_turn = Boolean(v); break;
    case 'permissions.tell_frontmost': d.permissions.hide_frontmost = !v; break;
    case 'permissions.local_pages': d.permissions.local_pages = Boolean(v); break;
    case 'enabled': d.enabled = Boolean(v); break;
    case 'context_window': d.context_window = Number(v); break;
    default: d[f] = String(v);
  }
}

/** The draft form of what a save request sent (its key aside). */
function draftFromSave(p: SavePreset): DraftPreset {
  return {
    id: p.id, name: p.name, enabled: p.enabled, look: p.look, chat_api: p.chat_api, chat_base_url: p.chat_base_url, key: null,
    model: p.model, reasoning_effort: p.reasoning_effort, card: p.card, context_window: p.context_window,
    agent_id: p.agent_id ?? '', thread_id: p.thread_id ?? '',
    permissions: { screen: p.permissions?.screen ?? 'ask', screenshot_each_turn: !!p.permissions?.screenshot_each_turn,
      hide_frontmost: !!p.permissions?.hide_frontmost, local_pages: !!p.permissions?.local_pages },
    voice: voiceDraft(p.voice), voice_key: null,
  };
}

/** Whether a settings_state holds exactly what a save request sent (the
 * name as the core trims it): then it can be that save's result. */
export function stateMatches(s: SettingsState, sent: SaveSettings): boolean {
  const saved = s.presets ?? [];
  if (s.active_preset !== sent.active_preset || saved.length !== sent.presets.length) return false;
  if (sent.audio && !same(audioOf(s), sent.audio)) return false;
  if (sent.keyboard && keyboardOf(s).shortcut_off !== sent.keyboard.shortcut_off) return false;
  return saved.every((p, i) => {
    const a = draftFrom(p);
    const b = draftFromSave(sent.presets[i]!);
    if (a.id !== b.id) return false;
    b.name = b.name.trim();
    return PRESET_FIELDS.every((f) => getField(a, f) === getField(b, f));
  });
}

/** The shared sound settings of a state (absent: the defaults). */
export function audioOf(s: SettingsState | null): AudioForm {
  return { muted: !!s?.audio?.muted, device: s?.audio?.device ?? '' };
}

/** The global shortcut of a state (absent: the default), without the note. */
export function keyboardOf(s: SettingsState | null): KeyboardForm {
  return { shortcut: s?.keyboard?.shortcut ?? 'Ctrl+Alt+Y', shortcut_off: !!s?.keyboard?.shortcut_off };
}

export class SettingsModel {
  /** The saved settings (the last settings_state); null until the first. */
  state: SettingsState | null = null;
  /** The working copy, in sidebar order. */
  presets: DraftPreset[] = [];
  /** The working main character. */
  active = '';
  /** The working shared sound settings (mute all, output device). */
  audio: AudioForm = { muted: false, device: '' };
  /** The working global shortcut. */
  keyboard: KeyboardForm = keyboardOf(null);
  /** has_voice_key as a successful save left it, and the presets whose
   * speech key the user removed (as for the chat key). */
  private voiceKeySaved = new Map<string, boolean>();
  private voiceKeyRemoved = new Set<string>();
  /** has_key as a successful save left it, until the next state says. */
  private keySaved = new Map<string, boolean>();
  /** Presets whose key the user removed (an emptied key field then means
   * "remove", not "keep"). */
  private keyRemoved = new Set<string>();
  /** Saved presets the user removed here: they stay removed across a new
   * state until a save or Revert. */
  private removed = new Set<string>();

  get loaded(): boolean {
    return this.state !== null;
  }

  private get saved(): PresetForm[] {
    return this.state?.presets ?? [];
  }

  /** Makes `state` the baseline and the working copy (drafts dropped). */
  reset(state: SettingsState): void {
    this.state = state;
    this.keySaved.clear();
    this.keyRemoved.clear();
    this.voiceKeySaved.clear();
    this.voiceKeyRemoved.clear();
    this.removed.clear();
    this.presets = (state.presets ?? []).map(draftFrom);
    this.active = state.active_preset;
    this.audio = audioOf(state);
    this.keyboard = keyboardOf(state);
  }

  /** Makes `state` the baseline and merges the working copy into it, field
   * by field. The base is what the user edited from: the previous state, or
   * for the result of our own save the request that was `sent`. A field
   * equal to its base takes the new saved value; an edited one stays. An
   * edited field whose saved value changed elsewhere too (not for our own
   * save) is returned as a conflict, and so is an edited preset removed
   * elsewhere (kept here as a new draft). Presets added here stay, presets
   * removed here stay removed, presets added elsewhere appear, untouched
   * presets removed elsewhere go. */
  rebase(state: SettingsState, sent?: SaveSettings): Conflict[] {
    const prev = this.state;
    const conflicts: Conflict[] = [];
    const prevSaved = new Map((prev?.presets ?? []).map((p) => [p.id, draftFrom(p)]));
    const sentById = new Map((sent?.presets ?? []).map((p) => [p.id, draftFromSave(p)]));
    const base = (id: string) => (sent ? sentById.get(id) : prevSaved.get(id));
    const nextSaved = new Map((state.presets ?? []).map((p) => [p.id, p]));

    // Each draft merged with its new saved form, or kept / dropped.
    const merged = new Map<string, DraftPreset>();
    const localOnly = new Set<string>();
    for (const d of this.presets) {
      const b = base(d.id);
      const s = nextSaved.get(d.id);
      if (s && b) {
        const ns = draftFrom(s);
        for (const f of PRESET_FIELDS) {
          if (getField(d, f) === getField(b, f)) setField(d, f, getField(ns, f));
          else if (!sent && getField(b, f) !== getField(ns, f) && getField(d, f) !== getField(ns, f)) {
            conflicts.push({ preset: d.id, field: f });
          }
        }
        merged.set(d.id, d);
      } else if (s) {
        // Added here and saved now (by a save this page did not wait for):
        // the saved form is its base.
        merged.set(d.id, d);
      } else if (!b) {
        localOnly.add(d.id); // added here, not saved yet
        merged.set(d.id, d);
      } else if (d.key !== null || d.voice_key !== null || PRESET_FIELDS.some((f) => getField(d, f) !== getField(b, f))) {
        // Removed elsewhere, but edited here: kept as a new draft.
        if (!sent) conflicts.push({ preset: d.id, field: 'removed' });
        localOnly.add(d.id);
        merged.set(d.id, d);
      }
    }

    // The new saved order, less what was removed here, with what was added
    // elsewhere in its place; what exists only here after its predecessor.
    const out: DraftPreset[] = [];
    const fromElsewhere = new Set<string>();
    for (const s of state.presets ?? []) {
      if (this.removed.has(s.id)) continue;
      const d = merged.get(s.id);
      if (d) out.push(d);
      else {
        out.push(draftFrom(s));
        fromElsewhere.add(s.id);
      }
    }
    let after = -1;
    for (const d of this.presets) {
      if (!merged.has(d.id)) continue;
      if (!localOnly.has(d.id)) {
        after = out.indexOf(d);
        continue;
      }
      let at = after + 1;
      while (at < out.length && (fromElsewhere.has(out[at]!.id) || localOnly.has(out[at]!.id))) at++;
      out.splice(at, 0, d);
      after = at;
    }
    this.presets = out;
    for (const id of this.removed) if (!nextSaved.has(id)) this.removed.delete(id);

    // The main character, by the same rule.
    const baseActive = sent ? sent.active_preset : prev?.active_preset;
    if (this.active === baseActive) this.active = state.active_preset;
    else if (!sent && prev && prev.active_preset !== state.active_preset && this.active !== state.active_preset) {
      conflicts.push({ preset: this.active, field: 'active_preset' });
    }
    if (!this.find(this.active)) {
      this.active = (this.find(state.active_preset) ?? this.presets.find((p) => p.enabled) ?? this.presets[0])?.id ?? '';
    }

    // The shared sound settings, field by field like a preset's.
    const baseAudio = sent ? (sent.audio ?? audioOf(prev)) : audioOf(prev);
    const nextAudio = audioOf(state);
    if (this.audio.muted === baseAudio.muted) this.audio.muted = nextAudio.muted;
    if (this.audio.device === baseAudio.device) this.audio.device = nextAudio.device;
    const baseKeys = sent ? (sent.keyboard ?? keyboardOf(prev)) : keyboardOf(prev);
    const nextKeys = keyboardOf(state);
    if (this.keyboard.shortcut === baseKeys.shortcut) this.keyboard.shortcut = nextKeys.shortcut;
    if (this.keyboard.shortcut_off === baseKeys.shortcut_off) this.keyboard.shortcut_off = nextKeys.shortcut_off;

    this.state = state;
    // has_key as our save left it holds until the state that save made.
    if (sent) {
      this.keySaved.clear();
      this.voiceKeySaved.clear();
    }
    return conflicts;
  }

  find(id: string): DraftPreset | undefined {
    return this.presets.find((p) => p.id === id);
  }

  /** The saved form of a preset; undefined for one added here. */
  savedForm(id: string): PresetForm | undefined {
    return this.saved.find((p) => p.id === id);
  }

  isNew(id: string): boolean {
    return this.savedForm(id) === undefined;
  }

  /** Whether a key is saved for the preset (what the key field says). */
  hasKey(id: string): boolean {
    return this.keySaved.get(id) ?? this.savedForm(id)?.has_key ?? false;
  }

  /** The key field changed: a typed key replaces the saved one; an emptied
   * field keeps it, or removes it when the user had pressed Remove key. */
  typeKey(id: string, value: string): void {
    const d = this.find(id);
    if (!d) return;
    d.key = value !== '' ? value : this.keyRemoved.has(id) ? '' : null;
  }

  /** Whether a speech key is saved for the preset. */
  hasVoiceKey(id: string): boolean {
    return this.voiceKeySaved.get(id) ?? this.savedForm(id)?.has_voice_key ?? false;
  }

  /** The speech key field changed (as typeKey). */
  typeVoiceKey(id: string, value: string): void {
    const d = this.find(id);
    if (!d) return;
    d.voice_key = value !== '' ? value : this.voiceKeyRemoved.has(id) ? '' : null;
  }

  /** Remove speech key: the save deletes it. */
  removeVoiceKey(id: string): void {
    const d = this.find(id);
    if (!d) return;
    this.voiceKeyRemoved.add(id);
    d.voice_key = '';
  }

  /** Remove key: the save deletes the saved key. */
  removeKey(id: string): void {
    const d = this.find(id);
    if (!d) return;
    this.keyRemoved.add(id);
    d.key = '';
  }

  /** Whether the preset differs from its saved form (or is new). */
  presetDirty(id: string): boolean {
    const d = this.find(id);
    const s = this.savedForm(id);
    if (!d) return false;
    if (!s) return true;
    return !same(savePreset(d), savePreset(draftFrom(s)));
  }

  /** Whether anything differs from the saved settings. */
  get dirty(): boolean {
    if (!this.state) return false;
    if (this.active !== this.state.active_preset) return true;
    if (!same(this.audio, audioOf(this.state))) return true;
    if (!same(this.keyboard, keyboardOf(this.state))) return true;
    return !same(this.presets.map(savePreset), this.saved.map((p) => savePreset(draftFrom(p))));
  }

  /** The save_settings request for the working copy. */
  request(requestId: string): SaveSettings {
    return { type: 'save_settings', request_id: requestId, active_preset: this.active, presets: this.presets.map(savePreset),
      audio: { ...this.audio }, keyboard: { ...this.keyboard } };
  }

  /** Adds a new draft preset at the end: the protocol's defaults for one,
   * on the backend the core chose (settings_state.new_preset: the main
   * character's; push with no URL without one). */
  add(id: string, look: string): DraftPreset {
    const b: NewPresetForm = this.state?.new_preset ?? { chat_api: 'push', chat_base_url: '', model: '', reasoning_effort: '',
      context_window: 0, agent_id: '', key_from: '' };
    const d: DraftPreset = {
      id,
      name: 'New character',
      enabled: true,
      look,
      chat_api: b.chat_api,
      chat_base_url: b.chat_base_url,
      key: null,
      model: b.model,
      reasoning_effort: b.reasoning_effort,
      card: '',
      context_window: b.context_window,
      agent_id: b.agent_id,
      thread_id: '',
      permissions: { screen: 'ask', screenshot_each_turn: false, hide_frontmost: false, local_pages: false },
      voice: { ...DEFAULT_VOICE },
      voice_key: null,
    };
    if (b.key_from) d.key_from = { preset: b.key_from, base_url: b.chat_base_url };
    this.presets.push(d);
    return d;
  }

  /** Removes a preset from the working copy and returns the id to show
   * next (its neighbour). Removing the main character makes the first
   * enabled one left (or the first) main, so the draft stays saveable. */
  remove(id: string): string {
    const i = this.presets.findIndex((p) => p.id === id);
    if (i < 0) return this.presets[0]?.id ?? '';
    this.presets.splice(i, 1);
    if (this.savedForm(id)) this.removed.add(id);
    if (this.active === id) this.active = (this.presets.find((p) => p.enabled) ?? this.presets[0])?.id ?? '';
    return this.presets[Math.min(i, this.presets.length - 1)]?.id ?? '';
  }

  /** A save was accepted: the keys it carried are saved now, so the key
   * edits go (the typed key is not kept anywhere). The other fields become
   * the baseline when the core's next settings_state arrives. */
  savedKeys(sent: SaveSettings): void {
    for (const sp of sent.presets) {
      if (sp.voice_key !== undefined) {
        const d = this.find(sp.id);
        if (d && d.voice_key === sp.voice_key) {
          d.voice_key = null;
          this.voiceKeyRemoved.delete(sp.id);
        }
        this.voiceKeySaved.set(sp.id, sp.voice_key !== '');
      }
      if (sp.key === undefined) continue;
      const d = this.find(sp.id);
      if (d && d.key === sp.key) {
        d.key = null;
        this.keyRemoved.delete(sp.id);
      }
      this.keySaved.set(sp.id, sp.key !== '');
    }
  }
}
