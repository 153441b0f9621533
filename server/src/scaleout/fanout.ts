import { randomUUID } from 'node:crypto';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Redis } from 'ioredis';
import { memoryLastSent, redisLastSent, type LastSent } from './lastSent.js';
import { isRedisReady } from './redis.js';

/**
 * How an emit reaches sockets. In one process that is Socket.IO's in-memory adapter; with Redis, the
 * streams adapter carries each emit to every process. Its broadcast waits for Redis before delivering
 * locally, so while Redis is away emits go to this process's sockets at once instead.
 */
export interface Fanout {
  adapter?: ReturnType<typeof createAdapter>;
  /** True when other processes exist to reach (Redis is configured), whether or not Redis is up now. */
  shared: boolean;
  /** Every socket of this process joins it, so an emit can skip the sockets that already had it. */
  localRoom: string;
  /** False while emits can reach only this process. */
  crossProcess(): boolean;
  /** Called each time cross-process delivery starts after a time without it (an outage, or a slow start). */
  onResume(listener: () => void): void;
  /**
   * Resolves once this process has delivered every cross-process emit Redis held when it was called:
   * after an outage the adapter reads on from where it stopped, so what others emitted meanwhile
   * arrives late, and this says when it all has. Gives up after `timeoutMs`.
   */
  caughtUp(timeoutMs: number): Promise<void>;
  /** When each room was last sent a change, on every process. */
  lastSent: LastSent;
}

export const singleProcess = (): Fanout => ({
  shared: false,
  localRoom: `process:${randomUUID()}`,
  crossProcess: () => false,
  onResume: () => undefined,
  caughtUp: () => Promise.resolve(),
  lastSent: memoryLastSent(),
});

/** `quick`: a connection whose commands fail fast, for what must not wait on an outage. */
export function redisFanout(redis: Redis, quick: Redis, keyPrefix: string): Fanout {
  // ioredis says "reconnecting" after every failed or lost connection, including failed first tries.
  let missed = false;
  const listeners: Array<() => void> = [];
  redis.on('reconnecting', () => (missed = true));
  redis.on('ready', () => {
    if (missed) listeners.forEach((listener) => listener());
    missed = false;
  });
  const streamName = `${keyPrefix}:socket.io`;
  const streams = createAdapter(redis, { streamName, channelPrefix: streamName, sessionKeyPrefix: `${keyPrefix}:socket.io:session:` });
  // Socket.IO builds one adapter per namespace (with `new`, so not an arrow function); only the main
  // one ("/") carries this product's events.
  let main: StreamReads | undefined;
  const adapter: typeof streams = function (nsp: { name: string }) {
    const instance = streams(nsp);
    if (nsp.name === '/') main = trackStreamReads(instance as unknown as StreamsAdapter);
    return instance;
  };
  return {
    adapter,
    shared: true,
    localRoom: `process:${randomUUID()}`,
    crossProcess: () => isRedisReady(redis),
    lastSent: redisLastSent(quick, keyPrefix),
    onResume: (listener) => listeners.push(listener),
    async caughtUp(timeoutMs) {
      const reads = main;
      if (!reads) return;
      // A heartbeat of this process's own goes to the end of the stream; once the reader is past it,
      // it is past everything before it. The reader may have started after a probe (a fresh start
      // reads only what comes next), so a later probe is sent until one is read.
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const probe = await within(reads.probe(), deadline - Date.now());
        if (
          probe !== undefined &&
          (await within(
            reads.reached(probe).then(() => true),
            PROBE_EVERY_MS,
          ))
        )
          return;
      }
    },
  };
}

/** How long one probe may take to come back through the stream before another is sent. */
const PROBE_EVERY_MS = 250;

/** The promise's value, or undefined once `ms` have passed. */
const within = <T>(promise: Promise<T>, ms: number): Promise<T | undefined> =>
  Promise.race([promise, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), Math.max(0, ms)).unref())]);

/** socket.io-adapter's MessageType.HEARTBEAT: every process already sends these through the stream, and all ignore them. */
const HEARTBEAT = 2;

/** The parts of the streams adapter used here: each stream entry it reads passes through `onRawMessage` with its id. */
interface StreamsAdapter {
  onRawMessage(message: unknown, offset: string): void;
  publishAndReturnOffset(message: { type: number }): Promise<string>;
}

interface StreamReads {
  /** Adds a heartbeat to the stream; resolves with its id. */
  probe(): Promise<string>;
  /** Resolves once the adapter has read the entry with this id (or a later one). */
  reached(id: string): Promise<void>;
}

/** Stream ids are "<ms>-<seq>": compared as two numbers. */
export const compareStreamIds = (a: string, b: string): number => {
  const [am = 0, as = 0] = a.split('-').map(Number);
  const [bm = 0, bs = 0] = b.split('-').map(Number);
  return am - bm || as - bs;
};

/**
 * Follows the offset the adapter has read to. Every entry of the stream, this process's own included,
 * goes through `onRawMessage` in order, so the offset seen last is how far delivery has come.
 */
export function trackStreamReads(adapter: StreamsAdapter): StreamReads {
  let last = '0-0';
  const waiting: Array<{ id: string; resolve: () => void }> = [];
  const read = adapter.onRawMessage.bind(adapter);
  adapter.onRawMessage = (message, offset) => {
    read(message, offset);
    last = offset;
    for (const waiter of [...waiting]) {
      if (compareStreamIds(last, waiter.id) < 0) continue;
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  return {
    probe: () => adapter.publishAndReturnOffset({ type: HEARTBEAT }),
    reached: (id) => (compareStreamIds(last, id) >= 0 ? Promise.resolve() : new Promise((resolve) => waiting.push({ id, resolve }))),
  };
}
