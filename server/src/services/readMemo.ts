import { createRecentlyUsed } from '../lib/recentlyUsed.js';
import type { ServiceContext } from './context.js';

/**
 * Keeps the answer of a costly read until this process's next write ends, sharing one read among
 * callers that ask at the same time. It is exact only while this process is the database's only
 * writer: the embedded database, or PostgreSQL served by one process. With several processes (Redis
 * configured) it is turned off, since their writes never pass through here (docs/decisions.md#scale).
 */
export interface ReadMemo<T> {
  (key: string, read: () => Promise<T>): Promise<T>;
}

export function createReadMemo<T>(
  { writesEnded, settings }: { writesEnded: ServiceContext['writesEnded']; settings: Pick<ServiceContext['settings'], 'redisUrl'> },
  size: number,
): ReadMemo<T> {
  const enabled = !settings.redisUrl;
  const entries = createRecentlyUsed<string, { writes: number; value: Promise<T> }>(size);
  return (key, read) => {
    if (!enabled) return read();
    // Taken before the read starts: a write ending during the read makes the entry stale at once.
    const writes = writesEnded();
    const hit = entries.get(key);
    if (hit?.writes === writes) return hit.value;
    const value = read();
    entries.set(key, { writes, value });
    value.catch(() => {
      if (entries.get(key)?.value === value) entries.delete(key);
    });
    return value;
  };
}
