// The delegations chip: the count of running background items; a click
// opens the list (title, running/done, age, status, summary expandable on
// click). Ages are computed when the list opens and refreshed once a minute
// only while it is open — no timer otherwise.

import './chip.css';
import { el } from './dom';
import type { DelegationItem, Delegations } from './protocol';
import type { Scheduler } from './scheduler';

export const AGE_REFRESH_MS = 60_000;

export function age(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return 'just now';
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h`;
  return `${Math.floor(h / 24)} d`;
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
    this.list.setAttribute('aria-label', 'Background tasks');
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
    const tasks = (n: number) => `${n} background task${n === 1 ? '' : 's'}`;
    const what = running > 0 ? `${tasks(running)} running` + (done ? `, ${done} done` : '') : `${tasks(done)} done`;
    this.chip.setAttribute('aria-label', `${what}: show the list`);
    // The chip itself shows the count and ✓. A tooltip with the count went
    // stale: WebKitGTK keeps a tooltip's text while it is up, so it said
    // "1 background task running" after the task was done (issue 21).
    this.chip.title = 'Background tasks: click for the list';
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
        el('span', 'delegation-title', it.title || '(untitled)'),
        el('span', 'delegation-age', it.state === 'running' ? age(now - it.started_at) : age(now - (it.ended_at ?? it.started_at))),
      );
      const stateText = it.state === 'running' ? 'running' : failed ? 'failed' : it.status === 'unknown' ? 'done (unknown)' : 'done';
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
    this.list.replaceChildren(el('h2', 'delegations-title', 'Background tasks'), ul);
  }
}

