// The settings page's data: the saved baseline (the last settings_state)
// and the working copy the user edits — every preset, in sidebar order, and
// which one is main. The working copy is a draft across all presets until a
// save; nothing here touches the DOM.

import type { PermissionsForm, PresetForm, SavePreset, SaveSettings, SettingsState } from '../protocol';

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
  permissions: PermissionsForm;
}

/** The names the form uses for a preset's fields: the save request's JSON
 * paths below `presets[N].`, plus `active_preset` for the main control. */
export type FieldName =
  | 'name' | 'enabled' | 'look' | 'chat_api' | 'chat_base_url' | 'key' | 'model'
  | 'reasoning_effort' | 'card' | 'context_window'
  | 'permissions.screen' | 'permissions.screenshot_each_turn'
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
    permissions: { screen: p.permissions?.screen ?? 'ask', screenshot_each_turn: !!p.permissions?.screenshot_each_turn },
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
    permissions: { screen: d.permissions.screen, screenshot_each_turn: d.permissions.screenshot_each_turn },
  };
  if (d.key !== null) out.key = d.key;
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class SettingsModel {
  /** The saved settings (the last settings_state); null until the first. */
  state: SettingsState | null = null;
  /** The working copy, in sidebar order. */
  presets: DraftPreset[] = [];
  /** The working main character. */
  active = '';
  /** has_key as a successful save left it, until the next state says. */
  private keySaved = new Map<string, boolean>();
  /** Presets whose key the user removed (an emptied key field then means
   * "remove", not "keep"). */
  private keyRemoved = new Set<string>();

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
    this.presets = (state.presets ?? []).map(draftFrom);
    this.active = state.active_preset;
  }

  /** Makes `state` the baseline and keeps the working copy. */
  rebase(state: SettingsState): void {
    this.state = state;
    this.keySaved.clear();
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
    return !same(this.presets.map(savePreset), this.saved.map((p) => savePreset(draftFrom(p))));
  }

  /** The save_settings request for the working copy. */
  request(requestId: string): SaveSettings {
    return { type: 'save_settings', request_id: requestId, active_preset: this.active, presets: this.presets.map(savePreset) };
  }

  /** Adds a new draft preset at the end (the protocol's defaults for one). */
  add(id: string, look: string): DraftPreset {
    const d: DraftPreset = {
      id,
      name: 'New character',
      enabled: true,
      look,
      chat_api: 'push',
      chat_base_url: '',
      key: null,
      model: '',
      reasoning_effort: '',
      card: '',
      context_window: 0,
      permissions: { screen: 'ask', screenshot_each_turn: false },
    };
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
    if (this.active === id) this.active = (this.presets.find((p) => p.enabled) ?? this.presets[0])?.id ?? '';
    return this.presets[Math.min(i, this.presets.length - 1)]?.id ?? '';
  }

  /** A save was accepted: the keys it carried are saved now, so the key
   * edits go (the typed key is not kept anywhere). The other fields become
   * the baseline when the core's next settings_state arrives. */
  savedKeys(sent: SaveSettings): void {
    for (const sp of sent.presets) {
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
