/**
 * What this process delivered to its own sockets alone while Redis was away, kept for the other
 * processes' sockets, which get it when Redis returns. Bounded: past `limit` entries the log only
 * remembers that it overflowed, and the other processes' clients must then read everything again.
 */
export interface HeldBack<T> {
  add(item: T): void;
  /** Everything held, oldest first; empties the log. */
  drain(): { items: T[]; overflowed: boolean };
}

/** A few minutes of a busy desk's changes; each entry is one event, a few kB at most. */
export const HELD_BACK_LIMIT = 1_000;

export function heldBackLog<T>(limit = HELD_BACK_LIMIT): HeldBack<T> {
  let items: T[] = [];
  let overflowed = false;
  return {
    add(item) {
      if (overflowed) return;
      if (items.length >= limit) {
        overflowed = true;
        items = [];
        return;
      }
      items.push(item);
    },
    drain() {
      const drained = { items, overflowed };
      items = [];
      overflowed = false;
      return drained;
    },
  };
}
