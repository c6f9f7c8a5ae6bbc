// The message window (docs/message-window.md): a character's conversation
// to read back — the user's lines, her replies as she says them with the
// reasoning folded at their top, tool and background-task rows, errors —
// and a composer that sends through her pet's session. It mirrors the pet
// page of its preset (the core sends it every pet topic) and keeps only
// presentation state: which reasoning is unfolded, the scroll position,
// whether "Start over?" is asked.
import './message.css';
import { ComposerView } from './composer';
import { DelegationsChip } from './chip';
import { button, el } from './dom';
import { stripEmoji } from './emoji';
import { renderRichText } from './links';
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
  private readonly rows = new Map<number, { li: HTMLLIElement; reasoning?: ReasoningView; text?: HTMLElement; rendered?: string }>();
  private name = '';

  constructor(private readonly host: MessageHost, sched: Scheduler = realScheduler) {
    const changed = () => {};
    this.composer = new ComposerView({
      send: (m) => this.host.send(m),
      now: () => sched.now(),
      changed,
      fixed: true,
      placeholder: 'Write a message…',
    });
    this.chip = new DelegationsChip(sched, changed);
    this.title = el('h1', 'msg-title', 'Messages');
    this.status = el('span', { class: 'msg-status', attrs: { role: 'status', 'aria-live': 'polite' }, hidden: true });
    this.resetBtn = button('msg-reset', 'New conversation', { title: 'Clear this conversation and start over' });
    this.confirmYes = button('msg-confirm-yes', 'Clear');
    this.confirmNo = button('msg-confirm-no', 'Cancel');
    const ask = el('span', { class: 'msg-confirm-ask', attrs: { id: 'msg-confirm-ask' } }, 'Start over? This clears the conversation.');
    this.confirm = el('div', { class: 'msg-confirm', attrs: { role: 'alertdialog', 'aria-labelledby': ask.id }, hidden: true },
      ask, this.confirmYes, this.confirmNo);
    this.list = el('ol', { class: 'msg-list', attrs: { role: 'log', 'aria-label': 'Conversation', 'aria-live': 'polite', tabindex: 0 } });
    this.empty = el('p', 'msg-empty', 'No messages yet. Write one below, or click her.');
    this.root = el('main', 'messages',
      el('header', 'msg-head', el('div', 'msg-heading', this.title, this.status), this.chip.chip, this.resetBtn),
      this.confirm,
      this.chip.list,
      el('div', 'msg-scroll', this.list, this.empty),
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
        this.status.textContent = m.kind === 'connection' ? m.text : '';
        break;
      case 'delegations':
        this.chip.apply(m);
        break;
      case 'transcript':
        this.list.replaceChildren();
        this.rows.clear();
        for (const r of m.entries ?? []) this.upsert(r);
        this.afterChange(true);
        break;
      case 'transcript_entry': {
        const follow = this.following();
        this.upsert(m);
        this.afterChange(follow);
        break;
      }
    }
  }

  private following(): boolean {
    const s = this.list.parentElement!;
    return s.scrollHeight - s.scrollTop - s.clientHeight <= FOLLOW_SLACK;
  }

  private afterChange(follow: boolean): void {
    this.empty.hidden = this.rows.size > 0;
    this.resetBtn.disabled = this.rows.size === 0;
    if (follow) {
      const s = this.list.parentElement!;
      s.scrollTop = s.scrollHeight;
    }
  }

  /** Adds a row, or changes it in place (same id). */
  private upsert(r: Row): void {
    let row = this.rows.get(r.id);
    if (!row) {
      const li = el('li', { class: 'msg', attrs: { 'data-id': r.id, 'data-kind': r.kind } });
      row = { li };
      if (r.kind === 'reply') {
        row.reasoning = new ReasoningView(() => {});
        row.text = el('p', 'msg-text');
        li.append(el('span', 'msg-who', this.name || 'She'), row.reasoning.el, row.text);
      } else if (r.kind === 'user') {
        row.text = el('p', 'msg-text');
        li.append(el('span', 'msg-who', 'You'), row.text);
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
      row.text!.textContent = `Background task: ${r.text}${r.state === 'running' ? ' — started' : ' — finished'}`;
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
      if (e.key !== 'Escape' || e.isComposing) return;
      // Escape closes what is open first, then the window.
      if (this.confirming) {
        e.preventDefault();
        this.askReset(false);
      } else if (this.chip.open) {
        e.preventDefault();
        this.chip.setOpen(false);
      }
    }, true);
  }
}
