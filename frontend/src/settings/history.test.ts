import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DelegationItem, SettingsHistory } from '../protocol';
import { emptyHistory, ranFor, SessionHistory, shortDateTime, stateText } from './history';
import { byLabel, preset, q, saveButton, setup, sidebarItem, state, type } from './test-fixtures';

const A = 'p-0000000a';
const B = 'p-0000000b';
const at = (month: number, day: number, h: number, m: number) => new Date(2026, month, day, h, m).getTime();
const MIN = 60_000;

function item(over: Partial<DelegationItem> & { id: string }): DelegationItem {
  return { title: `Task ${over.id}`, started_at: at(7, 29, 14, 5), state: 'done', ...over };
}

function history(presets: Record<string, DelegationItem[] | null>): SettingsHistory {
  return { type: 'settings_history', presets: Object.entries(presets).map(([id, items]) => ({ id, items })) };
}

const running = item({ id: 'd-3', title: 'Count the sheep', started_at: at(7, 30, 9, 41), state: 'running' });
const done = item({ id: 'd-2', title: 'Check log sizes', started_at: at(7, 29, 14, 5), ended_at: at(7, 29, 14, 5) + 3 * MIN,
  status: 'ok', summary: 'All three logs are under 10 MB.\nThe biggest is app.log.' });
const failed = item({ id: 'd-1', title: 'Fetch the weather', started_at: at(7, 28, 8, 0), ended_at: at(7, 28, 8, 0) + 90 * MIN,
  status: 'error', summary: 'The service did not answer.' });
const unknown = item({ id: 'd-0', title: 'Lost one', started_at: at(7, 27, 23, 59), ended_at: at(7, 28, 0, 30), status: 'unknown' });

const section = () => q('#section-session');
const rows = () => [...document.querySelectorAll<HTMLElement>('#section-session .history-item')];
const row = (id: string) => q(`#section-session .history-item[data-id="${id}"]`);
const toggle = (id: string) => row(id).querySelector<HTMLButtonElement>('.history-toggle');
const summaryOf = (id: string) => document.getElementById(toggle(id)!.getAttribute('aria-controls')!)!;
const emptyLine = () => q('#section-session .history-empty');
const list = () => q<HTMLUListElement>('#section-session ul.history');

function loaded() {
  const s = setup();
  s.view.apply(state());
  return s;
}

afterEach(() => vi.restoreAllMocks());

describe('Session section: formatting', () => {
  it('says the state in words', () => {
    expect(stateText(running)).toBe('running');
    expect(stateText(done)).toBe('completed');
    expect(stateText(failed)).toBe('failed');
    expect(stateText(unknown)).toBe('unknown');
    expect(stateText(item({ id: 'x' }))).toBe('done');
    expect(stateText(item({ id: 'x', status: 'cancelled' }))).toBe('cancelled');
  });

  it('says how long a task ran', () => {
    expect(ranFor(4_000)).toBe('ran 4 s');
    expect(ranFor(3 * MIN)).toBe('ran 3 min');
    expect(ranFor(90 * MIN)).toBe('ran 1 h 30 min');
    expect(ranFor(120 * MIN)).toBe('ran 2 h');
    expect(ranFor(27 * 60 * MIN)).toBe('ran 1 d 3 h');
    expect(ranFor(-5)).toBe('ran 0 s');
  });

  it('writes a short local date-time, with the year only when it is not this one', () => {
    const now = at(8, 1, 12, 0);
    expect(shortDateTime(at(10, 29, 14, 5), now, 'en-US')).toBe('Nov 29, 14:05');
    expect(shortDateTime(new Date(2024, 10, 29, 4, 5).getTime(), now, 'en-US')).toBe('Nov 29, 2024, 04:05');
  });
});

describe('Session section: the list', () => {
  it('is the last section, after Screen and What she remembers, with its heading', () => {
    loaded();
    const ids = [...document.querySelectorAll<HTMLElement>('.preset-form > .section')].map((s) => s.dataset.section);
    expect(ids).toEqual(['character', 'backend', 'voice', 'permissions', 'mind', 'session']);
    expect(q('#section-session h2').textContent).toBe('Session');
    expect(section().getAttribute('aria-labelledby')).toBe(q('#section-session h2').id);
  });

  it('lists the selected character\'s items newest first, as the message has them', () => {
    const { view, sched } = loaded();
    view.apply(history({ [A]: [running, done, failed, unknown] }));
    expect(rows().map((r) => r.dataset.id)).toEqual(['d-3', 'd-2', 'd-1', 'd-0']);
    expect(list().tagName).toBe('UL');
    expect(list().getAttribute('aria-label')).toBe('Delegated tasks of Yui');
    expect(emptyLine().hidden).toBe(true);

    const r3 = row('d-3');
    expect(r3.querySelector('.history-title')!.textContent).toBe('Count the sheep');
    expect(r3.querySelector<HTMLElement>('.history-state')!.dataset.state).toBe('running');
    expect(r3.querySelector('.history-state')!.textContent).toBe('running');
    expect(r3.querySelector('time')!.textContent).toBe(shortDateTime(running.started_at, sched.now()));
    expect(r3.querySelector('time')!.getAttribute('datetime')).toBe(new Date(running.started_at).toISOString());
    expect(r3.querySelector('.history-ran')).toBeNull();
    expect(r3.querySelector('button')).toBeNull(); // running: no summary button

    const r2 = row('d-2');
    expect(r2.querySelector('.history-state')!.textContent).toBe('completed');
    expect(r2.querySelector('.history-meta')!.textContent).toBe(`${shortDateTime(done.started_at, sched.now())} · ran 3 min`);
    expect(row('d-1').querySelector('.history-state')!.textContent).toBe('failed');
    expect(row('d-1').querySelector('.history-ran')!.textContent).toBe('ran 1 h 30 min');
    expect(row('d-0').querySelector('.history-state')!.textContent).toBe('unknown');
    expect(row('d-0').querySelector('button')).toBeNull(); // no summary, no button
  });

  it('opens a summary under its row with the disclosure button, several at once', () => {
    const { view } = loaded();
    view.apply(history({ [A]: [running, done, failed] }));
    const b = toggle('d-2')!;
    expect(b.tagName).toBe('BUTTON');
    expect(b.type).toBe('button');
    expect(b.getAttribute('aria-expanded')).toBe('false');
    const sum = summaryOf('d-2');
    expect(sum.hidden).toBe(true);
    expect(row('d-2').contains(sum)).toBe(true);
    // Named with its row, so a list of "Summary" buttons can be told apart.
    const names = b.getAttribute('aria-labelledby')!.split(' ').map((id) => document.getElementById(id)!.textContent);
    expect(names).toEqual(['Summary', 'Check log sizes']);

    b.click();
    expect(b.getAttribute('aria-expanded')).toBe('true');
    expect(sum.hidden).toBe(false);
    expect(sum.textContent).toBe(done.summary);
    // Under its row: after the row's head, before the next item.
    expect(sum.previousElementSibling).toBe(row('d-2').querySelector('.history-row'));
    toggle('d-1')!.click();
    expect(summaryOf('d-1').hidden).toBe(false);
    expect(summaryOf('d-2').hidden).toBe(false);
    b.click();
    expect(b.getAttribute('aria-expanded')).toBe('false');
    expect(sum.hidden).toBe(true);
    expect(summaryOf('d-1').hidden).toBe(false);
  });

  it('keeps open summaries, the rows that did not change and the focus across a new message', () => {
    const { view } = loaded();
    view.apply(history({ [A]: [running, done, failed] }));
    toggle('d-2')!.click();
    toggle('d-2')!.focus();
    const keptRow = row('d-2');
    const finished = { ...running, state: 'done', ended_at: running.started_at + 2 * MIN, status: 'ok', summary: 'Forty-two sheep.' };
    const newest = item({ id: 'd-4', title: 'Newest', state: 'running', started_at: at(7, 30, 10, 0) });
    const oldRunning = row('d-3');
    const moved = new MutationObserver(() => {});
    moved.observe(list(), { childList: true });
    view.apply(history({ [A]: [newest, finished, done, failed] }));
    // Only the changed row left the list; the others were not moved.
    const removed = moved.takeRecords().flatMap((m) => [...m.removedNodes]);
    moved.disconnect();
    expect(removed).toEqual([oldRunning]);
    expect(rows().map((r) => r.dataset.id)).toEqual(['d-4', 'd-3', 'd-2', 'd-1']);
    expect(row('d-2')).toBe(keptRow); // not rebuilt
    expect(document.activeElement).toBe(toggle('d-2'));
    expect(toggle('d-2')!.getAttribute('aria-expanded')).toBe('true');
    expect(summaryOf('d-2').hidden).toBe(false);
    // The running item is done now, with a summary button, closed.
    expect(row('d-3').dataset.state).toBe('done');
    expect(row('d-3').querySelector('.history-state')!.textContent).toBe('completed');
    expect(toggle('d-3')!.getAttribute('aria-expanded')).toBe('false');
    // An open summary whose item changed stays open in its new row.
    toggle('d-3')!.click();
    view.apply(history({ [A]: [newest, { ...finished, summary: 'Forty-three sheep.' }, done, failed] }));
    expect(toggle('d-3')!.getAttribute('aria-expanded')).toBe('true');
    expect(summaryOf('d-3').textContent).toBe('Forty-three sheep.');
  });

  it('gives the focus back to a focused button whose row was rebuilt', () => {
    const { view } = loaded();
    view.apply(history({ [A]: [done] }));
    toggle('d-2')!.focus();
    view.apply(history({ [A]: [{ ...done, summary: 'Changed.' }] }));
    expect(document.activeElement).toBe(toggle('d-2'));
  });

  it('does not scroll the pane or move the focus when a message arrives', () => {
    const { view } = loaded();
    const pane = q('.pane');
    pane.scrollTop = 120;
    const name = byLabel('Name');
    name.focus();
    const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    view.apply(history({ [A]: [running, done] }));
    view.apply(history({ [A]: [item({ id: 'd-9' }), running, done] }));
    expect(document.activeElement).toBe(name);
    expect(pane.scrollTop).toBe(120);
    expect(spy).not.toHaveBeenCalled();
  });

  it('shows the history of the character picked in the sidebar, and names it', () => {
    const { view } = loaded();
    view.apply(history({ [A]: [running, done], [B]: [failed] }));
    toggle('d-2')!.click();
    sidebarItem(B).click();
    expect(rows().map((r) => r.dataset.id)).toEqual(['d-1']);
    expect(list().getAttribute('aria-label')).toBe('Delegated tasks of Mika');
    sidebarItem(A).click();
    expect(rows().map((r) => r.dataset.id)).toEqual(['d-3', 'd-2']);
    expect(toggle('d-2')!.getAttribute('aria-expanded')).toBe('true'); // still open
    // A rename shows in the list's name as it is typed.
    type(byLabel('Name'), 'Yuna');
    expect(list().getAttribute('aria-label')).toBe('Delegated tasks of Yuna');
  });

  it('says there are no tasks: before any message, for an empty list, a preset not in the message, a new character', () => {
    const { view } = setup({ ids: ['p-1234abcd'] });
    view.apply(state({ presets: [preset(), preset({ id: B, name: 'Mika' }), preset({ id: 'p-0000000c', name: 'Ren' })] }));
    expect(emptyLine().hidden).toBe(false);
    expect(emptyLine().textContent).toBe(emptyHistory());
    expect(list().hidden).toBe(true);
    view.apply(history({ [A]: [], [B]: null }));
    expect(rows()).toHaveLength(0);
    expect(emptyLine().hidden).toBe(false);
    sidebarItem(B).click();
    expect(emptyLine().hidden).toBe(false);
    sidebarItem('p-0000000c').click(); // not in the message
    expect(emptyLine().hidden).toBe(false);
    view.apply(history({ [A]: [done], 'p-1234abcd': [done] }));
    q<HTMLButtonElement>('.add-preset').click();
    expect(view.selected).toBe('p-1234abcd');
    expect(rows()).toHaveLength(0);
    expect(emptyLine().hidden).toBe(false);
    sidebarItem(A).click();
    expect(rows()).toHaveLength(1);
    expect(emptyLine().hidden).toBe(true);
    view.apply({ type: 'settings_history', presets: null });
    expect(emptyLine().hidden).toBe(false);
  });

  it('shows markup in a title or summary as text', () => {
    const { view } = loaded();
    const evil = '<img src=x onerror=alert(1)>';
    view.apply(history({ [A]: [item({ id: 'd-x', title: evil, ended_at: at(7, 29, 14, 6), status: 'ok', summary: `${evil}\n<b>bold</b>` })] }));
    toggle('d-x')!.click();
    expect(row('d-x').querySelector('.history-title')!.textContent).toBe(evil);
    expect(summaryOf('d-x').textContent).toBe(`${evil}\n<b>bold</b>`);
    expect(section().querySelector('img')).toBeNull();
    expect(section().querySelector('b')).toBeNull();
  });

  it('renders 200 items once per message and not again on each keystroke, with no timers', () => {
    const { view, sched } = loaded();
    const many = Array.from({ length: 200 }, (_, i) => item({
      id: `d-${200 - i}`, started_at: at(7, 1, 0, 0) + (200 - i) * MIN, ended_at: at(7, 1, 0, 0) + (201 - i) * MIN,
      status: 'ok', summary: `Summary ${200 - i}`,
    }));
    // buildRow is private: spied on through the prototype to count rows built.
    const build = vi.spyOn(SessionHistory.prototype as unknown as { buildRow: () => unknown }, 'buildRow');
    view.apply(history({ [A]: many }));
    expect(rows()).toHaveLength(200);
    expect(build).toHaveBeenCalledTimes(200);
    const before = rows();
    build.mockClear();
    type(byLabel('Name'), 'Yuna');
    type(byLabel('Model'), 'gpt-z');
    expect(build).not.toHaveBeenCalled();
    expect(rows().every((r, i) => r === before[i])).toBe(true);
    // The same list again reuses every row; one new item builds one row.
    view.apply(history({ [A]: many.map((x) => ({ ...x })) }));
    expect(build).not.toHaveBeenCalled();
    view.apply(history({ [A]: [item({ id: 'd-201' }), ...many.slice(0, 199)] }));
    expect(build).toHaveBeenCalledTimes(1);
    expect(rows()).toHaveLength(200);
    expect(rows()[1]).toBe(before[0]);
    expect(sched.timers.size).toBe(0);
  });
});

describe('Session section: focus requests and saving', () => {
  it('settings_focus "session" shows the preset, scrolls there and focuses the first summary button', () => {
    const { view } = loaded();
    view.apply(history({ [B]: [running, done, failed] }));
    const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    view.apply({ type: 'settings_focus', seq: 1, preset: B, section: 'session' });
    expect(view.selected).toBe(B);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.instances[0]).toBe(section());
    expect(document.activeElement).toBe(toggle('d-2'));
  });

  it('settings_focus "session" with no summary to open scrolls there and leaves the focus', () => {
    const { view } = loaded();
    view.apply(history({ [A]: [running] }));
    byLabel('Model').focus();
    const spy = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    view.apply({ type: 'settings_focus', seq: 1, preset: A, section: 'session' });
    expect(spy.mock.instances[0]).toBe(section());
    expect(document.activeElement).toBe(byLabel('Model'));
  });

  it('is not part of the drafts: history leaves Save off and the request unchanged', () => {
    const { view, saves } = loaded();
    view.apply(history({ [A]: [running, done] }));
    toggle('d-2')!.click();
    expect(view.model.dirty).toBe(false);
    expect(saveButton().disabled).toBe(true);
    type(byLabel('Name'), 'Yuna');
    view.apply(history({ [A]: [item({ id: 'd-5' }), running, done] }));
    saveButton().click();
    // A message while saving changes nothing about the wait.
    view.apply(history({ [A]: [] }));
    expect(saveButton().textContent).toBe('Saving…');
    const req = saves()[0]!;
    expect(Object.keys(req).sort()).toEqual(['active_preset', 'audio', 'keyboard', 'presets', 'request_id', 'type']);
    expect(req.presets[0]).toEqual({
      id: A, name: 'Yuna', enabled: true, look: 'yui', chat_api: 'push', chat_base_url: 'http://127.0.0.1:8646',
      model: '', reasoning_effort: '', card: '', context_window: 0, agent_id: '', thread_id: '',
      permissions: { screen: 'ask', screenshot_each_turn: false, hide_frontmost: false, local_pages: false },
      voice: { engine: 'system', program: 'espeak-ng', system_voice: '', rate: 0, base_url: '', model: '', endpoint_voice: '',
        format: 'wav', emotion_text_map: {}, volume: 100, muted: false },
    });
    expect(JSON.stringify(req)).not.toContain('d-');
  });
});
