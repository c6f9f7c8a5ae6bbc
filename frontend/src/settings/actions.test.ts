import { describe, expect, it } from 'vitest';
import type { PageMessage } from '../protocol';
import { SettingsView, SAVED_MS } from './view';
import { FakeScheduler } from '../test-helpers';
import { byLabel, choose, preset, q, saveButton, setup, sidebarItem, state, type } from './test-fixtures';

const A = 'p-0000000a'; // Yui: saved, switched on, main
const B = 'p-0000000b'; // Mika: saved, switched off

const line = () => q('.connection-line');
const connStatus = () => q('.connection-line .conn-status');
const connText = () => q('.connection-line .conn-text');
const reconnect = () => q<HTMLButtonElement>('.connection-line .conn-reconnect');
const connNote = () => q('.connection-line .conn-note');
const newConv = () => q<HTMLButtonElement>('#section-session .new-conversation');
const newConvHint = () => q('#section-session .session-actions-hint');
const status = () => q('.footer .status');
const actions = (sent: PageMessage[]) => sent.filter((m) => m.type === 'preset_action');

describe('Backend section: the connection line', () => {
  it('sits under the connection fields and shows the sidebar\'s dot and text, live', () => {
    const { view } = setup();
    view.apply(state());
    const rows = [...q('#section-backend').querySelectorAll<HTMLElement>('.field')].map((r) => r.dataset.field);
    expect(rows.slice(0, 4)).toEqual(['chat_api', 'chat_base_url', 'key', 'connection']);
    expect(line().querySelector('.field-label')!.textContent).toBe('Connection');
    expect(connStatus().hidden).toBe(false);
    expect(connText().textContent).toBe('no status yet');
    view.apply({ type: 'settings_status', presets: [{ id: A, state: 'ready', text: 'connected' }] });
    expect(connStatus().dataset.state).toBe('ready');
    expect(connStatus().querySelector('.dot')!.getAttribute('aria-hidden')).toBe('true');
    expect(connText().textContent).toBe('connected');
    // The same as the sidebar says.
    expect(sidebarItem(A).querySelector('.preset-sub')!.textContent).toBe('connected');
    view.apply({ type: 'settings_status', presets: [{ id: A, state: 'failed', text: 'wrong key' }] });
    expect(connStatus().dataset.state).toBe('failed');
    expect(connText().textContent).toBe('wrong key');
    expect(connText().getAttribute('aria-live')).toBe('polite');
    expect(reconnect().hidden).toBe(false);
    expect(reconnect().disabled).toBe(false);
    expect(connNote().hidden).toBe(true);
    // A focus request for Backend still starts at its first field.
    view.apply({ type: 'settings_focus', seq: 1, preset: A, section: 'backend' });
    expect(document.activeElement).toBe(byLabel('Chat API'));
  });

  it('Reconnect sends preset_action reconnect for the shown character, and nothing else changes', () => {
    const { view, sent } = setup();
    view.apply(state());
    view.apply({ type: 'settings_status', presets: [{ id: A, state: 'failed', text: "can't connect" }] });
    reconnect().click();
    expect(sent).toEqual([{ type: 'preset_action', preset: A, action: 'reconnect' }]);
    expect(view.model.dirty).toBe(false);
    expect(saveButton().disabled).toBe(true);
    expect(status().textContent).toBe('');
    // The core's next status shows on the line.
    view.apply({ type: 'settings_status', presets: [{ id: A, state: 'connecting', text: 'connecting' }] });
    expect(connText().textContent).toBe('connecting');
    expect(connStatus().dataset.state).toBe('connecting');
  });

  it('hides the status and Reconnect for a switched-off character, with a note', () => {
    const { view, sent } = setup();
    view.apply(state());
    view.apply({ type: 'settings_status', presets: [{ id: A, state: 'ready', text: 'connected' }] });
    sidebarItem(B).click();
    expect(line().hidden).toBe(false);
    expect(q('.connection-line .conn-row').hidden).toBe(true);
    expect(connStatus().hidden).toBe(true);
    expect(reconnect().hidden).toBe(true);
    expect(reconnect().disabled).toBe(true);
    expect(connNote().hidden).toBe(false);
    expect(connNote().textContent).toBe('Switch it on and save it to connect.');
    // Switched on but not saved: the core does not run it yet.
    choose(byLabel('Show this character'), true);
    expect(reconnect().hidden).toBe(true);
    expect(connNote().textContent).toBe('Save it to connect.');
    expect(actions(sent)).toEqual([]);
    // Saved on: the line shows its connection.
    const next = state({ revision: 2 });
    next.presets![1]!.enabled = true;
    view.apply(next);
    view.apply({ type: 'settings_status', presets: [{ id: B, state: 'connecting', text: 'connecting' }] });
    expect(reconnect().hidden).toBe(false);
    expect(connText().textContent).toBe('connecting');
    reconnect().click();
    expect(actions(sent)).toEqual([{ type: 'preset_action', preset: B, action: 'reconnect' }]);
  });

  it('keeps Reconnect for a running character switched off only in the draft (the core still runs it)', () => {
    const { view, sent } = setup();
    view.apply(state({ active_preset: B, presets: [preset(), preset({ id: B, name: 'Mika', chat_id: 'yui-0000000b' })] }));
    sidebarItem(A).click();
    choose(byLabel('Show this character'), false);
    expect(reconnect().hidden).toBe(false);
    reconnect().click();
    expect(actions(sent)).toEqual([{ type: 'preset_action', preset: A, action: 'reconnect' }]);
  });

  it('hides them for a new character that is not saved yet', () => {
    const { view, sent } = setup({ ids: ['p-1234abcd'] });
    view.apply(state());
    q<HTMLButtonElement>('.add-preset').click();
    expect(view.selected).toBe('p-1234abcd');
    expect(reconnect().hidden).toBe(true);
    expect(connStatus().hidden).toBe(true);
    expect(connNote().textContent).toBe('Save it to connect.');
    expect(newConv().disabled).toBe(true);
    expect(newConvHint().textContent).toBe('Save it to start a conversation.');
    newConv().click();
    expect(actions(sent)).toEqual([]);
  });

  it('says so when the request cannot be sent', () => {
    document.body.innerHTML = '';
    const view = new SettingsView({ send: () => false }, { sched: new FakeScheduler() });
    view.mount(document.body);
    view.apply(state());
    view.setConnection('closed');
    reconnect().click();
    expect(status().textContent).toBe('Not connected to Yui — could not reconnect Yui.');
    expect(status().dataset.kind).toBe('error');
    view.setConnection('open');
    expect(status().textContent).toBe('');
  });
});

describe('Session section: New conversation', () => {
  it('asks first, then sends preset_action reset and says so in the status line', () => {
    const { view, sent, confirms, sched } = setup();
    view.apply(state({ active_preset: B, presets: [
      preset(), preset({ id: B, name: 'Mika', chat_id: 'yui-0000000b' }),
    ] }));
    sidebarItem(B).click();
    view.apply({ type: 'settings_status', presets: [{ id: B, state: 'ready', text: 'connected' }] });
    const section = q('#section-session');
    // Under the heading, above the history it leaves alone.
    expect(section.querySelector('.section-title')!.nextElementSibling).toBe(q('#section-session .session-actions'));
    expect(newConv().textContent).toBe('New conversation');
    expect(newConv().disabled).toBe(false);
    expect(newConvHint().textContent).toContain('the tasks below stay');
    expect(newConv().getAttribute('aria-describedby')).toBe(newConvHint().id);
    newConv().click();
    expect(confirms).toEqual(['Start a new conversation with Mika? The agent forgets this chat; the task history below stays.']);
    expect(sent).toEqual([{ type: 'preset_action', preset: B, action: 'reset' }]);
    expect(status().textContent).toBe('Started a new conversation with Mika.');
    expect(status().dataset.kind).toBe('ok');
    expect(view.model.dirty).toBe(false);
    sched.advance(SAVED_MS);
    expect(status().textContent).toBe('');
    expect(sched.timers.size).toBe(0);
  });

  it('sends nothing when the question is cancelled', () => {
    const { view, sent, confirms } = setup({ confirm: false });
    view.apply(state());
    newConv().click();
    expect(confirms).toHaveLength(1);
    expect(confirms[0]).toContain('Start a new conversation with Yui?');
    expect(sent).toEqual([]);
    expect(status().textContent).toBe('');
  });

  it('is off for a switched-off character, and while the character is not connected', () => {
    const { view, sent, confirms } = setup();
    view.apply(state());
    sidebarItem(B).click();
    expect(newConv().disabled).toBe(true);
    expect(newConvHint().textContent).toBe('Switch it on and save it to start a conversation.');
    newConv().click();
    sidebarItem(A).click();
    view.apply({ type: 'settings_status', presets: [{ id: A, state: 'reconnecting', text: 'reconnecting' }] });
    expect(newConv().disabled).toBe(true);
    expect(newConvHint().textContent).toBe('Available once it is connected.');
    newConv().click();
    expect(confirms).toEqual([]);
    expect(sent).toEqual([]);
    view.apply({ type: 'settings_status', presets: [{ id: A, state: 'ready', text: 'connected' }] });
    expect(newConv().disabled).toBe(false);
  });

  it('uses the typed name, and is never the focus of a Session focus request', () => {
    const { view, confirms } = setup();
    view.apply(state());
    type(byLabel('Name'), 'Yuna');
    newConv().click();
    expect(confirms[0]).toContain('with Yuna?');
    byLabel('Model').focus();
    view.apply({ type: 'settings_focus', seq: 1, preset: A, section: 'session' });
    expect(document.activeElement).toBe(byLabel('Model'));
  });

  it('survives a rebuild of the form for new choices', () => {
    const { view, sent } = setup();
    view.apply(state());
    const next = state({ revision: 2 });
    next.choices.looks = [{ id: 'yui', label: 'Yui', available: true }];
    view.apply(next);
    expect(document.querySelectorAll('.connection-line')).toHaveLength(1);
    expect(document.querySelectorAll('.new-conversation')).toHaveLength(1);
    reconnect().click();
    newConv().click();
    expect(actions(sent)).toEqual([
      { type: 'preset_action', preset: A, action: 'reconnect' },
      { type: 'preset_action', preset: A, action: 'reset' },
    ]);
  });
});
