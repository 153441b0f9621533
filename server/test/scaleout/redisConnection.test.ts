import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { createLogger } from '../../src/lib/logger.js';
import { connectRedis, firstAttempt } from '../../src/scaleout/redis.js';
import { startTcpProxy, upstreamOf, type TcpProxy } from '../tcpProxy.js';
import { sharedServices } from './cluster.js';

/** Each test's connection and the proxy it may go through, closed after it. */
let proxy: TcpProxy | undefined;
let redis: Redis | undefined;

afterEach(async () => {
  redis?.disconnect();
  await proxy?.close();
  redis = proxy = undefined;
});

/** What a Redis connection tells the operator: a loss and a return, and nothing when the process closes it. */
describe('a Redis connection’s log', () => {
  const logged = () => {
    const lines: { level: number; msg: string; connection: string }[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    return { lines, logger, messages: () => lines.map((line) => line.msg) };
  };

  it('says the connection was lost when Redis goes away, and connected again when it returns', async () => {
    const { lines, logger, messages } = logged();
    proxy = await startTcpProxy(upstreamOf(sharedServices().redisUrl, 6379));
    redis = connectRedis(proxy.url(sharedServices().redisUrl), 'presence', logger);
    await once(redis, 'ready');
    expect(messages()).toEqual(['redis connected: presence is shared']);

    proxy.cut();
    await expect.poll(messages).toContain('redis connection lost: presence updates are dropped until it returns');
    const lost = lines.find((line) => line.msg.startsWith('redis connection lost'))!;
    expect(lost).toMatchObject({ level: 40, connection: 'presence' });

    proxy.restore();
    await expect
      .poll(messages, { timeout: 10_000 })
      .toEqual([
        'redis connected: presence is shared',
        'redis connection lost: presence updates are dropped until it returns',
        'redis connected: presence is shared',
      ]);
  });

  it('logs no loss when the process closes the connection itself (a shutdown)', async () => {
    const { messages, logger } = logged();
    redis = connectRedis(sharedServices().redisUrl, 'events', logger);
    await once(redis, 'ready');
    const ended = once(redis, 'end');
    redis.disconnect();
    await ended;
    expect(messages()).toEqual(['redis connected: live events reach every server process']);
  });
});

/** A server serves once its Redis connections are up, or once Redis has been found away. */
describe('a Redis connection’s first attempt', () => {
  it('ends with the connection ready when Redis is there', async () => {
    redis = connectRedis(sharedServices().redisUrl, 'rate-limits', createLogger('silent'));
    await firstAttempt(redis, 10_000);
    expect(redis.status).toBe('ready');
  });

  it('ends at the first failed attempt, long before its bound, when Redis cannot be reached', async () => {
    proxy = await startTcpProxy(upstreamOf(sharedServices().redisUrl, 6379));
    proxy.cut();
    redis = connectRedis(proxy.url(sharedServices().redisUrl), 'rate-limits', createLogger('silent'));
    const started = performance.now();
    await firstAttempt(redis, 10_000);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(redis.status).not.toBe('ready');

    proxy.restore();
    await once(redis, 'ready');
    await firstAttempt(redis, 10_000);
  });
});
