/**
 * The queue's last shown page (ticket ids, as sorted and filtered, and the list's query string), so
 * `j`/`k` on a ticket page still step through it after a reload or a deep link, and on past its ends
 * (docs/decisions.md#queue-order). This tab's own first; a tab opened on a link has none, so the last
 * one any tab of this browser showed.
 */
const KEY = 'queue-order';

export interface QueueOrder {
  ids: number[];
  /** The list's query as its address says it (`ticketQueryToUrl`); absent in what older builds kept. */
  query?: string;
}

const stores = (): Storage[] => {
  try {
    return [sessionStorage, localStorage];
  } catch {
    return [];
  }
};

export function rememberQueueOrder(ids: number[], query?: string): void {
  const value = JSON.stringify({ ids, query });
  for (const store of stores())
    try {
      store.setItem(KEY, value);
    } catch {
      // Storage refused: j/k then follow the cached list only.
    }
}

function read(store: Storage): QueueOrder | undefined {
  try {
    const kept: unknown = JSON.parse(store.getItem(KEY) ?? 'null');
    // Older builds kept the ids alone.
    const { ids, query } = (Array.isArray(kept) ? { ids: kept } : (kept ?? {})) as { ids?: unknown; query?: unknown };
    if (!Array.isArray(ids)) return undefined;
    return { ids: ids.filter((id): id is number => Number.isInteger(id)), ...(typeof query === 'string' && { query }) };
  } catch {
    return undefined;
  }
}

export function lastQueueOrder(): QueueOrder {
  for (const store of stores()) {
    const order = read(store);
    if (order) return order;
  }
  return { ids: [] };
}

/** The ticket `by` steps from `id` in that order, if any. */
export function stepInQueue(order: number[], id: number, by: number): number | undefined {
  const at = order.indexOf(id);
  return at === -1 ? undefined : order[at + by];
}

/** Whether `by` steps from `id` past the end of the page that holds it (where the next or previous page takes over). */
export const stepsOffPage = (order: number[], id: number, by: number): boolean => {
  const at = order.indexOf(id);
  return at !== -1 && (by > 0 ? at === order.length - 1 : at === 0);
};
