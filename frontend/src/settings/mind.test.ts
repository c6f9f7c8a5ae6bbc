import { describe, expect, it } from 'vitest';
import type { MindSave, SettingsMind } from '../protocol';
import { factsOf, serverOf } from './mind';
import { byLabel, q, setup, sidebarItem, state, type } from './test-fixtures';

const A = 'p-0000000a'; // push in the fixtures
const B = 'p-0000000b'; // responses

function mind(): SettingsMind {
  return {
    type: 'settings_mind',
    presets: [
      { id: A, applies: false, note: "Yui's backend (push) keeps her memory and brings her tools: memory, remember/forget and MCP servers are off for her.",
        summary: '', facts: [], servers: [], grants: [] },
      { id: B, applies: true, summary: 'The user is Ada.', facts: ['likes tea'],
        servers: [{ name: 'files', command: '/usr/bin/mcp-files', args: ['--root', '/tmp'], url: '', off: false }],
        grants: [{ tool: 'mcp_files__read', mode: 'allow' }] },
    ],
  };
}

const section = () => q('#section-mind');
const saves = (sent: unknown[]) => sent.filter((m): m is MindSave => (m as MindSave).type === 'mind_save');

describe('What she remembers', () => {
  it('says why it is off on push', () => {
    const { view } = setup();
    view.apply(state());
    view.apply(mind());
    expect(section().querySelector('.mind-note')!.textContent).toContain('off for her');
    expect(section().querySelector<HTMLElement>('.mind-body')!.hidden).toBe(true);
  });

  it('shows, edits, saves and clears her memory', () => {
    const { view, sent } = setup();
    view.apply(state());
    view.apply(mind());
    sidebarItem(B).click();
    expect(section().querySelector<HTMLElement>('.mind-body')!.hidden).toBe(false);
    const summary = byLabel<HTMLTextAreaElement>('Summary');
    const facts = byLabel<HTMLTextAreaElement>('Facts about you');
    expect(summary.value).toBe('The user is Ada.');
    expect(facts.value).toBe('likes tea');
    type(summary, 'The user is Ada Lovelace.');
    type(facts, 'likes tea\n\n  drinks it green ');
    // A new message while editing keeps the edit.
    view.apply(mind());
    expect(summary.value).toBe('The user is Ada Lovelace.');
    [...section().querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Save memory')!.click();
    const s = saves(sent).at(-1)!;
    expect(s).toMatchObject({ preset: B, memory: { summary: 'The user is Ada Lovelace.', facts: ['likes tea', 'drinks it green'] } });
    expect(s.mcp).toBeUndefined();
    view.apply({ type: 'mind_result', request_id: s.request_id, ok: true });
    expect(section().textContent).toContain('Saved.');
    [...section().querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Clear memory')!.click();
    expect(saves(sent).at(-1)).toMatchObject({ preset: B, memory: { summary: '', facts: [] } });
    const r = saves(sent).at(-1)!;
    view.apply({ type: 'mind_result', request_id: r.request_id, ok: false, field: 'facts', error: 'memory: not saved' });
    expect(section().textContent).toContain('Not saved (facts): memory: not saved');
  });

  it('edits her MCP servers and saved answers', () => {
    const { view, sent } = setup();
    view.apply(state());
    view.apply(mind());
    sidebarItem(B).click();
    expect(q<HTMLInputElement>('.mind-server-target').value).toBe('/usr/bin/mcp-files');
    [...section().querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Add MCP server')!.click();
    const names = section().querySelectorAll<HTMLInputElement>('.mind-server-name');
    type(names[1], 'web');
    type(section().querySelectorAll<HTMLInputElement>('.mind-server-target')[1], 'http://127.0.0.1:8931/mcp');
    [...section().querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Ask again')!.click();
    [...section().querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Save MCP servers')!.click();
    expect(saves(sent).at(-1)).toMatchObject({
      preset: B,
      mcp: {
        servers: [
          { name: 'files', command: '/usr/bin/mcp-files', url: '', args: ['--root', '/tmp'], off: false },
          { name: 'web', command: '', url: 'http://127.0.0.1:8931/mcp', args: [], off: false },
        ],
        grants: [],
      },
    });
  });

  it('reads facts and server rows', () => {
    expect(factsOf(' a \n\n b')).toEqual(['a', 'b']);
    expect(serverOf(' x ', 'HTTPS://h/mcp', 'ignored', true)).toEqual({ name: 'x', command: '', url: 'HTTPS://h/mcp', args: [], off: true });
  });
});
