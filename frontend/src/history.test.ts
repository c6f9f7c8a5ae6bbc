import { afterEach, describe, expect, it } from 'vitest';
import { SEARCH_DEBOUNCE_MS, snippetNodes } from './history';
import { MessageView } from './message';
import type { PageMessage } from './protocol';
import { FakeScheduler } from './test-helpers';

const row = (id: number, conv: number, text = `line ${id}`) => ({ id, conv, turn_id: `t${id}`, kind: id % 2 ? 'user' : 'reply', text, reasoning: '', state: 'done', at: 1_789_000_000_000 + id });

function setup() {
  const sent: PageMessage[] = [];
  const clock = new FakeScheduler();
  const v = new MessageView({ send: (m) => { sent.push(m); return true; }, close: () => {} }, clock);
  v.mount(document.body);
  v.apply({ type: 'preset', id: 'p', name: 'Yui' } as never);
  return { v, sent, clock };
}

afterEach(() => { document.body.replaceChildren(); });

const ids = () => [...document.querySelectorAll('.msg')].map((li) => Number((li as HTMLElement).dataset.id));

describe('the message window scrolls back through the history', () => {
  it('opens on the first page and asks for the page before its oldest row, once at a time', () => {
    const { v, sent } = setup();
    v.apply({ type: 'transcript', conv: 2, entries: [row(101, 2), row(102, 2)], more: true });
    expect(ids()).toEqual([101, 102]);
    const older = document.querySelector('.msg-older') as HTMLButtonElement;
    expect(older.hidden).toBe(false);
    older.click();
    older.click();
    expect(sent.filter((m) => m.type === 'history_more')).toEqual([{ type: 'history_more', before: 101 }]);
    // The page before: an earlier conversation, placed above, with a divider where each begins.
    v.apply({ type: 'history_page', before: 101, entries: [row(99, 1), row(100, 1)], more: false });
    expect(ids()).toEqual([99, 100, 101, 102]);
    expect(older.hidden).toBe(true);
    const dividers = [...document.querySelectorAll('.msg-conv')].map((d) => (d as HTMLElement).dataset.conv);
    expect(dividers).toEqual(['1', '2']);
    expect(document.querySelector('.msg-conv')!.nextElementSibling!.getAttribute('data-id')).toBe('99');
  });

  it('drops a page that answers a request made before a reset', () => {
    const { v, sent } = setup();
    v.apply({ type: 'transcript', conv: 1, entries: [row(11, 1)], more: true });
    v.loadOlder();
    expect(sent.at(-1)).toEqual({ type: 'history_more', before: 11 });
    v.apply({ type: 'transcript', conv: 2, entries: [], more: true });
    v.apply({ type: 'history_page', before: 11, entries: [row(10, 1)], more: false });
    expect(ids()).toEqual([]);
    expect((document.querySelector('.msg-empty') as HTMLElement).hidden).toBe(false);
    expect((document.querySelector('.msg-reset') as HTMLButtonElement).disabled).toBe(true);
    // A scroll of the emptied list loads nothing by itself…
    document.querySelector('.msg-scroll')!.dispatchEvent(new Event('scroll'));
    expect(sent.filter((m) => m.type === 'history_more').length).toBe(1);
    // …and the earlier conversations are still there to load.
    (document.querySelector('.msg-older') as HTMLButtonElement).click();
    expect(sent.at(-1)).toEqual({ type: 'history_more', before: 0 });
    v.apply({ type: 'history_page', before: 0, entries: [row(10, 1), row(11, 1)], more: false });
    expect(ids()).toEqual([10, 11]);
  });
});

describe('the search', () => {
  it('sends the query after a pause in typing, shows the hits with their matches marked, and Escape closes it', () => {
    const { v, sent, clock } = setup();
    v.apply({ type: 'transcript', conv: 1, entries: [row(1, 1)], more: false });
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'f', ctrlKey: true }));
    expect(v.search.open).toBe(true);
    const input = document.querySelector('.msg-search-input') as HTMLInputElement;
    input.value = 'light';
    input.dispatchEvent(new Event('input'));
    input.value = 'lighthouse';
    input.dispatchEvent(new Event('input'));
    expect(sent.some((m) => m.type === 'history_search')).toBe(false);
    clock.advance(SEARCH_DEBOUNCE_MS);
    expect(sent.filter((m) => m.type === 'history_search')).toEqual([{ type: 'history_search', query: 'lighthouse' }]);
    expect(clock.timers.size).toBe(0);
    // An answer to an older query is not shown.
    v.apply({ type: 'history_results', query: 'light', hits: [] });
    expect(document.querySelector('.msg-results-count')!.textContent).toBe('Searching…');
    v.apply({ type: 'history_results', query: 'lighthouse', hits: [{ entry: row(7, 1, 'the lighthouse'), snippet: 'the \u0002lighthouse\u0003 <b>' }] });
    expect((document.querySelector('.msg-results') as HTMLElement).hidden).toBe(false);
    expect((document.querySelector('.msg-scroll') as HTMLElement).hidden).toBe(true);
    const hit = document.querySelector('.msg-hit')!;
    expect(hit.querySelector('mark')!.textContent).toBe('lighthouse');
    expect(hit.querySelector('b')).toBeNull(); // text, never markup
    expect(hit.querySelector('.msg-hit-text')!.textContent).toBe('the lighthouse <b>');
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', cancelable: true }));
    expect(v.search.open).toBe(false);
    expect((document.querySelector('.msg-scroll') as HTMLElement).hidden).toBe(false);
  });

  it('marks only what the core marked', () => {
    const nodes = snippetNodes('a \u0002b\u0003 c \u0002d');
    expect(nodes.map((n) => (n.nodeName === 'MARK' ? `[${n.textContent}]` : n.textContent)).join('')).toBe('a [b] c [d]');
  });
});

describe('the export', () => {
  it('asks the core to export the current conversation or an earlier one, and says where it went', () => {
    const { v, sent } = setup();
    v.apply({ type: 'transcript', conv: 3, entries: [row(20, 3)], more: true });
    (document.querySelector('.msg-export-btn') as HTMLButtonElement).click();
    (document.querySelector('.msg-export-json') as HTMLButtonElement).click();
    expect(sent.at(-1)).toEqual({ type: 'history_export', conv: 3, format: 'json' });
    expect((document.querySelector('.msg-export-menu') as HTMLElement).hidden).toBe(true);
    v.apply({ type: 'history_exported', conv: 3, format: 'json', path: '/home/u/Downloads/Yui-conversation-3.json' });
    expect(document.querySelector('.msg-note')!.textContent).toBe('Saved to /home/u/Downloads/Yui-conversation-3.json');
    v.loadOlder();
    v.apply({ type: 'history_page', before: 20, entries: [row(5, 2)], more: false });
    (document.querySelector('.msg-conv[data-conv="2"] .msg-conv-export') as HTMLButtonElement).click();
    expect(sent.at(-1)).toEqual({ type: 'history_export', conv: 2, format: 'markdown' });
    v.apply({ type: 'history_exported', conv: 2, format: 'markdown', error: 'could not write' });
    expect(document.querySelector('.msg-note')!.textContent).toBe('Export failed: could not write');
  });
});
