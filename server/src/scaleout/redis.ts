import { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';

/**
 * The shared Redis connection. It reconnects on its own for as long as the process lives; the
 * socket adapter and the rate limiters ask `status` and fall back to this process while it is away.
 * Only changes of state are logged, so an outage is two lines, not one per retry.
 */
export function connectRedis(url: string, logger: Logger): Redis {
  const log = logger.child({ component: 'redis' });
  const redis = new Redis(url, {
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // A command queued while disconnected fails after a few reconnect attempts instead of waiting forever.
    maxRetriesPerRequest: 3,
    connectionName: 'helpdesk',
  });
  let up = false;
  redis.on('ready', () => {
    up = true;
    log.info('redis connected: live events reach every server process');
  });
  redis.on('close', () => {
    if (!up) return;
    up = false;
    log.warn('redis connection lost: live events reach this process only until it returns');
  });
  redis.on('error', (error) => log.debug({ err: error }, 'redis error'));
  return redis;
}

export const isRedisReady = (redis: Redis) => redis.status === 'ready';
