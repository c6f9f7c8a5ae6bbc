import { describe, expect, it } from 'vitest';
import { parseCoreMessage } from './protocol';

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
