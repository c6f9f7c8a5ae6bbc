// The settings choices the core lists (settings_state.choices, the sound
// and microphone devices) in the page's language. A choice's id is its
// stable code: the page words the ones it knows (screen modes, reasoning
// efforts, voice engines and formats, the default device, the "not
// available" notes) and shows the core's label for the rest (names: an
// API, a program, a look folder, a device).

import { t, type Key } from '../i18n';
import type { Choice, SettingsChoices } from '../protocol';

type List = 'reasoning_efforts' | 'screen_modes' | 'voice_engines' | 'voice_formats' | 'looks';

const LABELS: Record<List, Record<string, Key>> = {
  reasoning_efforts: {
    '': 'choice.effort.default', minimal: 'choice.effort.minimal', low: 'choice.effort.low',
    medium: 'choice.effort.medium', high: 'choice.effort.high',
  },
  screen_modes: { ask: 'choice.screen.ask', allow: 'choice.screen.allow', deny: 'choice.screen.deny' },
  voice_engines: { system: 'choice.engine.system', endpoint: 'choice.engine.endpoint', off: 'choice.engine.off' },
  voice_formats: { pcm: 'choice.format.pcm' },
  // The built-in looks (a look folder's id is its folder's name: shown as the core labels it).
  looks: { yui: 'choice.look.yui', mika: 'choice.look.mika', sora: 'choice.look.sora' },
};

const NOTES: Partial<Record<List, Record<string, Key>>> = {
  screen_modes: { ask: 'choice.screen.ask_note', allow: 'choice.screen.allow_note', deny: 'choice.screen.deny_note' },
  voice_engines: { system: 'choice.engine.system_note', endpoint: 'choice.engine.endpoint_note', off: 'choice.engine.off_note' },
  voice_formats: { pcm: 'choice.format.pcm_note' },
};

/** A choice of list in the page's words (its note only when the core
 * gave one). */
function worded(list: List, c: Choice): Choice {
  const label = LABELS[list][c.id];
  const note = NOTES[list]?.[c.id];
  return { ...c, label: label ? t(label) : c.label, note: c.note && note ? t(note) : c.note };
}

/** The unavailable choices' note in the page's words. */
function unavailable(cs: Choice[] | null | undefined, note: Key): Choice[] {
  return (cs ?? []).map((c) => (c.available || !c.note ? c : { ...c, note: t(note) }));
}

/** The form's choices in the page's language. */
export function wordChoices(ch: SettingsChoices): SettingsChoices {
  const word = (list: List) => (ch[list] ?? []).map((c) => worded(list, c));
  return {
    ...ch,
    chat_apis: unavailable(ch.chat_apis, 'choice.not_in_version'),
    reasoning_efforts: word('reasoning_efforts'),
    screen_modes: word('screen_modes'),
    voice_engines: word('voice_engines'),
    voice_formats: word('voice_formats'),
    voice_programs: unavailable(ch.voice_programs, 'choice.not_installed'),
    looks: word('looks'),
  };
}

/** Output or input devices in the page's language: the default entry (id
 * "") and a saved device that is not connected now. */
export function wordDevices(cs: Choice[], kind: 'output' | 'input'): Choice[] {
  return cs.map((c) => {
    if (c.id === '') return { ...c, label: t(kind === 'output' ? 'settings.form.default_device' : 'choice.device.automatic') };
    if (!c.available && c.note) return { ...c, note: t(kind === 'output' ? 'choice.device.gone_output' : 'choice.device.gone_input') };
    return c;
  });
}
