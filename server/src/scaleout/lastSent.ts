import type { Redis } from 'ioredis';

/**
 * When each room was last sent a change (the event's `at`, milliseconds on the sender's clock). A
 * socket that joins its rooms tells its client the latest of them (`last-change`), so a page whose
 * reads began before a change it never heard of, because the socket was not there yet, reads again;
 * a page whose reads began later keeps them (docs/decisions.md#a-fresh-load-misses-nothing).
 */
export interface LastSent {
  note(rooms: readonly string[], at: number): void;
  /** The latest time any of the rooms was sent a change; null if never. When unknown, now: every earlier read is doubted. */
  latest(rooms: readonly string[]): Promise<number | null>;
}

/** One process: a map in memory, one entry per room that was ever sent to. */
export function memoryLastSent(): LastSent {
  const times = new Map<string, number>();
  return {
    note(rooms, at) {
      for (const room of rooms) times.set(room, Math.max(times.get(room) ?? 0, at));
    },
    latest: (rooms) => Promise.resolve(latestOf(rooms.map((room) => times.get(room)))),
  };
}

/** Keeps the larger of the stored time and each new one (ARGV in the rooms' order): processes may note out of order. */
const NOTE_LATEST = `
for i, room in ipairs(KEYS) do
  if i > 1 then
    local held = tonumber(redis.call('HGET', KEYS[1], room) or '0')
    if tonumber(ARGV[i - 1]) > held then redis.call('HSET', KEYS[1], room, ARGV[i - 1]) end
  end
end`;

/**
 * Several processes: one Redis hash for all, on a connection that fails fast. A note lost while
 * Redis is away costs nothing extra: the clients reconnect and re-read everything when it returns.
 */
export function redisLastSent(redis: Redis, keyPrefix: string): LastSent {
  const key = `${keyPrefix}:last-sent`;
  // Sent once and then called by its hash (EVALSHA): a note goes out with every event.
  const noted = redis as Redis & { noteLatest(...args: string[]): Promise<unknown> };
  if (!('noteLatest' in redis)) redis.defineCommand('noteLatest', { lua: NOTE_LATEST });
  // The notes of one turn of the event loop go out in one call: a scanner batch announces hundreds of
  // marks, each to the same few rooms.
  const pending = new Map<string, number>();
  const flush = () => {
    const rooms = [...pending.keys()];
    const times = [...pending.values()].map(String);
    pending.clear();
    // The hash is passed as the first "key", the rooms after it, so the script needs no string building.
    noted.noteLatest(String(rooms.length + 1), key, ...rooms, ...times).catch(() => undefined);
  };
  return {
    note(rooms, at) {
      if (pending.size === 0 && rooms.length > 0) setImmediate(flush);
      for (const room of rooms) pending.set(room, Math.max(pending.get(room) ?? 0, at));
    },
    async latest(rooms) {
      if (rooms.length === 0) return null;
      // A note not sent yet counts: a socket joining in that turn must not miss the change it is about.
      const waiting = rooms.map((room) => pending.get(room));
      try {
        const held = (await redis.hmget(key, ...rooms)).map((value) => (value === null ? undefined : Number(value)));
        return latestOf([...held, ...waiting]);
      } catch {
        return Date.now();
      }
    },
  };
}

const latestOf = (times: (number | undefined)[]): number | null => {
  const known = times.filter((time): time is number => time !== undefined && Number.isFinite(time));
  return known.length === 0 ? null : Math.max(...known);
};
