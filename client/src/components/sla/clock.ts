import { useCallback, useSyncExternalStore } from 'react';

/**
 * One ticking clock for the whole page: a single interval runs while at least one badge shows, however
 * many rows there are, and stops with the last one. Each reader derives what it shows from the time
 * (useClock's `derive`), and React re-renders it only when that derived value changes, so a queue of
 * countdowns re-renders once a minute per badge, not once a second.
 */

const TICK_MS = 1000;

let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function tick(): void {
  now = Date.now();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(tick, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The clock's time now; read when there is no subscriber yet, it is the present. */
const read = () => (timer === undefined ? Date.now() : now);

/** A value of the current time, re-rendered when it changes. `derive` must return a primitive (compared with Object.is). */
export function useClock<T extends string | number | boolean | null>(derive: (now: number) => T): T {
  const snapshot = useCallback(() => derive(read()), [derive]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** For tests: how many readers the shared clock has. */
export const clockReaders = () => listeners.size;
