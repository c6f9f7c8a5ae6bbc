// The speech bubble above Yui's head. The core sends each sentence as it
// starts playing (speaking: true) and again when it ends (speaking: false).
// The page keeps only presentation state: the hide timer (BUBBLE_HIDE_MS
// after the last sentence ended, paused while hovered) and what the user
// closed with ×: on a speech bubble, the rest of that reply (until a bubble
// of another turn); on a filler or failure line, only that line (the
// reply's speech, which shares its turn id, still shows).

import './bubble.css';
import { el } from './dom';
import type { Bubble as BubbleMsg } from './protocol';
import type { Scheduler } from './scheduler';
import { stripEmoji } from './emoji';
import { renderRichText } from './links';
import { t } from './i18n';

export const BUBBLE_HIDE_MS = 4000;

export class SpeechBubble {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private hideTimer = 0;
  private hovered = false;
  private speaking = false;
  private closedTurn: string | null = null;
  /** A filler or failure line closed with ×: turn, kind and text. */
  private closedLine: string | null = null;
  private turn = '';
  private kind = 'speech';
  private rendered = '';

  constructor(
    private readonly sched: Scheduler,
    private readonly open: (url: string) => void,
    private readonly changed: () => void,
  ) {
    this.el = el('div');
    this.el.className = 'bubble';
    this.el.setAttribute('role', 'status');
    this.el.setAttribute('aria-live', 'polite');
    this.el.hidden = true;
    this.text = el('p');
    this.text.className = 'bubble-text';
    const close = el('button');
    close.type = 'button';
    close.className = 'bubble-close';
    close.setAttribute('aria-label', t('bubble.close'));
    close.textContent = '×';
    close.addEventListener('click', () => this.close());
    this.el.append(this.text, close);
    this.el.addEventListener('mouseenter', () => {
      this.hovered = true;
      this.clearTimer();
    });
    this.el.addEventListener('mouseleave', () => {
      this.hovered = false;
      this.armTimer();
    });
  }

  get visible(): boolean {
    return !this.el.hidden;
  }

  get pendingTimers(): number {
    return this.hideTimer ? 1 : 0;
  }

  apply(m: BubbleMsg): void {
    const text = stripEmoji(m.text ?? '');
    this.speaking = m.speaking && text !== '';
    if (text === '') {
      this.hide();
      return;
    }
    if (this.closedTurn !== null) {
      if (m.turn_id === this.closedTurn) return;
      this.closedTurn = null;
    }
    const kind = m.kind || 'speech';
    if (this.closedLine !== null) {
      if (lineKey(m.turn_id, kind, text) === this.closedLine) return; // the same line again (e.g. a replay)
      this.closedLine = null;
    }
    const fresh = this.rendered !== text || this.el.hidden;
    if (fresh) {
      this.text.replaceChildren(renderRichText(text, this.open));
      this.rendered = text;
    }
    this.turn = m.turn_id;
    this.kind = kind;
    this.el.dataset.seq = String(m.seq);
    this.el.dataset.kind = kind;
    this.el.dataset.muted = String(!!m.muted);
    this.el.dataset.speaking = String(this.speaking);
    this.el.hidden = false;
    this.clearTimer();
    this.armTimer();
    if (fresh) this.changed();
  }

  /** × : on speech, hidden for the rest of this reply; on a filler or
   * failure line, only that line is hidden. */
  close(): void {
    if (this.kind === 'speech') this.closedTurn = this.turn;
    else this.closedLine = lineKey(this.turn, this.kind, this.rendered);
    this.hide();
  }

  private hide(): void {
    this.clearTimer();
    if (this.el.hidden) return;
    this.el.hidden = true;
    this.hovered = false;
    this.changed();
  }

  private armTimer(): void {
    if (this.speaking || this.hovered || this.el.hidden || this.hideTimer) return;
    this.hideTimer = this.sched.setTimeout(() => {
      this.hideTimer = 0;
      this.hide();
    }, BUBBLE_HIDE_MS);
  }

  private clearTimer(): void {
    if (this.hideTimer) this.sched.clearTimeout(this.hideTimer);
    this.hideTimer = 0;
  }
}

const lineKey = (turn: string, kind: string, text: string): string => JSON.stringify([turn, kind, text]);
