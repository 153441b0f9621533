import type { Stamped } from '@helpdesk/protocol';
import type { Query, QueryClient, QueryFunctionContext, QueryKey } from '@tanstack/react-query';

/**
 * When the server began each answer and when it had read all of it (its `X-Read-At` and `X-Read-End`
 * headers, its clock), so an event can be told apart from what a read already holds. Events carry
 * when the server announced them (`at`, after the commit) and when it asked for the commit
 * (`committing`): a read begun after `at` holds the change, one ended before `committing` does not,
 * and one in between may or may not. This matters for events that come late (a process cut off from
 * the others replays them when it is back, seconds after reads that may hold them) and for reads
 * racing an event.
 */
interface ReadTimes {
  began: number;
  ended: number | undefined;
}
const answeredAt = new WeakMap<object, ReadTimes>();

const timeOf = (header: string | null): number | undefined => {
  const at = Number(header);
  return header && Number.isFinite(at) ? at : undefined;
};

/** Called by the HTTP wrapper for every answer it parses. */
export function noteReadAt(body: unknown, beganHeader: string | null, endedHeader: string | null = null): void {
  const began = timeOf(beganHeader);
  if (typeof body === 'object' && body !== null && began !== undefined) answeredAt.set(body, { began, ended: timeOf(endedHeader) });
}

const timesOf = (body: unknown): ReadTimes | undefined => (typeof body === 'object' && body !== null ? answeredAt.get(body) : undefined);

export const readAtOf = (body: unknown): number | undefined => timesOf(body)?.began;
export const readEndOf = (body: unknown): number | undefined => timesOf(body)?.ended;

const queryReadAt = new WeakMap<Query, ReadTimes>();

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
    const times = timesOf(answer);
    if (query && times) queryReadAt.set(query, times);
    else if (query) queryReadAt.delete(query);
    return settle ? settle(context.client, answer, times?.began) : answer;
  };
}

/** The query's data comes from a read the server began after the change was announced at `at`. */
export const holds = (query: Query, at: number | undefined): boolean =>
  at !== undefined && (queryReadAt.get(query)?.began ?? Number.NEGATIVE_INFINITY) > at;

/**
 * Asked once `holds` said no: the query's data comes from a read the server ended after the change's
 * commit was asked for, so it may hold the change, and moving it by the change could count it twice.
 * Only a new read is sure. Unknown times (an event or answer without them) say no, as before.
 */
export const mayHold = (query: Query, committing: number | undefined): boolean =>
  committing !== undefined && (queryReadAt.get(query)?.ended ?? Number.NEGATIVE_INFINITY) >= committing;

/** Queries asked to be read again once their read in flight lands. */
const rereads = new WeakSet<Query>();

/**
 * Reads the query again: now, or once the read in flight lands. That read is not cancelled, so a busy
 * stream of events cannot starve a page of its answer; the re-reads one read in flight is asked for
 * come to one.
 */
export function readAgain(client: QueryClient, query: Query): void {
  const again = () => void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
  if (query.state.fetchStatus !== 'fetching') {
    again();
    return;
  }
  if (rereads.has(query)) return;
  rereads.add(query);
  void Promise.resolve(query.promise)
    .catch(() => undefined)
    .finally(() => {
      rereads.delete(query);
      again();
    });
}

/**
 * The one verdict every cache writer asks before moving a query's data by an event's change: false
 * when the data holds the change already (its read began after `at`), and false, with the query read
 * again, when it may or may not (a read in flight, or one ended while the change was committing).
 * True: the data was read before the change, and moving it is exact.
 */
export function movable(client: QueryClient, query: Query, { at, committing }: Stamped): boolean {
  if (holds(query, at)) return false;
  if (query.state.fetchStatus === 'fetching' || mayHold(query, committing)) {
    readAgain(client, query);
    return false;
  }
  return true;
}

/**
 * When the server began the answer a query holds: its timed read's, else the answer's own (most are
 * stored as they came, and remember their read time themselves).
 */
export const readBeganAt = (query: Query): number | undefined => queryReadAt.get(query)?.began ?? readAtOf(query.state.data);

/**
 * Once the socket is in its rooms (its `last-change`): re-reads each shown query read before the last
 * change sent to them, which the socket was not there to hear. A read still on its way is judged when
 * it lands. Queries without a known read time (none of them live) are left alone.
 */
export function refreshReadsBefore(client: QueryClient, at: number): void {
  const readBefore = (query: Query) => {
    const read = readBeganAt(query);
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
