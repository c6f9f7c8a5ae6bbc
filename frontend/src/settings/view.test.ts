import { describe, expect, it } from 'vitest';
import type { SettingsState } from '../protocol';
import { changedElsewhere, SAVED_MS, SettingsView } from './view';
import { FakeScheduler } from '../test-helpers';
import { CoreConnection } from '../connection';

class FakeSocket {
  readyState = 0;
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((ev: MessageEvent) => void) | null = null;
  send(): void {}
}
import { byLabel, choose, key, preset, q, saveButton, setup, sidebarItem, state, type } from './test-fixtures';

const note = () => q('.note');
const status = () => q('.footer .status');

describe('SettingsView: rendering', () => {
  it('shows the characters in the sidebar and the main one in the form', () => {
    const { view } = setup();
    expect(q('.empty').hidden).toBe(false);
    view.apply(state());
    expect(q('.empty').hidden).toBe(true);
    const names = [...document.querySelectorAll('.preset-name')].map((e) => e.textContent);
    expect(names).toEqual(['Yui', 'Mika']);
    expect(sidebarItem('p-0000000a').querySelector('.preset-main')).not.toBeNull();
    expect(sidebarItem('p-0000000b').querySelector('.preset-main')).toBeNull();
    expect(sidebarItem('p-0000000b').querySelector('.preset-sub')!.textContent).toBe('off');
    expect(sidebarItem('p-0000000a').getAttribute('aria-current')).toBe('true');
    expect(q('.footer .path').textContent).toBe('/home/u/.config/yui/settings.json');

    expect(byLabel('Name').value).toBe('Yui');
    expect(byLabel<HTMLSelectElement>('Look').value).toBe('yui');
    expect(byLabel('Show this character').checked).toBe(true);
    expect(byLabel('Main character').checked).toBe(true);
    const keyInput = byLabel('API key');
    expect(keyInput.type).toBe('password');
    expect(keyInput.value).toBe('');
    expect(keyInput.placeholder).toBe('saved — type to replace');
    expect([...document.querySelectorAll('button')].some((b) => b.textContent === 'Remove key' && !b.hidden)).toBe(true);
    expect(q('.chat-id').textContent).toContain('yui-0000000a');
    const api = byLabel<HTMLSelectElement>('Chat API');
    const agents = [...api.options].find((o) => o.value === 'standard_agents')!;
    expect(agents.disabled).toBe(true);
    expect(agents.textContent).toContain('not in this version yet');
    expect(byLabel('Ask each time').checked).toBe(true);
    expect(byLabel('Send a screenshot with each message').checked).toBe(false);
    // Sections have ids and headings for focus requests.
    for (const [id, title] of [['character', 'Character'], ['backend', 'Backend'], ['permissions', 'Screen']]) {
      expect(q(`#section-${id} h2`).textContent).toBe(title);
    }
  });

  it('shows another character when it is picked in the sidebar', () => {
    const { view } = setup();
    view.apply(state());
    sidebarItem('p-0000000b').click();
    expect(view.selected).toBe('p-0000000b');
    expect(byLabel('Name').value).toBe('Mika');
    expect(byLabel('Show this character').checked).toBe(false);
    expect(byLabel('Main character').checked).toBe(false);
    expect(byLabel('API key').placeholder).toBe('none');
    expect([...document.querySelectorAll('button')].find((b) => b.textContent === 'Remove key')!.hidden).toBe(true);
    expect(byLabel('Base URL').value).toBe('https://api.example.com/v1');
    expect(byLabel('Context window').value).toBe('128000');
  });

  it('moves between characters with the arrow keys', () => {
    const { view } = setup();
    view.apply(state());
    sidebarItem('p-0000000a').focus();
    key(sidebarItem('p-0000000a'), 'ArrowDown');
    expect(view.selected).toBe('p-0000000b');
    expect(document.activeElement).toBe(sidebarItem('p-0000000b'));
  });

  it('shows each running character\'s connection live', () => {
    const { view } = setup();
    view.apply(state({ presets: [preset(), preset({ id: 'p-0000000c', name: 'Ren' })] }));
    view.apply({ type: 'settings_status', presets: [{ id: 'p-0000000a', state: 'ready', text: 'connected' }] });
    const sub = sidebarItem('p-0000000a').querySelector<HTMLElement>('.preset-sub')!;
    expect(sub.dataset.state).toBe('ready');
    expect(sub.querySelector('.dot')).not.toBeNull();
    expect(sub.textContent).toBe('connected');
    expect(sidebarItem('p-0000000c').querySelector('.preset-sub')!.textContent).toBe('');
    view.apply({ type: 'settings_status', presets: [
      { id: 'p-0000000a', state: 'failed', text: 'wrong key' },
      { id: 'p-0000000c', state: 'connecting', text: 'connecting' },
    ] });
    expect(sidebarItem('p-0000000a').querySelector<HTMLElement>('.preset-sub')!.dataset.state).toBe('failed');
    expect(sidebarItem('p-0000000a').querySelector('.preset-sub')!.textContent).toBe('wrong key');
    expect(sidebarItem('p-0000000c').querySelector('.preset-sub')!.textContent).toBe('connecting');
    view.apply({ type: 'settings_status', presets: null });
    expect(sidebarItem('p-0000000a').querySelector('.preset-sub')!.textContent).toBe('');
  });

  it('uses accessible labels, a live status line and a radio fieldset', () => {
    const { view } = setup();
    view.apply(state());
    for (const i of document.querySelectorAll('input, select, textarea')) {
      expect(document.querySelector(`label[for="${i.id}"]`), `label for ${i.id}`).not.toBeNull();
    }
    expect(status().getAttribute('role')).toBe('status');
    expect(status().getAttribute('aria-live')).toBe('polite');
    const fs = byLabel('Ask each time').closest('fieldset')!;
    expect(fs.querySelector('legend')!.textContent).toBe('Screen access');
    expect(fs.querySelectorAll('input[type=radio]').length).toBe(3);
  });
});

describe('SettingsView: save', () => {
  it('keeps Save disabled until something differs from the saved settings', () => {
    const { view } = setup();
    expect(saveButton().disabled).toBe(true);
    view.apply(state());
    expect(saveButton().disabled).toBe(true);
    expect(q<HTMLButtonElement>('.footer .btn:not(.btn-primary)').disabled).toBe(true); // Revert
    type(byLabel('Name'), 'Yuii');
    expect(saveButton().disabled).toBe(false);
    expect(sidebarItem('p-0000000a').querySelector('.preset-edited')).not.toBeNull();
    type(byLabel('Name'), 'Yui'); // back to the saved value
    expect(saveButton().disabled).toBe(true);
    expect(sidebarItem('p-0000000a').querySelector('.preset-edited')).toBeNull();
    // Typing a key and emptying the field again keeps the saved key: clean.
    type(byLabel('API key'), 'sk-x');
    expect(saveButton().disabled).toBe(false);
    type(byLabel('API key'), '');
    expect(saveButton().disabled).toBe(true);
  });

  it('sends every preset in sidebar order, with the key only when typed', () => {
    const { view, saves } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Yui 2');
    saveButton().click();
    expect(saves()).toHaveLength(1);
    const req = saves()[0]!;
    expect(req.request_id).toBe('r1');
    expect(req.active_preset).toBe('p-0000000a');
    expect(req.presets.map((p) => p.id)).toEqual(['p-0000000a', 'p-0000000b']);
    expect(req.presets[0]).toEqual({
      id: 'p-0000000a', name: 'Yui 2', enabled: true, look: 'yui', chat_api: 'push', chat_base_url: 'http://127.0.0.1:8646',
      model: '', reasoning_effort: '', card: '', context_window: 0, agent_id: '', thread_id: '',
      permissions: { screen: 'ask', screenshot_each_turn: false, hide_frontmost: false, local_pages: false },
      voice: { engine: 'system', program: 'espeak-ng', system_voice: '', rate: 0, base_url: '', model: '', endpoint_voice: '',
        format: 'wav', emotion_text_map: {}, volume: 100, muted: false },
    });
    expect('key' in req.presets[0]!).toBe(false);
    expect('voice_key' in req.presets[0]!).toBe(false);
    expect('key' in req.presets[1]!).toBe(false);
    // has_key and chat_id are the core's, never sent.
    expect('has_key' in req.presets[0]!).toBe(false);
    expect('chat_id' in req.presets[1]!).toBe(false);
  });

  it('offers "Tell the agent which app I\'m using", ticked by default, and saves it unticked as hide_frontmost', () => {
    const { view, saves } = setup();
    view.apply(state());
    const tell = byLabel("Tell the agent which app I'm using");
    expect(tell.checked).toBe(true);
    choose(tell, false);
    saveButton().click();
    expect(saves()[0]!.presets[0]!.permissions).toEqual({ screen: 'ask', screenshot_each_turn: false, hide_frontmost: true, local_pages: false });
    const next = state();
    next.presets![0]!.permissions = { screen: 'ask', screenshot_each_turn: false, hide_frontmost: true };
    view.apply(next);
    expect(byLabel("Tell the agent which app I'm using").checked).toBe(false);
  });

  it('sends a typed key, "" after Remove key, and keeps drafts across presets', () => {
    const { view, saves } = setup();
    view.apply(state());
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Remove key')!.click();
    expect(byLabel('API key').placeholder).toContain('removed');
    sidebarItem('p-0000000b').click();
    type(byLabel('API key'), 'sk-mika');
    choose(byLabel('Show this character'), true);
    choose(byLabel<HTMLSelectElement>('Reasoning effort'), 'high');
    choose(byLabel('Allow'));
    choose(byLabel('Send a screenshot with each message'), true);
    type(byLabel('Context window'), '4096');
    type(byLabel<HTMLTextAreaElement>('Character card'), 'Calm.\nKind.');
    choose(byLabel('Main character'));
    sidebarItem('p-0000000a').click();
    expect(byLabel('API key').placeholder).toContain('removed'); // the draft stayed
    key(document.body, 's', { ctrlKey: true });
    const req = saves()[0]!;
    expect(req.active_preset).toBe('p-0000000b');
    expect(req.presets[0]!.key).toBe('');
    expect(req.presets[1]).toMatchObject({
      key: 'sk-mika', enabled: true, reasoning_effort: 'high', context_window: 4096, card: 'Calm.\nKind.',
      permissions: { screen: 'allow', screenshot_each_turn: true },
    });
  });

  it('adds a new character with a fresh id and leaves a removed one out', () => {
    const { view, saves, confirms } = setup({ ids: ['p-1234abcd'] });
    view.apply(state());
    q<HTMLButtonElement>('.add-preset').click();
    expect(view.selected).toBe('p-1234abcd');
    expect(byLabel('Name').value).toBe('New character');
    expect(document.activeElement).toBe(byLabel('Name'));
    expect(sidebarItem('p-1234abcd').textContent).toContain('not saved');
    expect(q('.chat-id').textContent).toContain('given when saved');
    expect(saveButton().disabled).toBe(false);
    sidebarItem('p-0000000b').click();
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Remove character…')!.click();
    expect(confirms).toHaveLength(1);
    expect(confirms[0]).toContain('Mika');
    expect(confirms[0]).toContain('history stays on disk');
    expect(sidebarItem('p-0000000b')).toBeNull();
    saveButton().click();
    const req = saves()[0]!;
    expect(req.presets.map((p) => p.id)).toEqual(['p-0000000a', 'p-1234abcd']);
    expect(req.presets[1]).toEqual({
      id: 'p-1234abcd', name: 'New character', enabled: true, look: 'yui', chat_api: 'push', chat_base_url: '',
      model: '', reasoning_effort: '', card: '', context_window: 0, agent_id: '', thread_id: '',
      permissions: { screen: 'ask', screenshot_each_turn: false, hide_frontmost: false, local_pages: false },
      // A new character speaks with the system voice at full volume.
      voice: { engine: 'system', program: 'espeak-ng', system_voice: '', rate: 0, base_url: '', model: '', endpoint_voice: '',
        format: 'wav', emotion_text_map: {}, volume: 100, muted: false },
    });
  });

  it('starts a new character on the backend the core names, with the main one\'s key by reference', () => {
    const { view, saves, sent } = setup({ ids: ['p-1234abcd', 'p-5678abcd'] });
    view.apply(state({ new_preset: { chat_api: 'push', chat_base_url: 'http://127.0.0.1:8646', model: '', reasoning_effort: '',
      context_window: 0, agent_id: '', key_from: 'p-0000000a' } }));
    q<HTMLButtonElement>('.add-preset').click();
    expect(byLabel<HTMLSelectElement>('Chat API').value).toBe('push');
    expect(byLabel('Base URL').value).toBe('http://127.0.0.1:8646');
    // The page never has the key: it says whose it takes.
    expect(byLabel('API key').value).toBe('');
    expect(byLabel('API key').placeholder).toBe('Yui’s key — type to replace');
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Test connection')!.click();
    expect(sent.find((m) => m.type === 'test_connection')).toMatchObject({ chat_base_url: 'http://127.0.0.1:8646', key_from: 'p-0000000a' });
    // A second one pointed at another server takes no key.
    q<HTMLButtonElement>('.add-preset').click();
    type(byLabel('Base URL'), 'https://api.example.com/v1');
    expect(byLabel('API key').placeholder).toBe('none');
    saveButton().click();
    const req = saves()[0]!;
    expect(req.presets[2]).toMatchObject({ id: 'p-1234abcd', chat_api: 'push', chat_base_url: 'http://127.0.0.1:8646', key_from: 'p-0000000a' });
    expect(req.presets[2]!.key).toBeUndefined();
    expect(req.presets[3]!.id).toBe('p-5678abcd');
    expect(req.presets[3]!.key_from).toBeUndefined();
    // Saved presets never name one.
    expect(req.presets[0]!.key_from).toBeUndefined();
  });

  it('sends no key_from once the key is typed or removed', () => {
    const { view, saves } = setup({ ids: ['p-1234abcd'] });
    view.apply(state({ new_preset: { chat_api: 'responses', chat_base_url: 'https://api.example.com/v1', model: 'gpt-x',
      reasoning_effort: 'low', context_window: 128000, agent_id: '', key_from: 'p-0000000b' } }));
    q<HTMLButtonElement>('.add-preset').click();
    expect(byLabel('Model').value).toBe('gpt-x');
    expect(byLabel('API key').placeholder).toBe('Mika’s key — type to replace');
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Remove key' && !b.hidden)!.click();
    expect(byLabel('API key').placeholder).toBe('none — removed on save');
    saveButton().click();
    const p = saves()[0]!.presets[2]!;
    expect(p).toMatchObject({ chat_api: 'responses', model: 'gpt-x', reasoning_effort: 'low', context_window: 128000, key: '' });
    expect(p.key_from).toBeUndefined();
  });

  it('makes new ids from the CSPRNG when none are injected', () => {
    const { view, saves } = setup();
    view.apply(state());
    q<HTMLButtonElement>('.add-preset').click();
    q<HTMLButtonElement>('.add-preset').click();
    saveButton().click();
    const ids = saves()[0]!.presets.slice(2).map((p) => p.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^p-[0-9a-f]{8}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it('keeps a character when the removal is not confirmed', () => {
    const { view } = setup({ confirm: false });
    view.apply(state());
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Remove character…')!.click();
    expect(sidebarItem('p-0000000a')).not.toBeNull();
    expect(saveButton().disabled).toBe(true);
  });

  it('shows Saving… while waiting, then Saved that fades, and clears drafts with the next state', () => {
    const { view, saves, sched } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Mika');
    type(byLabel('API key'), 'sk-secret');
    saveButton().click();
    expect(saveButton().textContent).toBe('Saving…');
    expect(saveButton().disabled).toBe(true);
    // A second Ctrl+S while waiting sends nothing.
    key(document.body, 's', { ctrlKey: true });
    expect(saves()).toHaveLength(1);
    view.apply({ type: 'settings_result', request_id: 'other', ok: true });
    expect(saveButton().textContent).toBe('Saving…');
    view.apply({ type: 'settings_result', request_id: 'r1', ok: true });
    expect(status().textContent).toBe('Saved');
    expect(saveButton().textContent).toBe('Save');
    // The typed key is gone from the page at once.
    expect(byLabel('API key').value).toBe('');
    expect(byLabel('API key').placeholder).toBe('saved — type to replace');
    const next = state({ revision: 2 });
    next.presets![0]!.name = 'Mika';
    view.apply(next);
    expect(view.model.dirty).toBe(false);
    expect(saveButton().disabled).toBe(true);
    expect(note().hidden).toBe(true);
    expect(byLabel('Name').value).toBe('Mika');
    sched.advance(SAVED_MS - 1);
    expect(status().textContent).toBe('Saved');
    sched.advance(1);
    expect(status().textContent).toBe('');
  });

  it('treats the state that arrives before the answer as the answer to its own save', () => {
    const { view } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Mika');
    saveButton().click();
    const next = state({ revision: 2 });
    next.presets![0]!.name = 'Mika';
    view.apply(next);
    expect(saveButton().textContent).toBe('Saving…');
    view.apply({ type: 'settings_result', request_id: 'r1', ok: true });
    expect(note().hidden).toBe(true);
    expect(view.model.dirty).toBe(false);
    expect(byLabel('Name').value).toBe('Mika');
  });

  it('treats a state from elsewhere that came while saving as not its own, and the next one as its own', () => {
    const { view } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Mika');
    saveButton().click();
    // Elsewhere, before the core handled the save: Mika's model changed.
    const other = state({ revision: 2 });
    other.presets![1]!.model = 'gpt-other';
    view.apply(other);
    type(byLabel('Model'), 'gpt-y'); // an edit while the save is on its way
    view.apply({ type: 'settings_result', request_id: 'r1', ok: true });
    // The held state is shown as a change elsewhere; the save's state is not here yet.
    sidebarItem('p-0000000b').click();
        expect(byLabel('Model').value).toBe('gpt-other');
    sidebarItem('p-0000000a').click();
    const mine = state({ revision: 3 });
    mine.presets![0]!.name = 'Mika';
    mine.presets![1]!.model = 'gpt-other';
    view.apply(mine);
    expect(note().hidden).toBe(true);
    expect(byLabel('Name').value).toBe('Mika');
    expect(byLabel('Model').value).toBe('gpt-y');
    expect(view.model.dirty).toBe(true);
    // Another save and an answer: the drafts are clean again.
    saveButton().click();
    view.apply({ type: 'settings_result', request_id: 'r2', ok: true });
    const after = state({ revision: 4 });
    after.presets![0]!.name = 'Mika';
    after.presets![0]!.model = 'gpt-y';
    after.presets![1]!.model = 'gpt-other';
    view.apply(after);
    expect(view.model.dirty).toBe(false);
    expect(note().hidden).toBe(true);
  });

  it('keeps edits made while a save was on its way', () => {
    const { view } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Mika');
    saveButton().click();
    type(byLabel('Model'), 'gpt-y');
    view.apply({ type: 'settings_result', request_id: 'r1', ok: true });
    const next = state({ revision: 2 });
    next.presets![0]!.name = 'Mika';
    view.apply(next);
    expect(byLabel('Model').value).toBe('gpt-y');
    expect(view.model.dirty).toBe(true);
    expect(sidebarItem('p-0000000a').querySelector('.preset-edited')).not.toBeNull();
    expect(note().hidden).toBe(true);
  });

  it('does not submit anything on Enter in a one-line field', () => {
    const { view, sent } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Yuna');
    const e = key(byLabel('Name'), 'Enter');
    expect(e.defaultPrevented).toBe(true);
    expect(sent).toEqual([]);
  });

  it('says so when the request cannot be sent, and when the connection drops while saving', () => {
    document.body.innerHTML = '';
    let open = false;
    const view = new SettingsView({ send: () => open }, { sched: new FakeScheduler() });
    view.mount(document.body);
    view.apply(state());
    type(byLabel('Name'), 'Yuna');
    saveButton().click();
    expect(status().textContent).toContain('nothing was saved');
    expect(saveButton().textContent).toBe('Save');
    expect(saveButton().disabled).toBe(false);
    open = true;
    saveButton().click();
    expect(saveButton().textContent).toBe('Saving…');
    view.setConnection('closed');
    expect(saveButton().textContent).toBe('Save');
    expect(status().textContent).toContain('not saved');
  });
});

describe('SettingsView: connection', () => {
  it('clears "Not connected" when the connection opens again', () => {
    const { view } = setup();
    view.setConnection('connecting');
    view.setConnection('open');
    view.apply(state());
    view.setConnection('closed');
    expect(status().textContent).toBe('Not connected to Yui.');
    view.setConnection('connecting');
    expect(status().textContent).toBe('Not connected to Yui.');
    view.setConnection('open');
    expect(status().textContent).toBe('');
    expect(status().dataset.kind).toBeUndefined();
  });

  it('clears it through CoreConnection\'s state callback as boot.ts wires it', () => {
    const { view } = setup();
    const sockets: FakeSocket[] = [];
    const conn = new CoreConnection('ws://x', (m) => view.apply(m), (s) => view.setConnection(s), () => {
      const ws = new FakeSocket();
      sockets.push(ws);
      return ws as unknown as WebSocket;
    });
    conn.open();
    sockets[0]!.onopen?.();
    sockets[0]!.onclose?.();
    expect(status().textContent).toBe('Not connected to Yui.');
    conn.open();
    sockets[1]!.onopen?.();
    expect(status().textContent).toBe('');
  });

  it('keeps a line that is not about being offline when the connection opens', () => {
    const { view } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Yuna');
    saveButton().click();
    view.setConnection('closed');
    expect(status().textContent).toContain('not saved');
    view.setConnection('open');
    expect(status().textContent).toContain('not saved');
  });
});

describe('SettingsView: refused saves', () => {
  function refused(field: string, error: string) {
    const s = setup();
    s.view.apply(state());
    type(byLabel('Name'), 'Yuna');
    saveButton().click();
    s.view.apply({ type: 'settings_result', request_id: 'r1', ok: false, field, error });
    return s;
  }

  it('offers the suggested URL of a refused scheme-less address, and takes it in one click', () => {
    const s = setup();
    s.view.apply(state());
    type(byLabel('Base URL'), 'localhost:11434');
    saveButton().click();
    s.view.apply({ type: 'settings_result', request_id: 'r1', ok: false, field: 'presets[0].chat_base_url',
      error: 'base URL "localhost:11434" has no http:// or https:// — did you mean http://localhost:11434?', suggestion: 'http://localhost:11434' });
    const url = byLabel('Base URL');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(status().textContent).toContain('did you mean http://localhost:11434?');
    const use = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Use http://localhost:11434')!;
    expect(use).toBeTruthy();
    use.click();
    expect(byLabel('Base URL').value).toBe('http://localhost:11434');
    expect(byLabel('Base URL').getAttribute('aria-invalid')).toBeNull();
    saveButton().click();
    expect(s.saves().at(-1)!.presets[0]!.chat_base_url).toBe('http://localhost:11434');
  });

  it('marks the named field of the named preset, focuses it and clears it on edit', () => {
    refused('presets[1].chat_base_url', 'chat_base_url must start with http:// or https://');
    const url = byLabel('Base URL');
    expect(q('.preset-form').dataset.preset).toBe('p-0000000b');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    const err = document.getElementById(url.getAttribute('aria-describedby')!.split(' ').find((id) => id.endsWith('error'))!)!;
    expect(err.getAttribute('role')).toBe('alert');
    expect(err.hidden).toBe(false);
    expect(err.textContent).toBe('chat_base_url must start with http:// or https://');
    expect(document.activeElement).toBe(url);
    expect(status().textContent).toContain('chat_base_url must start with');
    expect(saveButton().textContent).toBe('Save');
    expect(saveButton().disabled).toBe(false); // the drafts stay
    // Another field's edit leaves it; this field's edit clears it.
    type(byLabel('Model'), 'm');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    type(url, 'https://ok.example');
    expect(url.hasAttribute('aria-invalid')).toBe(false);
    expect(err.hidden).toBe(true);
    expect(status().textContent).toBe('');
  });

  it('maps a nested path to the radio group', () => {
    refused('presets[0].permissions.screen', 'screen must be ask, allow or deny');
    const fs = byLabel('Ask each time').closest('fieldset')!;
    expect(fs.getAttribute('aria-invalid')).toBe('true');
    expect(fs.querySelector('[role=alert]')!.textContent).toBe('screen must be ask, allow or deny');
    expect(document.activeElement).toBe(byLabel('Ask each time'));
    choose(byLabel('Never'));
    expect(fs.hasAttribute('aria-invalid')).toBe(false);
  });

  it('maps active_preset to the main-character control', () => {
    refused('active_preset', 'the main character must be shown');
    const main = byLabel('Main character');
    expect(main.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(main);
    expect(q('.preset-form').dataset.preset).toBe('p-0000000a');
  });

  it('keeps the error on its preset while another one is shown', () => {
    refused('presets[0].name', 'name must not be empty');
    sidebarItem('p-0000000b').click();
    expect(byLabel('Name').hasAttribute('aria-invalid')).toBe(false);
    sidebarItem('p-0000000a').click();
    expect(byLabel('Name').getAttribute('aria-invalid')).toBe('true');
  });

  it('shows an error without a field in the status line only', () => {
    refused('', 'could not write the file');
    expect(status().textContent).toBe('Not saved: could not write the file');
    expect(document.querySelector('[aria-invalid]')).toBeNull();
  });
});

describe('SettingsView: state from elsewhere', () => {
  it('shows a new state at once when nothing is edited', () => {
    const { view } = setup();
    view.apply(state());
    const next = state({ revision: 2 });
    next.presets![0]!.permissions = { screen: 'allow', screenshot_each_turn: false };
    view.apply(next);
    expect(byLabel('Allow').checked).toBe(true);
    expect(note().hidden).toBe(true);
  });

  it('keeps unsaved edits and says the settings changed elsewhere', () => {
    const { view } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Yuna');
    const next: SettingsState = state({ revision: 2 });
    next.presets![0]!.permissions = { screen: 'allow', screenshot_each_turn: false };
    next.presets![0]!.name = 'Yuri';
    view.apply(next);
    // The edited field keeps the user's value; the untouched one shows the
    // new saved value (merged field by field, see below).
    expect(byLabel('Name').value).toBe('Yuna');
    expect(byLabel('Allow').checked).toBe(true);
    expect(note().hidden).toBe(false);
    expect(note().textContent).toContain(changedElsewhere());
    expect(note().textContent).toContain('Yuna: name');
    expect(note().textContent).not.toContain('screen');
    q<HTMLButtonElement>('.footer .btn:not(.btn-primary)').click(); // Revert
    expect(byLabel('Name').value).toBe('Yuri');
    expect(byLabel('Allow').checked).toBe(true);
    expect(note().hidden).toBe(true);
    expect(saveButton().disabled).toBe(true);
  });

  it('does not undo a change made elsewhere that the user did not touch', () => {
    const { view, saves } = setup();
    view.apply(state());
    sidebarItem('p-0000000b').click();
    type(byLabel('Name'), 'Mika 2');
    // Meanwhile "Always" is answered in Yui's pet window.
    const next = state({ revision: 2 });
    next.presets![0]!.permissions = { screen: 'allow', screenshot_each_turn: false };
    view.apply(next);
    expect(note().hidden).toBe(true); // nothing the user edited changed
    expect(sidebarItem('p-0000000a').querySelector('.preset-edited')).toBeNull();
    saveButton().click();
    const req = saves()[0]!;
    expect(req.presets[0]!.permissions.screen).toBe('allow');
    expect(req.presets[1]!.name).toBe('Mika 2');
  });

  it('is clean again when a new state makes the draft equal to the saved settings', () => {
    const { view } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Yuna');
    expect(saveButton().disabled).toBe(false);
    const next = state({ revision: 2 });
    next.presets![0]!.name = 'Yuna';
    view.apply(next);
    expect(saveButton().disabled).toBe(true);
    expect(note().hidden).toBe(true);
    expect(sidebarItem('p-0000000a').querySelector('.preset-edited')).toBeNull();
    // The name is no edit any more: the next change elsewhere shows.
    const later = state({ revision: 3 });
    later.presets![0]!.name = 'Yuri';
    view.apply(later);
    expect(byLabel('Name').value).toBe('Yuri');
  });

  it('drops the note when the conflicting edit is set back to the saved value', () => {
    const { view } = setup();
    view.apply(state());
    type(byLabel('Model'), 'gpt-a');
    type(byLabel('Name'), 'Yuna');
    const next = state({ revision: 2 });
    next.presets![0]!.model = 'gpt-b';
    view.apply(next);
    expect(note().hidden).toBe(false);
    expect(note().textContent).toContain('model');
    type(byLabel('Model'), 'gpt-b');
    expect(note().hidden).toBe(true);
    expect(saveButton().disabled).toBe(false); // the name is still edited
  });

  it('keeps an edited character removed elsewhere as a new draft and says so', () => {
    const { view, saves } = setup();
    view.apply(state());
    sidebarItem('p-0000000b').click();
    type(byLabel('Model'), 'gpt-z');
    view.apply(state({ revision: 2, presets: [preset()] }));
    expect(view.selected).toBe('p-0000000b');
    expect(sidebarItem('p-0000000b').textContent).toContain('not saved');
    expect(note().hidden).toBe(false);
    expect(note().textContent).toContain('Mika: removed');
    saveButton().click();
    expect(saves()[0]!.presets.map((p) => p.id)).toEqual(['p-0000000a', 'p-0000000b']);
  });

  it('does not claim a change for a replay of the same revision', () => {
    const { view } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Yuna');
    view.apply(state());
    expect(note().hidden).toBe(true);
    expect(byLabel('Name').value).toBe('Yuna');
  });
});

describe('SettingsView: focus requests', () => {
  it('shows the named preset and focuses the first control of the section', () => {
    const { view } = setup();
    view.apply(state());
    view.apply({ type: 'settings_focus', seq: 3, preset: 'p-0000000b', section: 'backend' });
    expect(view.selected).toBe('p-0000000b');
    expect(document.activeElement).toBe(byLabel('Chat API'));
    view.apply({ type: 'settings_focus', seq: 4, preset: 'p-0000000a', section: 'permissions' });
    expect(view.selected).toBe('p-0000000a');
    expect(document.activeElement).toBe(byLabel('Ask each time'));
  });

  it('puts the cursor in the name when no section is asked for', () => {
    const { view } = setup();
    view.apply(state());
    view.apply({ type: 'settings_focus', seq: 1, preset: 'p-0000000b', section: '' });
    expect(view.selected).toBe('p-0000000b');
    expect(document.activeElement).toBe(byLabel('Name'));
  });

  it('ignores a focus it has already handled (a replay)', () => {
    const { view } = setup();
    view.apply(state());
    view.apply({ type: 'settings_focus', seq: 5, preset: 'p-0000000b', section: '' });
    expect(view.selected).toBe('p-0000000b');
    sidebarItem('p-0000000a').click();
    view.apply({ type: 'settings_focus', seq: 5, preset: 'p-0000000b', section: '' });
    view.apply({ type: 'settings_focus', seq: 4, preset: 'p-0000000b', section: '' });
    expect(view.selected).toBe('p-0000000a');
  });

  it('remembers a focus that arrives before the settings', () => {
    const { view } = setup();
    view.apply({ type: 'settings_focus', seq: 2, preset: 'p-0000000b', section: 'permissions' });
    view.apply(state());
    expect(view.selected).toBe('p-0000000b');
    expect(document.activeElement).toBe(byLabel('Ask each time'));
  });
});

describe('SettingsView: a preset moved to another backend', () => {
  it('says why the key is gone and why screen access went back to asking, until a key is typed', () => {
    const { view } = setup();
    const keyNote = 'The saved key was removed because the base URL now points to another server (https://b.example).';
    const screenNote = 'Screen access went back to “Ask each time”.';
    view.apply(state({ presets: [preset({ has_key: false, key_note: keyNote, screen_note: screenNote })] }));
    const keyInput = byLabel('API key');
    const shown = [...document.querySelectorAll<HTMLElement>('.backend-note')].filter((n) => !n.hidden).map((n) => n.textContent);
    expect(shown).toEqual([keyNote, screenNote]);
    const keyNoteEl = [...document.querySelectorAll<HTMLElement>('.backend-note')].find((n) => n.textContent === keyNote)!;
    expect(keyNoteEl.getAttribute('role')).toBe('status');
    expect(keyInput.getAttribute('aria-describedby')).toContain(keyNoteEl.id);
    expect(keyInput.placeholder).toBe('none');
    type(keyInput, 'new-key');
    expect(keyNoteEl.hidden).toBe(true);
    view.apply(state({ revision: 2, presets: [preset({ has_key: true })] }));
    expect([...document.querySelectorAll<HTMLElement>('.backend-note')].every((n) => n.hidden)).toBe(true);
  });
});
