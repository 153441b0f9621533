import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { EVERY_TABLE } from '../db/tableDependencies.js';
import { STAMP, versionsOf, type TableVersions, type Versions } from '../db/tableVersions.js';

/**
 * Table versions shared by every process through Redis, so each keeps answers (services/readMemo.ts)
 * and none serves one read before a write another has answered:
 * - a write's bump (HINCRBY per table, one script) is acknowledged by Redis before the driver hands
 *   the write's result back, so before its response goes out; every lookup reads the versions
 *   (one script, one round trip) after its request arrived, so it sees that bump;
 * - a process that cannot bump (Redis away from it) must not be trusted by the others: each holds a
 *   lease in a sorted set, renewed four times a second. While any lease has lapsed, no process trusts a
 *   kept answer. A write whose bump failed waits, before its response goes out, until its process's
 *   lease has surely lapsed (or a later renewal carried the missed bump): from then on the others
 *   trust nothing until it returns, and its return bumps every table;
 * - a lease lapsed for longer than `evictAfterMs` belongs to a process presumed dead (a crash leaves
 *   no goodbye): it is dropped, with a bump of every table, and the others trust again;
 * - answers kept before this process's connection dropped are never compared again (Redis may have
 *   restarted and lost the versions): the generation changes.
 */
export interface SharedVersionsOptions {
  leaseMs: number;
  renewEveryMs: number;
  evictAfterMs: number;
}

/** A write on a process cut from Redis waits at most about leaseMs + CLOCK_MARGIN_MS, once per outage. */
export const SHARED_VERSIONS_DEFAULTS: SharedVersionsOptions = { leaseMs: 1_000, renewEveryMs: 250, evictAfterMs: 60_000 };

/** Local time runs at Redis's pace to well within this, over one lease. */
const CLOCK_MARGIN_MS = 250;

const NOW_MS = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: versions, members. ARGV: evictAfterMs. Returns {0} when a lease has lapsed, else {1, versions…}. */
const CHECK = `${NOW_MS}
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. now, 'WITHSCORES')
if #lapsed == 0 then return {1, redis.call('HGETALL', KEYS[1])} end
for i = 1, #lapsed, 2 do
  if tonumber(lapsed[i + 1]) <= now - tonumber(ARGV[1]) then
    redis.call('ZREM', KEYS[2], lapsed[i])
    redis.call('HINCRBY', KEYS[1], '${EVERY_TABLE}', 1)
    redis.call('HINCRBY', KEYS[1], '${STAMP}', 1)
  end
end
return {0}`;

/** KEYS: versions. ARGV: tables. */
const BUMP = `for _, table in ipairs(ARGV) do redis.call('HINCRBY', KEYS[1], table, 1) end
redis.call('HINCRBY', KEYS[1], '${STAMP}', 1)
return 1`;

/**
 * KEYS: versions, members. ARGV: id, leaseMs, owed (1 when a bump of this process failed since its
 * last renewal). Joining, returning after a lapse, or owing a bump bumps every table.
 */
const RENEW = `${NOW_MS}
local held = redis.call('ZSCORE', KEYS[2], ARGV[1])
if (not held) or tonumber(held) < now or ARGV[3] == '1' then
  redis.call('HINCRBY', KEYS[1], '${EVERY_TABLE}', 1)
  redis.call('HINCRBY', KEYS[1], '${STAMP}', 1)
end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
return 1`;

/** KEYS: versions, members. ARGV: id, owed. */
const LEAVE = `redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[2] == '1' then redis.call('HINCRBY', KEYS[1], '${EVERY_TABLE}', 1) redis.call('HINCRBY', KEYS[1], '${STAMP}', 1) end
return 1`;

type Run = (script: string, keys: string[], args: Array<string | number>) => Promise<unknown>;

export function sharedVersions(redis: Redis, keyPrefix: string, options: SharedVersionsOptions = SHARED_VERSIONS_DEFAULTS): TableVersions {
  const id = randomUUID();
  const versionsKey = `${keyPrefix}:memo:versions`;
  const membersKey = `${keyPrefix}:memo:members`;
  const run = scripts(redis);

  let generation = 0;
  redis.on('close', () => (generation += 1));

  /** Bumps that failed so far, and how many of them a renewal has since carried to Redis. */
  let failed = 0;
  let covered = 0;
  /** Local time by which this process's lease has surely lapsed in Redis. */
  let leaseUntil = 0;
  let renewing: Promise<void> | undefined;
  let markJoined: () => void = () => undefined;
  const joinedOnce = new Promise<void>((resolve) => (markJoined = resolve));
  const renew = () =>
    (renewing ??= (async () => {
      const carries = failed;
      try {
        await run(RENEW, [versionsKey, membersKey], [id, options.leaseMs, carries > covered ? 1 : 0]);
        leaseUntil = Date.now() + options.leaseMs + CLOCK_MARGIN_MS;
        covered = Math.max(covered, carries);
        markJoined();
      } catch {
        // Redis is away: the lease lapses on its own, and the next renewal tries again.
      } finally {
        renewing = undefined;
      }
    })());
  const timer = setInterval(() => void renew(), options.renewEveryMs);
  timer.unref();
  // Commands fail until the connection is up (no offline queue): join the moment it is, not a tick later.
  redis.on('ready', () => void renew());
  void renew();

  return {
    async bump(tables) {
      try {
        await run(BUMP, [versionsKey], [...tables]);
        return;
      } catch {
        failed += 1;
      }
      // Before this write is answered, either a renewal carries the bump, or no process trusts any
      // kept answer because this process's lease has lapsed.
      const owed = failed;
      while (covered < owed && Date.now() < leaseUntil) {
        await renew();
        if (covered < owed) await sleep(Math.min(100, Math.max(0, leaseUntil - Date.now())));
      }
    },

    async current(): Promise<Versions | undefined> {
      // A bump of this process not yet in Redis: its own kept answers cannot be trusted either.
      if (covered < failed) {
        void renew();
        return undefined;
      }
      const at = generation;
      try {
        const reply = (await run(CHECK, [versionsKey, membersKey], [options.evictAfterMs])) as [number, string[]?];
        if (reply[0] !== 1 || at !== generation) return undefined;
        const flat = reply[1] ?? [];
        const record: Record<string, number> = {};
        for (let i = 0; i + 1 < flat.length; i += 2) record[String(flat[i])] = Number(flat[i + 1]);
        return versionsOf(record, at);
      } catch {
        return undefined;
      }
    },

    joined: (timeoutMs) => Promise.race([joinedOnce, sleep(timeoutMs, undefined, { ref: false })]),

    async stop() {
      clearInterval(timer);
      await renewing;
      await run(LEAVE, [versionsKey, membersKey], [id, covered < failed ? 1 : 0]).catch(() => undefined);
    },
  };
}

/** Runs a script by its hash, loading it once when Redis does not know it (first use, or a restart). */
function scripts(redis: Redis): Run {
  const hashes = new Map<string, string>();
  return async (script, keys, args) => {
    let hash = hashes.get(script);
    if (hash) {
      try {
        return await redis.evalsha(hash, keys.length, ...keys, ...args);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      }
    }
    hash = (await redis.script('LOAD', script)) as string;
    hashes.set(script, hash);
    return redis.evalsha(hash, keys.length, ...keys, ...args);
  };
}
