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

describe('SettingsModel: a new saved state merges into the drafts field by field', () => {
  const A = 'p-0000000a';
  const B = 'p-0000000b';
  /** A state after rev 1 with some presets' fields changed elsewhere. */
  function next(revision: number, change: (s: ReturnType<typeof state>) => void) {
    const s = state({ revision });
    change(s);
    return s;
  }
  const field = (m: SettingsModel, id: string) => m.request('x').presets.find((p) => p.id === id)!;

  it('takes a change made elsewhere in a field the user did not touch (no revert on save)', () => {
    const m = new SettingsModel();
    m.reset(state());
    m.find(B)!.name = 'Mika 2';
    // "Always" answered in Yui's pet window.
    const conflicts = m.rebase(next(2, (s) => { s.presets![0]!.permissions.screen = 'allow'; }));
    expect(conflicts).toEqual([]);
    expect(field(m, A).permissions.screen).toBe('allow');
    expect(field(m, B).name).toBe('Mika 2');
    expect(m.dirty).toBe(true);
    expect(m.presetDirty(A)).toBe(false);
    expect(m.presetDirty(B)).toBe(true);
  });

  it('keeps the user\'s value of a field also changed elsewhere and names it', () => {
    const m = new SettingsModel();
    m.reset(state());
    m.find(A)!.name = 'Yuna';
    m.find(A)!.model = 'm-1';
    const conflicts = m.rebase(next(2, (s) => { s.presets![0]!.name = 'Yuri'; s.presets![0]!.card = 'Calm.'; }));
    expect(conflicts).toEqual([{ preset: A, field: 'name' }]);
    expect(field(m, A)).toMatchObject({ name: 'Yuna', model: 'm-1', card: 'Calm.' });
  });

  it('is clean when the new state makes the draft equal to it, and then follows later states', () => {
    const m = new SettingsModel();
    m.reset(state());
    m.find(B)!.name = 'Mia';
    expect(m.dirty).toBe(true);
    m.rebase(next(2, (s) => { s.presets![1]!.name = 'Mia'; }));
    expect(m.dirty).toBe(false);
    expect(m.presetDirty(B)).toBe(false);
    m.rebase(next(3, (s) => { s.presets![1]!.name = 'Mimi'; }));
    expect(field(m, B).name).toBe('Mimi');
    expect(m.dirty).toBe(false);
  });

  it('keeps a preset added here and one removed here, drops one removed elsewhere unless it was edited', () => {
    const m = new SettingsModel();
    m.reset(state({ presets: [preset(), preset({ id: B, name: 'Mika' }), preset({ id: 'p-0000000c', name: 'Ren' })] }));
    m.add('p-1234abcd', 'yui');
    m.remove('p-0000000c');
    // Elsewhere: Mika removed, Ren renamed, Kai added after Yui.
    const s = state({ revision: 2, presets: [
      preset(), preset({ id: 'p-0000000d', name: 'Kai' }), preset({ id: 'p-0000000c', name: 'Ren 2' }),
    ] });
    expect(m.rebase(s)).toEqual([]);
    expect(m.presets.map((p) => p.id)).toEqual([A, 'p-0000000d', 'p-1234abcd']);
    expect(m.dirty).toBe(true);

    // Mika edited here, then removed elsewhere: she stays as a new draft.
    const m2 = new SettingsModel();
    m2.reset(state());
    m2.find(B)!.model = 'gpt-z';
    expect(m2.rebase(state({ revision: 2, presets: [preset()] }))).toEqual([{ preset: B, field: 'removed' }]);
    expect(m2.presets.map((p) => p.id)).toEqual([A, B]);
    expect(m2.isNew(B)).toBe(true);
    expect(field(m2, B).model).toBe('gpt-z');
  });

  it('follows a main character changed elsewhere unless the user chose one', () => {
    const m = new SettingsModel();
    const two = state({ presets: [preset(), preset({ id: B, name: 'Mika' })] });
    m.reset(two);
    m.find(A)!.name = 'Yuna';
    m.rebase({ ...two, revision: 2, active_preset: B });
    expect(m.active).toBe(B);
    m.active = A;
    expect(m.rebase({ ...two, revision: 3, active_preset: 'p-0000000b' })).toEqual([]);
    expect(m.active).toBe(A);
    m.reset({ ...two, revision: 4 });
    m.active = B;
    expect(m.rebase({ ...two, revision: 5, active_preset: A, presets: [preset(), preset({ id: B, name: 'Mika', model: 'x' })] }))
      .toEqual([]); // the main character did not change elsewhere
    expect(m.active).toBe(B);
  });

  it('keeps a typed key and a removed key across a new state', () => {
    const m = new SettingsModel();
    m.reset(state());
    m.removeKey(A);
    m.typeKey(B, 'sk-b');
    m.rebase(next(2, (s) => { s.presets![1]!.model = 'gpt-2'; }));
    expect(field(m, A).key).toBe('');
    expect(field(m, B)).toMatchObject({ key: 'sk-b', model: 'gpt-2' });
    m.typeKey(A, '');
    expect(field(m, A).key).toBe(''); // still "remove"
  });

  it('rebases on the request it sent for the result of its own save', () => {
    const m = new SettingsModel();
    m.reset(state());
    m.find(A)!.name = '  Yuna ';
    m.add('p-1234abcd', 'yui');
    const sent = m.request('r1');
    m.find(B)!.model = 'gpt-y'; // edited while the save was on its way
    // The core trims the name and gives the new preset a chat_id.
    const s = state({ revision: 2, presets: [
      preset({ name: 'Yuna' }), state().presets![1]!,
      preset({ id: 'p-1234abcd', name: 'New character', chat_api: 'push', chat_base_url: '', has_key: false, chat_id: 'yui-1234abcd' }),
    ] });
    expect(m.rebase(s, sent)).toEqual([]);
    expect(field(m, A).name).toBe('Yuna');
    expect(m.isNew('p-1234abcd')).toBe(false);
    expect(m.presetDirty('p-1234abcd')).toBe(false);
    expect(field(m, B).model).toBe('gpt-y');
    expect(m.presets.map((p) => p.id)).toEqual([A, B, 'p-1234abcd']);
    expect(m.dirty).toBe(true);
  });
});
