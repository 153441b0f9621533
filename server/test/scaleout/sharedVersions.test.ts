import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/lib/logger.js';
import { connectRedis } from '../../src/scaleout/redis.js';
import { sharedVersions, type SharedVersionsOptions } from '../../src/scaleout/sharedVersions.js';
import type { TableVersions, Versions } from '../../src/db/tableVersions.js';
import { deleteRedisKeys } from '../redisKeys.js';
import { startTcpProxy, upstreamOf, type TcpProxy } from '../tcpProxy.js';
import { sharedServices } from './cluster.js';

/**
 * The table versions two processes share through Redis, each on its own connection (one through a
 * proxy the test can cut), with leases short enough to watch them lapse.
 */
describe('table versions shared through Redis', () => {
  const { redisUrl } = sharedServices();
  const prefix = `helpdesk-test-${randomBytes(4).toString('hex')}`;
  const OPTIONS: SharedVersionsOptions = { leaseMs: 300, renewEveryMs: 75, evictAfterMs: 1_500 };
  const opened: Array<{ versions: TableVersions; redis: Redis }> = [];
  const proxies: TcpProxy[] = [];

  const open = async (through?: TcpProxy) => {
    // The connection the server uses for the memo: fails fast, gives up after a second.
    const redis = connectRedis(through ? through.url(redisUrl) : redisUrl, 'memo', createLogger('silent'));
    await new Promise((resolve) => redis.once('ready', resolve));
    const versions = sharedVersions(redis, prefix, OPTIONS);
    opened.push({ versions, redis });
    return versions;
  };
  const current = async (versions: TableVersions): Promise<Versions | undefined> => versions.current();
  /** Waits until `versions` trusts the shared versions again (every lease held). */
  const trusted = async (versions: TableVersions) => {
    await expect.poll(async () => (await current(versions)) !== undefined, { timeout: 5_000, interval: 25 }).toBe(true);
    return (await current(versions)) as Versions;
  };

  afterEach(async () => {
    for (const { versions, redis } of opened.splice(0)) {
      await versions.stop?.();
      redis.disconnect();
    }
    for (const proxy of proxies.splice(0)) await proxy.close();
    await deleteRedisKeys(redisUrl, prefix);
  });
  afterAll(() => deleteRedisKeys(redisUrl, prefix));

  it('shows one process’s bump to the other, for the tables bumped only', async () => {
    const a = await open();
    const b = await open();
    const before = await trusted(b);
    await a.bump(new Set(['tickets']));
    const after = await trusted(b);
    expect(after.of('tickets')).toBe(before.of('tickets') + 1);
    expect(after.of('articles')).toBe(before.of('articles'));
    expect(after.stamp).toBe(before.stamp + 1);
  });

  it('answers a write of a process cut from Redis only once no process trusts a kept answer, and bumps all on its return', async () => {
    const proxy = await startTcpProxy(upstreamOf(redisUrl, 6379));
    proxies.push(proxy);
    const a = await open(proxy);
    const b = await open();
    await trusted(a);
    const before = await trusted(b);

    proxy.cut();
    const started = Date.now();
    await a.bump(new Set(['tickets'])); // never throws
    expect(Date.now() - started).toBeLessThan(OPTIONS.leaseMs + 1_000);
    // The bump did not reach Redis, and B knows better than to trust what it kept.
    expect(await current(b)).toBeUndefined();
    expect(await current(a)).toBeUndefined();

    proxy.restore();
    const after = await trusted(b);
    expect(after.of('*')).toBeGreaterThan(before.of('*'));
  });

  it('drops the lease of a process gone silent for longer than the eviction time, bumping every table', async () => {
    const a = await open();
    const b = await open();
    const before = await trusted(b);
    // A stops renewing without a goodbye, as a crash would.
    const gone = opened.find((o) => o.versions === a);
    gone?.redis.disconnect();
    await sleep(OPTIONS.leaseMs + 100);
    expect(await current(b)).toBeUndefined();
    const after = await trusted(b);
    expect(after.of('*')).toBeGreaterThan(before.of('*'));
  });

  it('keeps nothing while Redis cannot be reached, and never fails a write', async () => {
    const proxy = await startTcpProxy(upstreamOf(redisUrl, 6379));
    proxies.push(proxy);
    const a = await open(proxy);
    await trusted(a);
    proxy.cut();
    await expect(a.bump(new Set(['users']))).resolves.toBeUndefined();
    expect(await current(a)).toBeUndefined();
  });
});
