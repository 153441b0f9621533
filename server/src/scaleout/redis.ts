import { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';

export type RedisRole = 'events' | 'rate-limits' | 'presence' | 'memo';

/**
 * A Redis connection that reconnects on its own for as long as the process lives. Only changes of
 * state are logged, so an outage is two lines, not one per retry, and a shutdown none.
 *
 * - `events` (the Socket.IO adapter, and the readers it duplicates from it): commands wait for Redis
 *   however long it is away. The adapter leaves some of its promises unhandled, so a command that
 *   gave up would end the process; the publisher does not wait, it checks `isRedisReady` first.
 * - `rate-limits`: commands fail fast, and the limiter then counts in memory.
 * - `presence`: commands fail fast; presence is best-effort and catches up at the next heartbeat.
 * - `memo`: commands fail fast and give up after a second; kept answers are then not trusted, and a
 *   write waits at most its process's lease (scaleout/sharedVersions.ts).
 */
const CONNECTED: Record<RedisRole, string> = {
  events: 'redis connected: live events reach every server process',
  'rate-limits': 'redis connected: rate limits are shared',
  presence: 'redis connected: presence is shared',
  memo: 'redis connected: kept answers are shared',
};
const LOST: Record<RedisRole, string> = {
  events: 'redis connection lost: live events reach this process only until it returns',
  'rate-limits': 'redis connection lost: rate limits count per process until it returns',
  presence: 'redis connection lost: presence updates are dropped until it returns',
  memo: 'redis connection lost: no answer is kept until it returns',
};

/** Longest a memo command may take; a kept answer is then not trusted. */
const MEMO_COMMAND_TIMEOUT_MS = 1000;

export function connectRedis(url: string, role: RedisRole, logger: Logger): Redis {
  const log = logger.child({ component: 'redis', connection: role });
  const redis = new Redis(url, {
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    maxRetriesPerRequest: role === 'events' ? null : 1,
    enableOfflineQueue: role === 'events',
    connectionName: `helpdesk:${role}`,
    ...(role === 'memo' && { commandTimeout: MEMO_COMMAND_TIMEOUT_MS }),
  });
  let up = false;
  redis.on('ready', () => {
    up = true;
    log.info(CONNECTED[role]);
  });
  // 'reconnecting', not 'close': a connection this process closes on shutdown closes too, and an
  // operator must not read every deploy as an outage. Every loss is retried (retryStrategy), so
  // each one that was not asked for reaches 'reconnecting'.
  redis.on('reconnecting', () => {
    if (!up) return;
    up = false;
    log.warn(LOST[role]);
  });
  redis.on('error', (error) => log.debug({ err: error }, 'redis error'));
  return redis;
}

export const isRedisReady = (redis: Redis) => redis.status === 'ready';

/**
 * Resolves once the connection is ready or its first attempt has failed, at most `timeoutMs` later.
 * A process that served before its connections were up would count its first rate-limit points in
 * its own memory, and the budget the processes share would come up short; Redis away at start still
 * starts the process, one failed attempt later.
 */
export function firstAttempt(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready' || redis.status === 'reconnecting' || redis.status === 'end') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      for (const event of SETTLING) redis.off(event, done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    for (const event of SETTLING) redis.once(event, done);
  });
}

const SETTLING = ['ready', 'reconnecting', 'end'] as const;
