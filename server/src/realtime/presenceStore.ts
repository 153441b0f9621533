import type { Redis } from 'ioredis';
import type { PresenceViewer } from '@helpdesk/protocol';

/** One socket on one ticket, as stored: who, whether typing (and since when), when last heard of. */
export interface PresenceEntry {
  id: number;
  name: string;
  typing: boolean;
  typingAt: number;
  seenAt: number;
}

/**
 * Where presence lives: in memory for one process, in Redis when several share it. Entries are per
 * socket and carry the time they were last refreshed; a reader drops those older than the TTL, so a
 * process that dies leaves nothing behind for longer than that.
 */
export interface PresenceStore {
  put(ticketId: number, socketId: string, entry: PresenceEntry): Promise<void>;
  /** Refreshes `seenAt` of many entries at once (the heartbeat). */
  touch(entries: { ticketId: number; socketId: string; entry: PresenceEntry }[]): Promise<void>;
  remove(ticketId: number, socketId: string): Promise<void>;
  /** The live entries of a ticket; stale ones are deleted on the way, and reported. */
  read(ticketId: number, now: number): Promise<{ entries: PresenceEntry[]; pruned: boolean }>;
  /** Every ticket that has any entry, live or stale. */
  tickets(): Promise<number[]>;
}

/** One viewer per person however many tabs they have open; typing in any of them counts. */
export function viewersOf(entries: PresenceEntry[], now: number, typingTtlMs: number): PresenceViewer[] {
  const byUser = new Map<number, PresenceViewer>();
  for (const e of entries) {
    const typing = e.typing && now - e.typingAt < typingTtlMs;
    const seen = byUser.get(e.id);
    if (seen) seen.typing ||= typing;
    else byUser.set(e.id, { id: e.id, name: e.name, typing });
  }
  return [...byUser.values()].sort((a, b) => a.id - b.id);
}

export function memoryPresenceStore(ttlMs: number): PresenceStore {
  const tickets = new Map<number, Map<string, PresenceEntry>>();
  const read = (ticketId: number, now: number) => {
    const entries = tickets.get(ticketId);
    if (!entries) return { entries: [], pruned: false };
    let pruned = false;
    for (const [socketId, e] of entries) {
      if (now - e.seenAt > ttlMs) {
        entries.delete(socketId);
        pruned = true;
      }
    }
    if (entries.size === 0) tickets.delete(ticketId);
    return { entries: [...entries.values()], pruned };
  };
  return {
    put: (ticketId, socketId, entry) => {
      let entries = tickets.get(ticketId);
      if (!entries) tickets.set(ticketId, (entries = new Map<string, PresenceEntry>()));
      entries.set(socketId, entry);
      return Promise.resolve();
    },
    touch: (list) => {
      for (const { ticketId, socketId, entry } of list) tickets.get(ticketId)?.set(socketId, entry);
      return Promise.resolve();
    },
    remove: (ticketId, socketId) => {
      const entries = tickets.get(ticketId);
      entries?.delete(socketId);
      if (entries?.size === 0) tickets.delete(ticketId);
      return Promise.resolve();
    },
    read: (ticketId, now) => Promise.resolve(read(ticketId, now)),
    tickets: () => Promise.resolve([...tickets.keys()]),
  };
}

/**
 * A hash per ticket (field: socket id) plus a set of tickets with viewers. The hash itself expires a
 * TTL after its last write, so even a ticket nobody sweeps any more leaves no key behind.
 */
export function redisPresenceStore(redis: Redis, keyPrefix: string, ttlMs: number): PresenceStore {
  const ticketsKey = `${keyPrefix}:presence:tickets`;
  const keyOf = (ticketId: number) => `${keyPrefix}:presence:ticket:${ticketId}`;
  const parse = (raw: string): PresenceEntry | undefined => {
    try {
      return JSON.parse(raw) as PresenceEntry;
    } catch {
      return undefined;
    }
  };
  return {
    async put(ticketId, socketId, entry) {
      await redis
        .multi()
        .hset(keyOf(ticketId), socketId, JSON.stringify(entry))
        .pexpire(keyOf(ticketId), ttlMs)
        .sadd(ticketsKey, String(ticketId))
        .exec();
    },
    async touch(list) {
      if (list.length === 0) return;
      const batch = redis.multi();
      for (const { ticketId, socketId, entry } of list) {
        batch.hset(keyOf(ticketId), socketId, JSON.stringify(entry)).pexpire(keyOf(ticketId), ttlMs).sadd(ticketsKey, String(ticketId));
      }
      await batch.exec();
    },
    async remove(ticketId, socketId) {
      await redis.hdel(keyOf(ticketId), socketId);
    },
    async read(ticketId, now) {
      const all = await redis.hgetall(keyOf(ticketId));
      const live: PresenceEntry[] = [];
      const stale: string[] = [];
      for (const [socketId, raw] of Object.entries(all)) {
        const entry = parse(raw);
        if (entry && now - entry.seenAt <= ttlMs) live.push(entry);
        else stale.push(socketId);
      }
      if (stale.length > 0) await redis.hdel(keyOf(ticketId), ...stale);
      // The hash expires on its own when nobody refreshed it (every writer died): still a change to announce.
      const unlisted = live.length === 0 ? await redis.srem(ticketsKey, String(ticketId)) : 0;
      return { entries: live, pruned: stale.length > 0 || unlisted > 0 };
    },
    async tickets() {
      return (await redis.smembers(ticketsKey)).map(Number).filter((n) => Number.isInteger(n) && n > 0);
    },
  };
}
