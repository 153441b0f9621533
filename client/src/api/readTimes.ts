import type { Query, QueryClient, QueryFunctionContext, QueryKey } from '@tanstack/react-query';

/**
 * When the server began each answer (its `X-Read-At` header, its clock), so an event can be told
 * apart from what a read already holds: events carry when the server announced them (`at`, after the
 * commit), and a read begun later holds that change. This matters for events that come late (a
 * process cut off from the others replays them when it is back) and for reads racing an event.
 */
const answeredAt = new WeakMap<object, number>();

/** Called by the HTTP wrapper for every answer it parses. */
export function noteReadAt(body: unknown, header: string | null): void {
  const at = Number(header);
  if (typeof body === 'object' && body !== null && header && Number.isFinite(at)) answeredAt.set(body, at);
}

export const readAtOf = (body: unknown): number | undefined =>
  typeof body === 'object' && body !== null ? answeredAt.get(body) : undefined;

const queryReadAt = new WeakMap<Query, number>();

/**
 * A query function that remembers, for its query, when the server began the answer now held; `settle`
 * may then add to the answer what was announced after that (events that came while it was on its way).
 */
export function timed<T, K extends QueryKey>(
  read: (context: QueryFunctionContext<K>) => Promise<T>,
  settle?: (client: QueryClient, answer: T, readAt: number | undefined) => T,
) {
  return async (context: QueryFunctionContext<K>): Promise<T> => {
    const answer = await read(context);
    const query = context.client.getQueryCache().find({ queryKey: context.queryKey, exact: true });
    const at = readAtOf(answer);
    if (query && at !== undefined) queryReadAt.set(query, at);
    else if (query) queryReadAt.delete(query);
    return settle ? settle(context.client, answer, at) : answer;
  };
}

/** The query's data comes from a read the server began after the change was announced at `at`. */
export const holds = (query: Query, at: number | undefined): boolean =>
  at !== undefined && (queryReadAt.get(query) ?? Number.NEGATIVE_INFINITY) > at;

/**
 * Once the socket is in its rooms (its `last-change`): re-reads each shown query read before the last
 * change sent to them, which the socket was not there to hear. A read still on its way is judged when
 * it lands. Queries without a known read time (none of them live) are left alone.
 */
export function refreshReadsBefore(client: QueryClient, at: number): void {
  const readBefore = (query: Query) => {
    // Most answers are stored as they came, and remember their read time themselves.
    const read = queryReadAt.get(query) ?? readAtOf(query.state.data);
    return read !== undefined && read <= at;
  };
  const cache = client.getQueryCache();
  const landing = new Set(cache.findAll({ type: 'active', fetchStatus: 'fetching' }));
  void client.refetchQueries({ type: 'active', predicate: (query) => !landing.has(query) && readBefore(query) });
  if (landing.size === 0) return;
  const stop = cache.subscribe((event) => {
    // The cache's events type their query loosely (any).
    const query = event.query as Query;
    if (event.type !== 'updated' || !landing.has(query) || query.state.fetchStatus === 'fetching') return;
    landing.delete(query);
    if (event.action.type === 'success' && readBefore(query)) void client.refetchQueries({ queryKey: query.queryKey, exact: true });
    if (landing.size === 0) stop();
  });
}
