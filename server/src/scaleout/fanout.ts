import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Redis } from 'ioredis';
import { isRedisReady } from './redis.js';

/**
 * How an emit reaches sockets. In one process that is Socket.IO's in-memory adapter; with Redis, the
 * streams adapter carries each emit to every process. Its broadcast waits for Redis before delivering
 * locally, so while Redis is away emits go to this process's sockets at once instead.
 */
export interface Fanout {
  adapter?: ReturnType<typeof createAdapter>;
  /** False while emits can reach only this process. */
  crossProcess(): boolean;
  /** Called each time cross-process delivery starts after a time without it (an outage, or a slow start). */
  onResume(listener: () => void): void;
}

export const singleProcess: Fanout = { crossProcess: () => false, onResume: () => undefined };

export function redisFanout(redis: Redis, keyPrefix: string): Fanout {
  // ioredis says "reconnecting" after every failed or lost connection, including failed first tries.
  let missed = false;
  const listeners: Array<() => void> = [];
  redis.on('reconnecting', () => (missed = true));
  redis.on('ready', () => {
    if (missed) listeners.forEach((listener) => listener());
    missed = false;
  });
  return {
    adapter: createAdapter(redis, {
      streamName: `${keyPrefix}:socket.io`,
      channelPrefix: `${keyPrefix}:socket.io`,
      sessionKeyPrefix: `${keyPrefix}:socket.io:session:`,
    }),
    crossProcess: () => isRedisReady(redis),
    onResume: (listener) => listeners.push(listener),
  };
}
