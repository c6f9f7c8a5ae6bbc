// The page's one source of time: timers and the clock, injectable so tests
// can drive every delay (blink, mouth, bubble hide, chip ages) by hand.

export interface Scheduler {
  setTimeout(fn: () => void, ms: number): number;
  clearTimeout(id: number): void;
  random(): number;
  /** Epoch milliseconds. */
  now(): number;
}

export const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (id) => window.clearTimeout(id),
  random: Math.random,
  now: Date.now,
};

/** Whether the user asked for reduced motion, and a way to hear changes. */
export interface MotionPreference {
  reduced(): boolean;
  onChange(fn: () => void): void;
}

export function mediaMotionPreference(): MotionPreference {
  const mq = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;
  return {
    reduced: () => mq?.matches ?? false,
    onChange: (fn) => mq?.addEventListener?.('change', fn),
  };
}
