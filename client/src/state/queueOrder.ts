/**
 * The queue's last shown order (ticket ids, as sorted and filtered), kept for this browser tab, so
 * `j`/`k` on a ticket page still step through it after a reload or a deep link (docs/decisions.md#queue-order).
 */
const KEY = 'queue-order';

export function rememberQueueOrder(ids: number[]): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(ids));
  } catch {
    // Storage refused: j/k then follow the cached list only.
  }
}

export function lastQueueOrder(): number[] {
  try {
    const ids: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

/** The ticket `by` steps from `id` in that order, if any. */
export function stepInQueue(order: number[], id: number, by: number): number | undefined {
  const at = order.indexOf(id);
  return at === -1 ? undefined : order[at + by];
}
