// The token readout: "1.3k / 128k" (context window 0 = unknown: tokens
// only). Hidden until the first usage arrives.

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
    this.el.textContent = cw > 0 ? `${compact(total)} / ${compact(cw)}` : `${compact(total)} tokens`;
    const pct = cw > 0 ? ` (${Math.round((total / cw) * 100)} % of the context window)` : '';
    this.el.title = `${total.toLocaleString('en')} tokens in the last call${pct}`;
    this.el.setAttribute('aria-label', `Token usage: ${this.el.title}`);
  }
}
