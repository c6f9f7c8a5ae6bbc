// Test doubles shared by the unit tests (not part of the page bundle).
import type { MotionPreference, Scheduler } from './scheduler';

/** A scheduler whose clock only moves when a test advances it. */
export class FakeScheduler implements Scheduler {
  time = 1_789_365_000_000;
  private next = 1;
  timers = new Map<number, { at: number; fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.time + ms, fn, ms });
    return id;
  }
  clearTimeout(id: number): void {
    this.timers.delete(id);
  }
  random(): number {
    return 0.5;
  }
  now(): number {
    return this.time;
  }
  /** The delays of the armed timers, sorted. */
  get delays(): number[] {
    return [...this.timers.values()].map((t) => t.ms).sort((a, b) => a - b);
  }
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= end && (!due || e[1].at < due[1].at)) due = e;
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = end;
  }
}

export class FakeMotion implements MotionPreference {
  private fns: Array<() => void> = [];
  constructor(public value = false) {}
  reduced(): boolean {
    return this.value;
  }
  onChange(fn: () => void): void {
    this.fns.push(fn);
  }
  set(v: boolean): void {
    this.value = v;
    for (const f of this.fns) f();
  }
}
