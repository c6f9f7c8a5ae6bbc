// The delegations chip: the count of running background items; a click
// opens the list (title, running/done, age, status, summary expandable on
// click). Ages are computed when the list opens and refreshed once a minute
// only while it is open — no timer otherwise.

import './chip.css';
import { el } from './dom';
import type { DelegationItem, Delegations } from './protocol';
import type { Scheduler } from './scheduler';
import { plural, t } from './i18n';

export const AGE_REFRESH_MS = 60_000;

export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return t('time.just_now');
  const m = Math.floor(s / 60);
  if (m < 60) return t('time.min', { n: String(m) });
  const h = Math.floor(m / 60);
  if (h < 24) return t('time.hour', { n: String(h) });
  return t('time.day', { n: String(Math.floor(h / 24)) });
}

export class DelegationsChip {
  readonly chip: HTMLButtonElement;
  readonly list: HTMLElement;
  private items: DelegationItem[] = [];
  private readonly expanded = new Set<string>();
  private ageTimer = 0;

  constructor(private readonly sched: Scheduler, private readonly changed: () => void) {
    this.chip = el('button');
    this.chip.type = 'button';
    this.chip.className = 'chip';
    this.chip.hidden = true;
    this.chip.setAttribute('aria-expanded', 'false');
    this.chip.setAttribute('aria-controls', 'yui-delegations');
    this.chip.addEventListener('click', () => this.setOpen(!this.open));
    this.list = el('section');
    this.list.className = 'delegations';
    this.list.id = 'yui-delegations';
    this.list.setAttribute('aria-label', t('chip.title'));
    this.list.hidden = true;
    this.list.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.setOpen(false);
    });
  }

  get open(): boolean {
    return !this.list.hidden;
  }

  get pendingTimers(): number {
    return this.ageTimer ? 1 : 0;
  }

  apply(m: Delegations): void {
    this.items = Array.isArray(m.items) ? m.items : [];
    const running = this.items.filter((i) => i.state === 'running').length;
    const done = this.items.length - running;
    this.chip.hidden = this.items.length === 0;
    this.chip.dataset.state = running > 0 ? 'running' : 'done';
    this.chip.dataset.count = String(running);
    this.chip.replaceChildren(
      el('span', 'chip-mark', running > 0 ? '' : '✓'),
      el('span', 'chip-count', String(running > 0 ? running : done)),
    );
    const runningText = plural(running, 'chip.running_one', 'chip.running');
    const what = running > 0 ? (done ? t('chip.also_done', { text: runningText, n: String(done) }) : runningText)
      : plural(done, 'chip.done_one', 'chip.done');
    this.chip.setAttribute('aria-label', t('chip.show_list', { text: what }));
    // The chip itself shows the count and ✓. A tooltip with the count went
    // stale: WebKitGTK keeps a tooltip's text while it is up, so it said
    // "1 background task running" after the task was done (issue 21).
    this.chip.title = t('chip.tip');
    if (this.items.length === 0) this.setOpen(false);
    else if (this.open) this.render();
    this.changed();
  }

  setOpen(open: boolean): void {
    if (open && this.items.length === 0) open = false;
    const was = this.open;
    this.list.hidden = !open;
    this.chip.setAttribute('aria-expanded', String(open));
    if (open) {
      this.render();
      this.armAges();
    } else {
      if (this.ageTimer) this.sched.clearTimeout(this.ageTimer);
      this.ageTimer = 0;
    }
    if (was !== open) this.changed();
  }

  private armAges(): void {
    if (this.ageTimer) this.sched.clearTimeout(this.ageTimer);
    this.ageTimer = this.sched.setTimeout(() => {
      this.ageTimer = 0;
      if (!this.open) return;
      this.render();
      this.armAges();
    }, AGE_REFRESH_MS);
  }

  private render(): void {
    const now = this.sched.now();
    const ul = el('ul');
    for (const it of this.items) {
      const li = el('li');
      li.className = 'delegation';
      li.dataset.id = it.id;
      li.dataset.state = it.state;
      const failed = it.state === 'done' && it.status === 'error';
      const head = el('div', 'delegation-head');
      head.append(
        el('span', 'delegation-title', it.title || t('settings.history.untitled')),
        el('span', 'delegation-age', it.state === 'running' ? age(now - it.started_at) : age(now - (it.ended_at ?? it.started_at))),
      );
      const stateText = it.state === 'running' ? t('settings.history.running') : failed ? t('settings.history.failed')
        : it.status === 'unknown' ? t('chip.done_unknown') : t('settings.history.done');
      const badge = el('span', 'delegation-state', stateText);
      badge.dataset.state = failed ? 'failed' : it.state;
      li.append(head, badge);
      if (it.summary) {
        const sum = el('button', 'delegation-summary', it.summary) as HTMLButtonElement;
        sum.type = 'button';
        const open = this.expanded.has(it.id);
        sum.dataset.expanded = String(open);
        sum.setAttribute('aria-expanded', String(open));
        sum.addEventListener('click', () => {
          if (this.expanded.has(it.id)) this.expanded.delete(it.id);
          else this.expanded.add(it.id);
          this.render();
          this.changed();
        });
        li.append(sum);
      }
      ul.append(li);
    }
    this.list.replaceChildren(el('h2', 'delegations-title', t('chip.title')), ul);
  }
}

