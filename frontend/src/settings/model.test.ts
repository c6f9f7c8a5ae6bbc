import { describe, expect, it } from 'vitest';
import { parseFieldPath, SettingsModel } from './model';
import { newPresetId, RequestIds } from './ids';
import { preset, state } from './test-fixtures';

describe('parseFieldPath', () => {
  it('splits the core\'s JSON paths into a preset index and a field', () => {
    expect(parseFieldPath('presets[1].chat_base_url')).toEqual({ index: 1, field: 'chat_base_url' });
    expect(parseFieldPath('presets[12].permissions.screen')).toEqual({ index: 12, field: 'permissions.screen' });
    expect(parseFieldPath('presets[0]')).toEqual({ index: 0, field: '' });
    expect(parseFieldPath('active_preset')).toEqual({ index: null, field: 'active_preset' });
    expect(parseFieldPath('')).toEqual({ index: null, field: '' });
  });
});

describe('SettingsModel', () => {
  it('is dirty only while the working copy differs from the saved settings', () => {
    const m = new SettingsModel();
    expect(m.dirty).toBe(false);
    m.reset(state());
    expect(m.dirty).toBe(false);
    m.presets.reverse(); // order is part of the settings
    expect(m.dirty).toBe(true);
    m.presets.reverse();
    m.active = 'p-0000000b';
    expect(m.dirty).toBe(true);
    m.active = 'p-0000000a';
    m.removeKey('p-0000000a');
    expect(m.dirty).toBe(true);
    expect(m.request('x').presets[0]!.key).toBe('');
    // After Remove key, an emptied field still means "remove".
    m.typeKey('p-0000000a', 'k');
    m.typeKey('p-0000000a', '');
    expect(m.request('x').presets[0]!.key).toBe('');
  });

  it('removing the main character makes the first shown one main', () => {
    const m = new SettingsModel();
    m.reset(state({ presets: [preset(), preset({ id: 'p-0000000b', enabled: false }), preset({ id: 'p-0000000c' })] }));
    expect(m.remove('p-0000000a')).toBe('p-0000000b');
    expect(m.active).toBe('p-0000000c');
  });

  it('forgets a saved key edit after an accepted save', () => {
    const m = new SettingsModel();
    m.reset(state());
    m.typeKey('p-0000000b', 'sk-new');
    const req = m.request('r');
    m.savedKeys(req);
    expect(m.find('p-0000000b')!.key).toBeNull();
    expect(m.hasKey('p-0000000b')).toBe(true);
    expect(JSON.stringify(m.presets)).not.toContain('sk-new');
  });
});

describe('ids', () => {
  it('makes preset ids of p- and 8 lowercase hex digits', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const id = newPresetId();
      expect(id).toMatch(/^p-[0-9a-f]{8}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(50);
    expect(newPresetId((b) => b.fill(0xab))).toBe('p-abababab');
    expect(newPresetId((b) => b.fill(0x01))).toBe('p-01010101');
  });

  it('never repeats a request id', () => {
    const r = new RequestIds((b) => b.fill(7));
    expect(r.next()).toBe('save-07070707-1');
    expect(r.next()).toBe('save-07070707-2');
  });
});
