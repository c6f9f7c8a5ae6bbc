// The message window's history (docs/history.md): the search over every
// conversation and the export of one. The core searches and writes the
// files; the page sends what the user asked and shows the answers. No
// timer runs while nothing is typed (one debounce timer per keystroke).
import { button, el } from './dom';
import { language, plural, t } from './i18n';
import type { HistoryExported, HistoryResults, PageMessage } from './protocol';
import type { Scheduler } from './scheduler';

/** How long typing pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;

/** Who wrote an entry of a kind other than her reply. */
function who(kind: string): string {
  switch (kind) {
    case 'user': return t('message.you');
    case 'tool': return t('message.tool');
    case 'delegation': return t('message.delegation');
    case 'error': return t('message.error');
  }
  return kind;
}

/** A snippet's text with its matched words (between U+0002 and U+0003) in <mark>s: text nodes only. */
export function snippetNodes(s: string): Node[] {
  const out: Node[] = [];
  let marked = false;
  let buf = '';
  const flush = () => {
    if (buf === '') return;
    out.push(marked ? el('mark', '', buf) : document.createTextNode(buf));
    buf = '';
  };
  for (const ch of s) {
    if (ch === '\u0002' || ch === '\u0003') {
      flush();
      marked = ch === '\u0002';
      continue;
    }
    buf += ch;
  }
  flush();
  return out;
}

/** A short local date and time for a row. */
export function when(ms: number): string {
  const d = new Date(ms);
  return `${d.toLocaleDateString(language(), { year: 'numeric', month: 'short', day: 'numeric' })} ${d.toLocaleTimeString(language(), { hour: '2-digit', minute: '2-digit' })}`;
}

export class HistorySearchView {
  /** The search bar (shown while searching). */
  readonly bar: HTMLFormElement;
  readonly input: HTMLInputElement;
  /** The results, shown instead of the conversation while a query is typed. */
  readonly results: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly count: HTMLElement;
  private timer: number | null = null;
  private sent = '';

  constructor(
    private readonly send: (m: PageMessage) => boolean,
    private readonly sched: Scheduler,
    private readonly name: () => string,
    /** Called when the results are shown or hidden. */
    private readonly changed: (searching: boolean) => void,
  ) {
    this.input = el('input', { class: 'msg-search-input', attrs: { type: 'search', placeholder: t('message.search_placeholder'), 'aria-label': t('message.search_label'), maxlength: 200 } });
    const close = button('msg-search-close', '×', { 'aria-label': t('message.search_close'), title: t('message.search_close_tip') });
    this.bar = el('form', { class: 'msg-search', attrs: { role: 'search' }, hidden: true }, this.input, close);
    this.count = el('p', { class: 'msg-results-count', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.list = el('ol', { class: 'msg-results-list', attrs: { 'aria-label': t('message.search_results') } });
    this.results = el('div', { class: 'msg-results', hidden: true }, this.count, this.list);
    this.input.addEventListener('input', () => this.typed());
    this.bar.addEventListener('submit', (e) => {
      e.preventDefault();
      this.flush();
    });
    close.addEventListener('click', () => this.setOpen(false));
  }

  get open(): boolean {
    return !this.bar.hidden;
  }

  setOpen(on: boolean): void {
    this.bar.hidden = !on;
    if (on) {
      this.input.focus();
      this.input.select();
      return;
    }
    this.input.value = '';
    this.cancel();
    this.sent = '';
    this.show(false);
  }

  private cancel(): void {
    if (this.timer !== null) this.sched.clearTimeout(this.timer);
    this.timer = null;
  }

  private typed(): void {
    this.cancel();
    if (this.input.value.trim() === '') {
      this.sent = '';
      this.show(false);
      return;
    }
    this.timer = this.sched.setTimeout(() => this.flush(), SEARCH_DEBOUNCE_MS);
  }

  /** Sends the query now (Enter, or the pause after typing). */
  flush(): void {
    this.cancel();
    const q = this.input.value.trim();
    if (q === '' || q === this.sent) return;
    this.sent = q;
    this.count.textContent = t('message.searching');
    this.show(true);
    this.send({ type: 'history_search', query: q });
  }

  private show(on: boolean): void {
    if (this.results.hidden === !on) return;
    this.results.hidden = !on;
    this.changed(on);
  }

  apply(m: HistoryResults): void {
    if (m.query !== this.sent || !this.open) return; // an answer to an older query
    const hits = m.hits ?? [];
    this.count.textContent = m.error ? m.error : hits.length === 0 ? t('message.nothing_found') : plural(hits.length, 'message.found_one', 'message.found');
    this.list.replaceChildren(...hits.map((h) => {
      const writer = h.entry.kind === 'reply' ? this.name() || t('message.she') : who(h.entry.kind);
      return el('li', { class: 'msg-hit', attrs: { 'data-id': h.entry.id, 'data-kind': h.entry.kind, 'data-conv': h.entry.conv } },
        el('span', 'msg-hit-head', el('span', 'msg-who', writer), el('time', { class: 'msg-when', attrs: { datetime: new Date(h.entry.at).toISOString() } }, when(h.entry.at))),
        el('p', 'msg-hit-text', ...snippetNodes(h.snippet || h.entry.text)));
    }));
  }
}

/** The export's answer in the user's words. */
export function exportedText(m: HistoryExported): string {
  if (m.error) return t('message.export_failed', { reason: m.error });
  return t('message.saved_to', { path: m.path ?? '' });
}
