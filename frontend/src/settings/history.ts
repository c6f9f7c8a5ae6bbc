// The Session section: the selected character's delegation history as the
// core keeps it across restarts (settings_history, newest first). It is
// read-only — nothing here is a draft or goes into a save. Rows are built
// once per message and reused while their item is unchanged, so a new
// message neither rebuilds 200 rows nor takes the focus from a summary
// button; times are absolute, so nothing ticks.

import './history.css';
import { el } from '../dom';
import type { DelegationItem, SettingsHistory } from '../protocol';
import { language, t, t as tr } from '../i18n';

/** The line an empty history shows. */
export function emptyHistory(): string {
  return t('settings.history.empty');
}

function statusText(status: string): string {
  switch (status) {
    case 'ok': return t('settings.history.completed');
    case 'error': return t('settings.history.failed');
    case 'unknown': return t('settings.history.unknown');
  }
  return status;
}

/** What a row says about an item's state: "running", or for a done item
 * its status in words ("completed", "failed", "unknown"; "done" without
 * one; a status this page does not know as it is). */
export function stateText(it: DelegationItem): string {
  if (it.state === 'running') return t('settings.history.running');
  if (!it.status) return t('settings.history.done');
  return statusText(it.status);
}

/** How long a done item ran: "ran 12 s", "ran 3 min", "ran 2 h 5 min",
 * "ran 3 d 4 h". */
export function ranFor(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const ran = (...parts: string[]) => t('settings.history.ran', { time: parts.join(' ') });
  const sec = (n: number) => t('time.sec', { n: String(n) });
  const min = (n: number) => t('time.min', { n: String(n) });
  const hr = (n: number) => t('time.hour', { n: String(n) });
  const day = (n: number) => t('time.day', { n: String(n) });
  if (s < 60) return ran(sec(s));
  const m = Math.floor(s / 60);
  if (m < 60) return ran(min(m));
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? ran(hr(h), min(m % 60)) : ran(hr(h));
  const d = Math.floor(h / 24);
  return h % 24 ? ran(day(d), hr(h % 24)) : ran(day(d));
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(locale: string | undefined, withYear: boolean, full: boolean): Intl.DateTimeFormat {
  const key = `${locale ?? ''} ${withYear} ${full}`;
  let f = formats.get(key);
  if (!f) {
    f = full
      ? new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'medium' })
      : new Intl.DateTimeFormat(locale, {
        month: 'short', day: 'numeric', ...(withYear ? { year: 'numeric' } : {}), hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
      });
    formats.set(key, f);
  }
  return f;
}

/** A short local date-time: "Nov 29, 14:05" (with the year when it is not
 * this year's, "Nov 29, 2024, 14:05"). */
export function shortDateTime(epochMs: number, now: number, locale?: string): string {
  const d = new Date(epochMs);
  return format(locale ?? language(), d.getFullYear() !== new Date(now).getFullYear(), false).format(d);
}

/** The date-time in full, for the tooltip. */
function fullDateTime(epochMs: number): string {
  return format(language(), true, true).format(new Date(epochMs));
}


const validTime = (t: unknown): t is number => typeof t === 'number' && Number.isFinite(t) && t > 0;

function sameItem(a: DelegationItem, b: DelegationItem): boolean {
  return a.id === b.id && a.title === b.title && a.started_at === b.started_at && a.state === b.state
    && a.ended_at === b.ended_at && a.status === b.status && a.summary === b.summary;
}

interface Row {
  item: DelegationItem;
  li: HTMLLIElement;
  toggle: HTMLButtonElement | null;
  summary: HTMLElement | null;
}

let historySeq = 0;

export interface HistoryOptions {
  /** Epoch ms (whether a date needs its year). */
  now?: () => number;
}

export class SessionHistory {
  /** The section element, with id section-session and its heading. */
  readonly el: HTMLElement;
  private readonly ids: string;
  private readonly list: HTMLUListElement;
  private readonly empty: HTMLElement;
  private readonly now: () => number;
  private byPreset = new Map<string, DelegationItem[]>();
  /** Bumped per message: a show() of the same preset and generation is a
   * no-op (the form re-renders on every keystroke). */
  private generation = 0;
  private shown = { preset: '', generation: -1, isNew: false };
  /** The rows in the list, by key (item id, and its repeat count if an id
   * comes twice). */
  private rows = new Map<string, Row>();
  /** Open summaries, by preset and item id. */
  private readonly open = new Set<string>();
  private rowSeq = 0;

  constructor(opts: HistoryOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.ids = `h${++historySeq}`;
    this.el = el('section', 'section section-session');
    this.el.id = 'section-session';
    this.el.dataset.section = 'session';
    const h = el('h2', 'section-title', t('settings.history.title'));
    h.id = `${this.ids}-title`;
    this.el.setAttribute('aria-labelledby', h.id);
    const hint = el('div', 'hint history-hint', t('settings.history.hint'));
    this.list = el('ul', 'history');
    this.empty = el('p', 'history-empty', emptyHistory());
    this.list.hidden = true;
    this.el.append(h, hint, this.list, this.empty);
    this.list.addEventListener('click', (e) => {
      const b = (e.target as Element).closest<HTMLButtonElement>('.history-toggle');
      const li = b?.closest<HTMLElement>('.history-item');
      if (b && li?.dataset.key) this.toggle(li.dataset.key);
    });
  }

  /** Puts the section's actions ("New conversation", actions.ts) under
   * its heading, above the list they leave alone. */
  setActions(actions: HTMLElement): void {
    this.el.querySelector('.section-title')!.after(actions);
  }

  /** A new settings_history: every preset's list is replaced. */
  setHistory(m: SettingsHistory): void {
    const next = new Map<string, DelegationItem[]>();
    for (const p of Array.isArray(m.presets) ? m.presets : []) {
      if (!p || typeof p.id !== 'string') continue;
      const items = (Array.isArray(p.items) ? p.items : []).filter(
        (it): it is DelegationItem => !!it && typeof it === 'object' && typeof it.id === 'string');
      next.set(p.id, items);
    }
    this.byPreset = next;
    this.generation++;
    if (this.shown.preset) this.render(this.shown.preset, this.shown.isNew);
  }

  /** Shows a preset's history; `name` labels the list, `isNew` (a
   * character not saved yet) has none. */
  show(preset: string, name: string, isNew: boolean): void {
    const label = t('settings.history.label', { name: name.trim() || t('settings.unnamed') });
    if (this.list.getAttribute('aria-label') !== label) this.list.setAttribute('aria-label', label);
    const s = this.shown;
    if (s.preset === preset && s.generation === this.generation && s.isNew === isNew) return;
    this.render(preset, isNew);
  }

  /** The items shown now (for tests). */
  get items(): readonly DelegationItem[] {
    return [...this.rows.values()].map((r) => r.item);
  }

  /** The first control, for a focus request: the first summary button. */
  firstControl(): HTMLElement | null {
    return this.list.querySelector<HTMLElement>('.history-toggle');
  }

  private render(preset: string, isNew: boolean): void {
    if (preset !== this.shown.preset) this.rows.clear();
    this.shown = { preset, generation: this.generation, isNew };
    const items = isNew ? [] : this.byPreset.get(preset) ?? [];
    const active = document.activeElement;
    const focusKey = active && this.list.contains(active) ? active.closest<HTMLElement>('.history-item')?.dataset.key : undefined;

    const seen = new Map<string, number>();
    const want: Row[] = [];
    const next = new Map<string, Row>();
    for (const it of items) {
      const n = seen.get(it.id) ?? 0;
      seen.set(it.id, n + 1);
      const key = n ? `${it.id}\u0000${n}` : it.id;
      const old = this.rows.get(key);
      const row = old && sameItem(old.item, it) ? old : this.buildRow(key, it);
      next.set(key, row);
      want.push(row);
    }
    this.rows = next;

    // Put the rows in order, moving as few as possible: rows that went
    // leave first, then a new item at the top is one insertion and rows
    // that stay are not touched (a focused button in one keeps its focus).
    const keep = new Set(want.map((r) => r.li));
    for (const c of [...this.list.children]) if (!keep.has(c as HTMLLIElement)) c.remove();
    let ref = this.list.firstChild;
    for (const r of want) {
      if (r.li === ref) ref = ref.nextSibling;
      else this.list.insertBefore(r.li, ref);
    }
    this.list.hidden = want.length === 0;
    this.empty.hidden = want.length !== 0;

    if (focusKey !== undefined && !this.list.contains(document.activeElement)) {
      // The focused row was rebuilt: its new button takes the focus back.
      const r = this.rows.get(focusKey);
      (r?.toggle ?? null)?.focus({ preventScroll: true });
    }
  }

  private buildRow(key: string, it: DelegationItem): Row {
    const id = `${this.ids}-r${++this.rowSeq}`;
    const li = el('li', 'history-item');
    li.dataset.key = key;
    li.dataset.id = it.id;
    li.dataset.state = it.state === 'running' ? 'running' : 'done';
    const head = el('div', 'history-row');
    const main = el('div', 'history-main');
    const title = el('span', 'history-title', it.title || t('settings.history.untitled'));
    title.id = `${id}-title`;
    const meta = el('div', 'history-meta');
    if (validTime(it.started_at)) {
      const t = el('time', 'history-started', shortDateTime(it.started_at, this.now()));
      t.dateTime = new Date(it.started_at).toISOString();
      t.title = tr('settings.history.started', { time: fullDateTime(it.started_at) });
      meta.append(t);
    }
    if (it.state !== 'running' && validTime(it.ended_at) && validTime(it.started_at)) {
      if (meta.childNodes.length) meta.append(el('span', 'history-sep', ' · '));
      const ran = el('span', 'history-ran', ranFor(it.ended_at - it.started_at));
      ran.title = tr('settings.history.ended', { time: fullDateTime(it.ended_at) });
      meta.append(ran);
    }
    meta.querySelector('.history-sep')?.setAttribute('aria-hidden', 'true');
    main.append(title, meta);
    const state = el('span', 'history-state', stateText(it));
    state.dataset.state = it.state === 'running' ? 'running' : it.status || 'done';
    head.append(main, state);
    li.append(head);

    let toggle: HTMLButtonElement | null = null;
    let summary: HTMLElement | null = null;
    if (it.state !== 'running' && typeof it.summary === 'string' && it.summary !== '') {
      const open = this.open.has(this.openKey(key));
      toggle = el('button', 'btn btn-small history-toggle', tr('settings.history.summary'));
      toggle.type = 'button';
      toggle.id = `${id}-toggle`;
      summary = el('div', 'history-summary');
      summary.id = `${id}-summary`;
      summary.textContent = it.summary;
      summary.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      toggle.setAttribute('aria-controls', summary.id);
      // Named with its row: "Summary, Count the sheep".
      toggle.setAttribute('aria-labelledby', `${toggle.id} ${title.id}`);
      head.append(toggle);
      li.append(summary);
    }
    return { item: it, li, toggle, summary };
  }

  private openKey(key: string): string {
    return `${this.shown.preset}\u0000${key}`;
  }

  private toggle(key: string): void {
    const r = this.rows.get(key);
    if (!r?.toggle || !r.summary) return;
    const k = this.openKey(key);
    const open = !this.open.has(k);
    if (open) this.open.add(k);
    else this.open.delete(k);
    r.summary.hidden = !open;
    r.toggle.setAttribute('aria-expanded', String(open));
  }
}
