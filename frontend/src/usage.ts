// The usage readout: "1.3k / 128k" — how much of what the model can read
// at once the last reply used (the context window unknown: "1.3k used").
// The words "token" and "context window" stay in its tooltip, explained.
// Hidden until the first usage arrives.

import './usage.css';
import { el } from './dom';
import type { Usage } from './protocol';

export function compact(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  if (n < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

export class UsageReadout {
  readonly el: HTMLElement;

  constructor() {
    this.el = el('div');
    this.el.className = 'usage';
    this.el.hidden = true;
  }

  apply(m: Usage): void {
    const total = m.total_tokens || 0;
    this.el.hidden = total <= 0;
    if (total <= 0) return;
    const cw = m.context_window || 0;
    this.el.textContent = cw > 0 ? `${compact(total)} / ${compact(cw)}` : `${compact(total)} used`;
    this.el.title = cw > 0
      ? `The conversation is ${Math.round((total / cw) * 100)} % of what the model can read at once `
        + `(${total.toLocaleString('en')} of ${cw.toLocaleString('en')} tokens — pieces of words; the context window). `
        + 'Older messages are left out when it is full.'
      : `The last reply took ${total.toLocaleString('en')} tokens (pieces of words). `
        + 'Set the model’s context window in Settings to see how full the conversation is.';
    this.el.setAttribute('aria-label', `Conversation size: ${this.el.title}`);
  }
}
