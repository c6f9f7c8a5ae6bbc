// The reasoning display: a small "thinking…" disclosure that opens to the
// text while it streams. Hidden when the text is empty; collapsed again for
// each new turn (open/closed is presentation state). The core sends a
// turn's reasoning whole, then each delta as an append (added to the text
// node, never re-rendering the whole text); a cut text starts with "…".
// In the pet window (besideBubble), once the turn's reasoning has ended the
// collapsed "thoughts" shows only beside a speech bubble: alone in the
// corner of the sky it meant nothing (issue 21). Open, or while streaming,
// it shows whatever the bubble does. The message window's stay with their
// reply.

import './reasoning.css';
import { el } from './dom';
import { t } from './i18n';
import type { Reasoning } from './protocol';

let reasoningSeq = 0;

export class ReasoningView {
  readonly el: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  readonly panel: HTMLElement;
  private turn = '';
  private streaming = false;
  /** A bubble shows now (besideBubble), or always true (the message window). */
  private bubble: boolean;
  private readonly body = document.createTextNode('');

  constructor(private readonly changed: () => void, opts: { besideBubble?: boolean } = {}) {
    this.bubble = !opts.besideBubble;
    this.el = el('div');
    this.el.className = 'reasoning';
    this.el.hidden = true;
    this.toggle = el('button');
    this.toggle.type = 'button';
    this.toggle.className = 'reasoning-toggle';
    this.toggle.setAttribute('aria-expanded', 'false');
    this.panel = el('div');
    this.panel.className = 'reasoning-text';
    this.panel.id = `yui-reasoning-text-${++reasoningSeq}`;
    this.panel.hidden = true;
    this.panel.append(this.body);
    this.toggle.setAttribute('aria-controls', this.panel.id);
    this.toggle.addEventListener('click', () => this.setOpen(this.panel.hidden));
    this.el.append(this.toggle, this.panel);
  }

  get open(): boolean {
    return !this.panel.hidden;
  }

  setOpen(open: boolean): void {
    this.panel.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    if (open) this.panel.scrollTop = this.panel.scrollHeight;
    this.fitShown();
    this.changed();
  }

  /** Whether a speech bubble shows now (the pet tells it on each change). */
  setBubble(shown: boolean): void {
    if (this.bubble === shown) return;
    this.bubble = shown;
    if (this.fitShown()) this.changed();
  }

  /** Shown: there is text, and it streams, is open or has a bubble beside
   * it. Returns whether that changed. */
  private fitShown(): boolean {
    const hidden = !this.body.data || !(this.streaming || this.open || this.bubble);
    if (this.el.hidden === hidden) return false;
    this.el.hidden = hidden;
    return true;
  }

  /** The text shown now. */
  get text(): string {
    return this.body.data;
  }

  apply(m: Reasoning): void {
    // An append continues the text of its own turn only; anything else
    // (a new turn, a whole text) replaces it.
    const append = !!m.append && m.turn_id === this.turn;
    if (m.turn_id !== this.turn) {
      this.turn = m.turn_id;
      this.panel.hidden = true;
      this.toggle.setAttribute('aria-expanded', 'false');
    }
    let changed = false;
    if (append) {
      if (m.text) {
        this.body.appendData(m.text);
        changed = true;
      }
    } else if (this.body.data !== (m.text ?? '')) {
      this.body.data = m.text ?? '';
      changed = true;
    }
    this.panel.dataset.cut = String(!!m.cut);
    const empty = !this.body.data;
    const was = this.el.hidden;
    this.streaming = !!m.streaming && !empty;
    this.fitShown();
    this.el.dataset.streaming = String(this.streaming);
    this.toggle.textContent = m.streaming ? t('reasoning.thinking') : t('reasoning.thoughts');
    this.toggle.setAttribute('aria-label', m.streaming ? t('reasoning.streaming_label') : t('reasoning.label'));
    if (changed && this.open) this.panel.scrollTop = this.panel.scrollHeight;
    if (was !== this.el.hidden || this.open) this.changed();
  }
}
