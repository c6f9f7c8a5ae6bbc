import { describe, expect, it } from 'vitest';
import { parseCoreMessage, type PageMessage, type PresetAction } from './protocol';

describe('parseCoreMessage', () => {
  it('reads known messages', () => {
    expect(parseCoreMessage('{"type":"plate","kind":"connection","text":"not connected"}')).toEqual({
      type: 'plate',
      kind: 'connection',
      text: 'not connected',
    });
  });
  it('reads the settings window messages', () => {
    for (const t of ['settings_state', 'settings_focus', 'settings_status', 'settings_result', 'settings_history']) {
      expect(parseCoreMessage(JSON.stringify({ type: t }))?.type).toBe(t);
    }
  });
  it('reads a settings_history with its items as sent', () => {
    const m = {
      type: 'settings_history',
      presets: [{ id: 'p-0000000a', items: [
        { id: 'd-2', title: 'Count sheep', started_at: 1789365854947, state: 'running' },
        { id: 'd-1', title: 'Check logs', started_at: 1789365123000, state: 'done', ended_at: 1789365701000, status: 'ok', summary: 'All fine.' },
      ] }],
    };
    expect(parseCoreMessage(JSON.stringify(m))).toEqual(m);
  });
  it('drops what it cannot read', () => {
    for (const bad of ['', 'nope', '[]', '3', 'null', '{"type":"mystery"}', '{"no":"type"}', '{"type":7}']) {
      expect(parseCoreMessage(bad)).toBeNull();
    }
    expect(parseCoreMessage(new ArrayBuffer(3))).toBeNull();
  });
});

describe('PageMessage', () => {
  it('has the settings page\'s preset_action as the core reads it', () => {
    const reconnect: PresetAction = { type: 'preset_action', preset: 'p-0000000a', action: 'reconnect' };
    const reset = { type: 'preset_action', preset: 'p-0000000b', action: 'reset' } satisfies PageMessage;
    expect(JSON.parse(JSON.stringify(reconnect))).toEqual({ type: 'preset_action', preset: 'p-0000000a', action: 'reconnect' });
    expect(Object.keys(reset).sort()).toEqual(['action', 'preset', 'type']);
    // The pet's own reset names no preset: the core acts on the sender's.
    const pet: PageMessage = { type: 'reset' };
    expect(JSON.stringify(pet)).toBe('{"type":"reset"}');
  });
});
