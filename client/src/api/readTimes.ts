import type { Query, QueryFunctionContext, QueryKey } from '@tanstack/react-query';

/**
 * When each cached read was sent, on this tab's clock. An event that reaches the tab late (a server
 * process replays it after being cut off from the others, with how long ago it happened) must not be
 * applied to data read since then: that read already holds the change.
 */
const sentAt = new WeakMap<Query, number>();

/** A monotonic clock: the wall clock may jump, and only differences matter here. */
export const now = () => performance.now();

/** A query function that remembers, once its read has succeeded, when that read was sent. */
export function timed<T, K extends QueryKey>(read: (context: QueryFunctionContext<K>) => Promise<T>) {
  return async (context: QueryFunctionContext<K>): Promise<T> => {
    const sent = now();
    const data = await read(context);
    const query = context.client.getQueryCache().find({ queryKey: context.queryKey, exact: true });
    if (query) sentAt.set(query, sent);
    return data;
  };
}

/** When the change an event carries happened, on this tab's clock: now, unless the event says it is late. */
export const happenedAt = (event: { delayMs?: number }): number => now() - (event.delayMs ?? 0);

/** The query's data comes from a read sent after the change happened, so it holds the change already. */
export const holds = (query: Query, at: number): boolean => (sentAt.get(query) ?? Number.NEGATIVE_INFINITY) >= at;
