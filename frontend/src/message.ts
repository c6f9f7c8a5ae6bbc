// The message window (docs/message-window.md): a character's conversation
// to read back — the user's lines, her replies as she says them with the
// reasoning folded at their top, tool and background-task rows, errors —
// and a composer that sends through her pet's session. It mirrors the pet
// page of its preset (the core sends it every pet topic) and keeps only
// presentation state: which reasoning is unfolded, the scroll position,
// whether "Start over?" is asked, which rows of her history are loaded.
// It opens on the newest page of the current conversation; scrolling to
// the top asks the core for the page before (history_more), through every
// earlier conversation (docs/history.md); the search and the export are
// src/history.ts.
import './message.css';
import { ComposerView } from './composer';
import { DelegationsChip } from './chip';
import { button, el } from './dom';
import { t } from './i18n';
import { phrase } from './corephrases';
import { stripEmoji } from './emoji';
import { renderRichText } from './links';
import { exportedText, HistorySearchView, when } from './history';
import type { CoreMessage, PageMessage, TranscriptEntry } from './protocol';
import { ReasoningView } from './reasoning';
import { realScheduler, type Scheduler } from './scheduler';

export interface MessageHost {
  send(m: PageMessage): boolean;
  /** Hides the window (Esc, Ctrl+W). */
  close(): void;
  openURL?(url: string): void;
}

type Row = Omit<TranscriptEntry, 'type'>;

/** How close (px) to the bottom counts as "following" the conversation. */
const FOLLOW_SLACK = 40;

/** How close (px) to the top loads the page before. */
const OLDER_SLACK = 80;

const TOOL_STATE: Record<string, string> = { running: 'working…', done: 'done', failed: 'failed' };

export class MessageView {
  readonly root: HTMLElement;
  readonly composer: ComposerView;
  readonly chip: DelegationsChip;
  private readonly title: HTMLElement;
  private readonly status: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly empty: HTMLElement;
  private readonly resetBtn: HTMLButtonElement;
  private readonly confirm: HTMLElement;
  private readonly confirmYes: HTMLButtonElement;
  private readonly confirmNo: HTMLButtonElement;
  private readonly rows = new Map<number, { li: HTMLLIElement; conv: number; at: number; reasoning?: ReasoningView; text?: HTMLElement; rendered?: string }>();
  private name = '';
  private readonly scroll: HTMLElement;
  private readonly older: HTMLButtonElement;
  private readonly note: HTMLElement;
  private readonly searchBtn: HTMLButtonElement;
  private readonly exportBtn: HTMLButtonElement;
  private readonly exportMenu: HTMLElement;
  readonly search: HistorySearchView;
  /** The current conversation; whether older rows exist; the page asked for (its `before`), 0 when none. */
  private conv = 0;
  private more = false;
  private asked = 0;

  constructor(private readonly host: MessageHost, sched: Scheduler = realScheduler) {
    const changed = () => {};
    this.composer = new ComposerView({
      send: (m) => this.host.send(m),
      now: () => sched.now(),
      changed,
      fixed: true,
      placeholder: t('message.placeholder'),
    });
    this.chip = new DelegationsChip(sched, changed);
    this.title = el('h1', 'msg-title', t('message.title'));
    this.status = el('span', { class: 'msg-status', attrs: { role: 'status', 'aria-live': 'polite' }, hidden: true });
    this.resetBtn = button('msg-reset', t('message.reset'), { title: t('message.reset_tip') });
    this.confirmYes = button('msg-confirm-yes', t('message.clear'));
    this.confirmNo = button('msg-confirm-no', t('message.cancel'));
    const ask = el('span', { class: 'msg-confirm-ask', attrs: { id: 'msg-confirm-ask' } }, t('message.confirm'));
    this.confirm = el('div', { class: 'msg-confirm', attrs: { role: 'alertdialog', 'aria-labelledby': ask.id }, hidden: true },
      ask, this.confirmYes, this.confirmNo);
    this.list = el('ol', { class: 'msg-list', attrs: { role: 'log', 'aria-label': t('message.log'), 'aria-live': 'polite', tabindex: 0 } });
    this.empty = el('p', 'msg-empty', t('message.empty'));
    this.older = button('msg-older', t('message.older'), { title: t('message.older_tip') }, true);
    this.note = el('p', { class: 'msg-note', attrs: { role: 'status', 'aria-live': 'polite' }, hidden: true });
    this.search = new HistorySearchView((m) => this.host.send(m), sched, () => this.name, (on) => {
      this.scroll.hidden = on;
    });
    this.searchBtn = button('msg-search-btn', t('message.search'), { title: t('message.search_tip'), 'aria-expanded': 'false' });
    this.exportBtn = button('msg-export-btn', t('message.export'), { title: t('message.export_tip'), 'aria-expanded': 'false', 'aria-haspopup': 'menu' });
    this.exportMenu = el('div', { class: 'msg-export-menu', attrs: { role: 'menu', 'aria-label': t('message.export_menu') }, hidden: true },
      button('msg-export-md', 'Markdown (.md)', { role: 'menuitem', 'data-format': 'markdown' }),
      button('msg-export-json', 'JSON (.json)', { role: 'menuitem', 'data-format': 'json' }));
    this.scroll = el('div', 'msg-scroll', this.older, this.list, this.empty);
    this.root = el('main', 'messages',
      el('header', 'msg-head', el('div', 'msg-heading', this.title, this.status), this.chip.chip, this.searchBtn, this.exportBtn, this.resetBtn),
      this.exportMenu,
      this.search.bar,
      this.note,
      this.confirm,
      this.chip.list,
      this.scroll,
      this.search.results,
      this.composer.el,
    );
    this.wire();
  }

  mount(parent: HTMLElement): void {
    parent.append(this.root);
    this.composer.input.focus();
  }

  /** Whether "Start over?" is asked now. */
  get confirming(): boolean {
    return !this.confirm.hidden;
  }

  apply(m: CoreMessage): void {
    if (this.composer.apply(m)) return;
    switch (m.type) {
      case 'preset':
        this.name = m.name;
        this.root.dataset.preset = m.id;
        this.title.textContent = m.name;
        document.title = `${m.name} — Messages`;
        break;
      case 'plate':
        // The connection state as the pet's plate shows it ("thinking" is
        // shown by the streaming reply instead).
        this.status.hidden = m.kind !== 'connection' || m.text === '';
        this.status.textContent = m.kind === 'connection' ? phrase(m.msg, m.text) : '';
        break;
      case 'delegations':
        this.chip.apply(m);
        break;
      case 'transcript':
        this.list.replaceChildren();
        this.rows.clear();
        this.conv = m.conv;
        this.asked = 0; // a page asked for before is dropped when it comes
        this.older.disabled = false;
        this.older.textContent = t('message.older');
        for (const r of m.entries ?? []) this.upsert(r);
        this.setMore(m.more);
        this.divide();
        this.afterChange(true);
        break;
      case 'history_page':
        this.olderPage(m.before, m.entries ?? [], m.more);
        break;
      case 'history_results':
        this.search.apply(m);
        break;
      case 'history_exported':
        this.note.hidden = false;
        this.note.textContent = exportedText(m);
        this.note.dataset.error = String(!!m.error);
        break;
      case 'transcript_entry': {
        const follow = this.following();
        if (m.conv > this.conv) this.conv = m.conv;
        this.upsert(m);
        this.afterChange(follow);
        break;
      }
    }
  }

  private setMore(more: boolean): void {
    this.more = more;
    this.older.hidden = !more;
  }

  /** Asks for the page before the oldest row shown (once at a time). */
  loadOlder(): void {
    if (!this.more || this.asked !== 0) return;
    const before = this.oldest();
    if (before === 0 && this.rows.size > 0) return;
    this.asked = before === 0 ? Number.MAX_SAFE_INTEGER : before;
    this.older.disabled = true;
    this.older.textContent = t('message.loading');
    this.host.send({ type: 'history_more', before });
  }

  private oldest(): number {
    let min = 0;
    for (const id of this.rows.keys()) if (min === 0 || id < min) min = id;
    return min;
  }

  /** Older rows above what is shown, keeping what the user looks at in place. */
  private olderPage(before: number, entries: Row[], more: boolean): void {
    const want = this.asked === Number.MAX_SAFE_INTEGER ? 0 : this.asked;
    if (this.asked === 0 || before !== want) return; // not the page asked for (a reset came between)
    this.asked = 0;
    this.older.disabled = false;
    this.older.textContent = t('message.older');
    const s = this.scroll;
    const fromBottom = s.scrollHeight - s.scrollTop;
    for (const r of entries) this.upsert(r);
    this.setMore(more);
    this.divide();
    this.empty.hidden = this.rows.size > 0;
    s.scrollTop = s.scrollHeight - fromBottom;
  }

  /** A divider where each conversation shown begins, with an Export button for it. */
  private divide(): void {
    for (const d of [...this.list.querySelectorAll('.msg-conv')]) d.remove();
    let prev: number | null = null;
    for (const li of [...this.list.children] as HTMLLIElement[]) {
      const row = this.rows.get(Number(li.dataset.id));
      if (!row) continue;
      // Where a conversation begins: after another one, or at the top
      // once nothing older is left (and it is an earlier one).
      if (row.conv !== prev && (prev !== null || (!this.more && row.conv !== this.conv))) {
        const label = row.conv === this.conv ? t('message.this_conv') : t('message.earlier_conv');
        const d = el('li', { class: 'msg-conv', attrs: { 'data-conv': row.conv, role: 'separator' } },
          el('span', 'msg-conv-label', `${label} · ${when(row.at)}`),
          button('msg-conv-export', t('message.export'), { title: t('message.export_md_tip'), 'data-conv': row.conv, 'data-format': 'markdown' }));
        this.list.insertBefore(d, li);
      }
      prev = row.conv;
    }
  }

  private exportConv(conv: number, format: 'markdown' | 'json'): void {
    this.note.hidden = false;
    this.note.dataset.error = 'false';
    this.note.textContent = t('message.exporting');
    this.host.send({ type: 'history_export', conv, format });
  }

  private setExportMenu(on: boolean): void {
    this.exportMenu.hidden = !on;
    this.exportBtn.setAttribute('aria-expanded', String(on));
    if (on) (this.exportMenu.querySelector('button') as HTMLButtonElement | null)?.focus();
  }

  private setSearch(on: boolean): void {
    this.search.setOpen(on);
    this.searchBtn.setAttribute('aria-expanded', String(on));
    if (!on) this.composer.input.focus();
  }

  private following(): boolean {
    const s = this.scroll;
    return s.scrollHeight - s.scrollTop - s.clientHeight <= FOLLOW_SLACK;
  }

  private afterChange(follow: boolean): void {
    this.empty.hidden = this.rows.size > 0;
    this.resetBtn.disabled = ![...this.rows.values()].some((r) => r.conv === this.conv);
    this.exportBtn.disabled = this.resetBtn.disabled;
    if (follow) {
      const s = this.scroll;
      s.scrollTop = s.scrollHeight;
    }
  }

  /** Adds a row, or changes it in place (same id). */
  private upsert(r: Row): void {
    let row = this.rows.get(r.id);
    if (!row) {
      const li = el('li', { class: 'msg', attrs: { 'data-id': r.id, 'data-kind': r.kind, 'data-conv': r.conv } });
      row = { li, conv: r.conv, at: r.at };
      if (r.kind === 'reply') {
        row.reasoning = new ReasoningView(() => {});
        row.text = el('p', 'msg-text');
        li.append(el('span', 'msg-who', this.name || t('message.she')), row.reasoning.el, row.text);
      } else if (r.kind === 'user') {
        row.text = el('p', 'msg-text');
        li.append(el('span', 'msg-who', t('message.you')), row.text);
      } else if (r.kind === 'character') {
        // One character to another: "Yui → Mika: …" (who to whom, then the words).
        const i = r.text.indexOf(': ');
        row.text = el('p', 'msg-text');
        li.append(el('span', 'msg-who', i > 0 ? r.text.slice(0, i) : ''), row.text);
      } else {
        row.text = el('p', 'msg-text');
        li.append(row.text);
      }
      this.rows.set(r.id, row);
      // Rows come in id order; an id lower than the last one is a late row
      // placed where it belongs.
      const after = [...this.rows.keys()].filter((id) => id > r.id).sort((a, b) => a - b)[0];
      const before = after !== undefined ? this.rows.get(after)?.li : undefined;
      this.list.insertBefore(li, before ?? null);
    }
    row.li.dataset.state = r.state;
    if (r.kind === 'reply') {
      row.reasoning!.apply({ type: 'reasoning', turn_id: r.turn_id, text: r.reasoning, streaming: r.state === 'streaming' && r.text === '' });
      this.setText(row, r.text);
      row.li.setAttribute('aria-busy', String(r.state === 'streaming'));
    } else if (r.kind === 'user') {
      this.setText(row, r.text);
    } else if (r.kind === 'character') {
      const i = r.text.indexOf(': ');
      this.setText(row, i > 0 ? r.text.slice(i + 2) : r.text);
    } else if (r.kind === 'tool') {
      row.text!.textContent = `${r.text} — ${TOOL_STATE[r.state] ?? r.state}`;
    } else if (r.kind === 'delegation') {
      row.text!.textContent = t(r.state === 'running' ? 'message.task_started' : 'message.task_finished', { text: r.text });
    } else {
      row.text!.textContent = r.text;
    }
  }

  /** Her and the user's text: emoji stripped and links made, like the bubble. */
  private setText(row: { text?: HTMLElement; rendered?: string }, text: string): void {
    if (row.rendered === text) return;
    row.rendered = text;
    row.text!.replaceChildren(renderRichText(stripEmoji(text), (u) => this.host.openURL?.(u)));
  }

  private askReset(on: boolean): void {
    this.confirm.hidden = !on;
    this.resetBtn.setAttribute('aria-expanded', String(on));
    if (on) this.confirmNo.focus();
  }

  private wire(): void {
    this.older.addEventListener('click', () => this.loadOlder());
    // Near the top: the page before (a scroll listener, no loop).
    // Not in an empty conversation (New conversation leaves the earlier
    // ones behind the button), nor when nothing scrolls (a shrinking list
    // scrolls to the top by itself).
    this.scroll.addEventListener('scroll', () => {
      const s = this.scroll;
      if (this.rows.size > 0 && s.scrollHeight > s.clientHeight && s.scrollTop <= OLDER_SLACK) this.loadOlder();
    }, { passive: true });
    this.searchBtn.addEventListener('click', () => this.setSearch(!this.search.open));
    this.exportBtn.addEventListener('click', () => this.setExportMenu(this.exportMenu.hidden));
    this.exportMenu.addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest('button');
      if (!b) return;
      this.setExportMenu(false);
      this.exportConv(this.conv, b.dataset.format === 'json' ? 'json' : 'markdown');
    });
    this.list.addEventListener('click', (e) => {
      const b = (e.target as HTMLElement).closest('.msg-conv-export') as HTMLButtonElement | null;
      if (b) this.exportConv(Number(b.dataset.conv), 'markdown');
    });
    this.resetBtn.addEventListener('click', () => this.askReset(true));
    this.confirmNo.addEventListener('click', () => {
      this.askReset(false);
      this.composer.input.focus();
    });
    this.confirmYes.addEventListener('click', () => {
      this.askReset(false);
      this.host.send({ type: 'reset' });
      this.composer.input.focus();
    });
    document.addEventListener('keydown', (e) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        this.setSearch(true);
        return;
      }
      if (e.key !== 'Escape' || e.isComposing) return;
      // Escape closes what is open first, then the window.
      if (this.confirming) {
        e.preventDefault();
        this.askReset(false);
      } else if (!this.exportMenu.hidden) {
        e.preventDefault();
        this.setExportMenu(false);
        this.exportBtn.focus();
      } else if (this.search.open) {
        e.preventDefault();
        this.setSearch(false);
      } else if (this.chip.open) {
        e.preventDefault();
        this.chip.setOpen(false);
      }
    }, true);
  }
}
