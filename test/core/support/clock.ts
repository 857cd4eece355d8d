/**
 * The one clock the use cases are handed (`now`), frozen: time moves only when a test moves it,
 * so lease expiries, in-flight windows and retry schedules are exact. Timeouts of calls to the
 * acquirer are real timers (lib/core/deadline.ts); core tests keep them at a few milliseconds.
 */
export interface FrozenClock {
  now: () => number;
  advance(ms: number): number;
  set(at: number): void;
}

/** 2026-06-01T10:00:00Z: before every test card's expiry. */
export const T0 = Date.UTC(2026, 5, 1, 10, 0, 0);

export function frozenClock(start: number = T0): FrozenClock {
  let at = start;
  return {
    now: () => at,
    advance(ms) {
      at += ms;
      return at;
    },
    set(value) {
      at = value;
    },
  };
}
