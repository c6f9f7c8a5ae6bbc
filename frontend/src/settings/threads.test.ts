import { describe, expect, it } from 'vitest';
import type { SettingsState } from '../protocol';
import { byLabel, choose, preset, q, saveButton, setup, state } from './test-fixtures';

const testButton = () => [...document.querySelectorAll('button')].find((b) => b.textContent === 'Test connection')!;
const rowOf = (label: string) => byLabel(label).closest<HTMLElement>('.field')!;

/** A state where the main character is a Standard Agents one. */
function agentsState(over: Partial<Parameters<typeof preset>[0]> = {}): SettingsState {
  const s = state();
  s.choices.chat_apis = s.choices.chat_apis!.map((c) => ({ ...c, available: true, note: undefined }));
  s.presets![0] = preset({ chat_api: 'standard_agents', chat_base_url: 'https://agents.example.com', agent_id: 'helper',
    thread_id: 'th-1', ...over });
  return s;
}

describe('SettingsView: Standard Agents', () => {
  it('asks for the agent and thread instead of the model settings', () => {
    const { view } = setup();
    view.apply(state());
    expect(rowOf('Agent').hidden).toBe(true);
    expect(rowOf('Thread').hidden).toBe(true);
    expect(rowOf('Model').hidden).toBe(false);
    view.apply(agentsState());
    expect(rowOf('Agent').hidden).toBe(false);
    expect(byLabel('Agent').value).toBe('helper');
    expect(byLabel('Thread').value).toBe('th-1');
    for (const l of ['Model', 'Reasoning effort', 'Context window', 'Character card']) expect(rowOf(l).hidden).toBe(true);
  });

  it('tests the key, agent and thread, and offers the listed agents', () => {
    const { view, sent } = setup();
    view.apply(agentsState());
    testButton().click();
    expect(sent.find((m) => m.type === 'test_connection')).toEqual({ type: 'test_connection', request_id: 'r1',
      preset: 'p-0000000a', chat_api: 'standard_agents', chat_base_url: 'https://agents.example.com', agent_id: 'helper', thread_id: 'th-1' });
    view.apply({ type: 'connection_test', request_id: 'r1', preset: 'p-0000000a', kind: 'ok', text: 'Connected as yui; agent “Helper” found.',
      models: [], agents: [{ id: 'helper', label: 'Helper' }, { id: 'pkg/writer', label: 'Writer' }] });
    const list = document.getElementById(byLabel('Agent').getAttribute('list')!) as HTMLDataListElement;
    expect([...list.options].map((o) => [o.value, o.label])).toEqual([['helper', 'Helper'], ['pkg/writer', 'Writer']]);
    // "pick one" has something to click: the listed agents, the chosen one shown.
    const pick = byLabel<HTMLSelectElement>('Listed agents');
    expect(pick.hidden).toBe(false);
    expect([...pick.options].map((o) => o.textContent)).toEqual(['Pick one…', 'Helper (helper)', 'Writer (pkg/writer)']);
    expect(pick.value).toBe('helper');
    // A picked agent is saved with the preset.
    pick.value = 'pkg/writer';
    pick.dispatchEvent(new Event('change'));
    expect(byLabel('Agent').value).toBe('pkg/writer');
    expect(q('.test-result').textContent).toBe(''); // the result was about another agent
    saveButton().click();
    const save = sent.find((m) => m.type === 'save_settings');
    expect(save && 'presets' in save && save.presets[0]).toMatchObject({ agent_id: 'pkg/writer', thread_id: 'th-1' });
  });

  it('“New thread” leaves the thread to be made when saved', () => {
    const { view, saves } = setup();
    view.apply(agentsState());
    const btn = [...document.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'New thread')!;
    btn.click();
    expect(byLabel('Thread').value).toBe('');
    expect(btn.disabled).toBe(true);
    expect(rowOf('Thread').textContent).toContain('A new thread is made for the agent when you save; the old one stays');
    saveButton().click();
    expect(saves()[0]!.presets[0]).toMatchObject({ chat_api: 'standard_agents', thread_id: '' });
  });

  it('shows a deleted thread plainly and starts a new one on request', () => {
    const { view, sent } = setup();
    view.apply(agentsState());
    const problem = q('.thread-problem');
    expect(problem.hidden).toBe(true);
    view.apply({ type: 'settings_status', presets: [{ id: 'p-0000000a', state: 'failed', text: 'thread deleted', problem: 'thread_deleted' }] });
    expect(problem.hidden).toBe(false);
    expect(problem.textContent).toContain('This thread was deleted on the runtime');
    const start = q<HTMLButtonElement>('.start-new-thread');
    expect(start.hidden).toBe(false);
    start.click();
    expect(sent.filter((m) => m.type === 'preset_action')).toEqual([{ type: 'preset_action', preset: 'p-0000000a', action: 'reset' }]);
    // A new thread saved: the problem is about the old one.
    view.apply(agentsState({ thread_id: 'th-2' }));
    view.apply({ type: 'settings_status', presets: [{ id: 'p-0000000a', state: 'ready', text: 'connected' }] });
    expect(problem.hidden).toBe(true);
  });

  it('switching a character to Standard Agents shows the agent rows at once', () => {
    const { view } = setup();
    const s = state();
    s.choices.chat_apis = s.choices.chat_apis!.map((c) => ({ ...c, available: true, note: undefined }));
    view.apply(s);
    choose(byLabel<HTMLSelectElement>('Chat API'), 'standard_agents');
    expect(rowOf('Agent').hidden).toBe(false);
    expect(rowOf('Model').hidden).toBe(true);
    expect(byLabel('Thread').placeholder).toBe('a new thread');
  });
});
