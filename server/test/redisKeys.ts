import { Redis } from 'ioredis';

/** Removes what server processes left under their REDIS_KEY_PREFIX (the adapter's stream, sessions, limits). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    await redis.connect();
    // SCAN, not KEYS: the Redis may be shared and large.
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) deleted += await redis.del(...keys);
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}
