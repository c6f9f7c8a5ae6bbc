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
    for (const t of ['settings_state', 'settings_focus', 'settings_status', 'settings_result']) {
      expect(parseCoreMessage(JSON.stringify({ type: t }))?.type).toBe(t);
    }
  });
  it('drops what it cannot read', () => {
    for (const bad of ['', 'nope', '[]', '3', 'null', '{"type":"mystery"}', '{"no":"type"}', '{"type":7}']) {
      expect(parseCoreMessage(bad)).toBeNull();
    }
    expect(parseCoreMessage(new ArrayBuffer(3))).toBeNull();
  });
});
