// Test fixtures for the settings page (not part of the page bundle).
import type { PageMessage, PresetForm, SaveSettings, SettingsState } from '../protocol';
import { SettingsView } from './view';
import { FakeScheduler } from '../test-helpers';

export function preset(over: Partial<PresetForm> = {}): PresetForm {
  return {
    id: 'p-0000000a',
    name: 'Yui',
    enabled: true,
    look: 'yui',
    chat_api: 'push',
    chat_base_url: 'http://127.0.0.1:8646',
    has_key: true,
    chat_id: 'yui-0000000a',
    model: '',
    reasoning_effort: '',
    card: '',
    context_window: 0,
    agent_id: '',
    thread_id: '',
    permissions: { screen: 'ask', screenshot_each_turn: false },
    voice: { engine: 'system', program: 'espeak-ng', system_voice: '', rate: 0, base_url: '', model: '', endpoint_voice: '',
      format: 'wav', emotion_text_map: {}, volume: 100, muted: false },
    has_voice_key: false,
    look_options: { breathing: '', touch_turns: '' },
    ...over,
  };
}

export function state(over: Partial<SettingsState> = {}): SettingsState {
  return {
    type: 'settings_state',
    revision: 1,
    path: '/home/u/.config/yui/settings.json',
    active_preset: 'p-0000000a',
    presets: [
      preset(),
      preset({ id: 'p-0000000b', name: 'Mika', enabled: false, has_key: false, chat_id: 'yui-0000000b', chat_api: 'responses',
        chat_base_url: 'https://api.example.com/v1', model: 'gpt-x', context_window: 128000 }),
    ],
    choices: {
      chat_apis: [
        { id: 'push', label: 'Push', available: true },
        { id: 'responses', label: 'Responses', available: true },
        { id: 'chat_completions', label: 'Chat Completions', available: true },
        { id: 'standard_agents', label: 'Standard Agents', available: false, note: 'not in this version yet' },
      ],
      reasoning_efforts: [
        { id: '', label: 'Model default', available: true },
        { id: 'low', label: 'Low', available: true },
        { id: 'high', label: 'High', available: true },
      ],
      screen_modes: [
        { id: 'ask', label: 'Ask each time', available: true },
        { id: 'allow', label: 'Allow', available: true },
        { id: 'deny', label: 'Never', available: true },
      ],
      looks: [
        { id: 'retro', label: 'Retro', available: false, note: 'coming later' },
        { id: 'yui', label: 'Yui', available: true },
      ],
      voice_engines: [
        { id: 'system', label: 'System voice', available: true },
        { id: 'endpoint', label: 'Speech endpoint', available: true },
        { id: 'off', label: 'Off', available: true, note: 'text only' },
      ],
      voice_programs: [
        { id: 'espeak-ng', label: 'espeak-ng', available: true },
        { id: 'flite', label: 'flite', available: false, note: 'not installed' },
      ],
      voice_formats: [
        { id: 'wav', label: 'WAV', available: true },
        { id: 'pcm', label: 'PCM (24 kHz)', available: true },
      ],
      system_voices: { 'espeak-ng': [{ id: 'en-us', label: 'English (America) (en-us)', available: true }] },
    },
    audio: { muted: false, device: '' },
    ...over,
  };
}

export function setup(opts: { confirm?: boolean; ids?: string[] } = {}) {
  document.body.innerHTML = '';
  const sent: PageMessage[] = [];
  const confirms: string[] = [];
  const sched = new FakeScheduler();
  const ids = [...(opts.ids ?? [])];
  let req = 0;
  const view = new SettingsView(
    {
      send: (m) => {
        sent.push(JSON.parse(JSON.stringify(m)));
        return true;
      },
      confirm: (m) => {
        confirms.push(m);
        return opts.confirm ?? true;
      },
    },
    { sched, requestIds: { next: () => `r${++req}` }, ...(ids.length ? { newId: () => ids.shift()! } : {}) },
  );
  view.mount(document.body);
  const saves = () => sent.filter((m): m is SaveSettings => m.type === 'save_settings');
  return { view, sent, saves, confirms, sched };
}

export const q = <T extends Element = HTMLElement>(sel: string) => document.querySelector(sel) as T;

/** The form control whose <label> says `label`. */
export function byLabel<T extends HTMLElement = HTMLInputElement>(label: string): T {
  for (const l of document.querySelectorAll('label')) {
    if (l.textContent === label) {
      const c = document.getElementById(l.htmlFor);
      if (c) return c as T;
    }
  }
  throw new Error(`no control labelled ${label}`);
}

export function type(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

export function choose(input: HTMLSelectElement | HTMLInputElement, value?: string | boolean): void {
  if (input instanceof HTMLSelectElement) input.value = String(value);
  else input.checked = value === undefined ? true : Boolean(value);
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

export function key(el: Element, k: string, mods: KeyboardEventInit = {}): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...mods });
  el.dispatchEvent(e);
  return e;
}

export const sidebarItem = (id: string) => q<HTMLButtonElement>(`.preset-item[data-id="${id}"]`);
export const saveButton = () => q<HTMLButtonElement>('.footer .btn-primary');
