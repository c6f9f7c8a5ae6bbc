// The usage readout: "1.3k / 128k" — how much of what the model can read
// at once the last reply used (the context window unknown: "1.3k used").
// The words "token" and "context window" stay in its tooltip, explained.
// Hidden until the first usage arrives.

import './usage.css';
import { el } from './dom';
import { language, t } from './i18n';
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
    this.el.textContent = cw > 0 ? `${compact(total)} / ${compact(cw)}` : t('usage.used', { n: compact(total) });
    const num = (n: number) => n.toLocaleString(language());
    this.el.title = cw > 0
      ? t('usage.window_tip', { pct: String(Math.round((total / cw) * 100)), n: num(total), max: num(cw) })
      : t('usage.reply_tip', { n: num(total) });
    this.el.setAttribute('aria-label', t('usage.label', { text: this.el.title }));
  }
}
