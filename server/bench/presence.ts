/**
 * Presence fan-out, run by bench/realtime.ts (docs/decisions.md#working-a-ticket-together): TYPISTS staff members, spread
 * over TICKETS tickets, each switch typing on and off every TOGGLE_MS (the throttle's limit is one
 * signal a second) for SECONDS, while LISTENERS staff sockets take every `presence` event. Two server
 * processes share Redis; typists and listeners alternate between them.
 *
 * Reported: presence events delivered per second (all listeners together, and per listener), how
 * many typing signals were sent, and the delay from a typing signal to a listener seeing that
 * typist's new state (p50/p99 over every listener and change).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, PresenceEvent, ServerToClientEvents } from '@helpdesk/protocol';
import { createPostgresDatabase } from '../test/database.js';
import pg from 'pg';
import { createTokenService } from '../src/lib/tokens.js';
import { createTicket, signUp } from '../test/factories.js';
import { createApiClient } from '../test/http.js';
import { deleteRedisKeys } from '../test/redisKeys.js';
import { BENCH_JWT_SECRET, startBenchServers } from './servers.js';
import { benchSocketOptions, markdownTable, percentile, positiveInt } from './support.js';

type BenchSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const TYPISTS = positiveInt('BENCH_TYPISTS', 100);
const LISTENERS = positiveInt('BENCH_PRESENCE_LISTENERS', 1_000);
const TICKETS = positiveInt('BENCH_PRESENCE_TICKETS', 25);
const SECONDS = positiveInt('BENCH_PRESENCE_SECONDS', 10);
const TOGGLE_MS = positiveInt('BENCH_TOGGLE_MS', 1_000);

export interface PresenceFigures {
  typists: number;
  listeners: number;
  signals: number;
  deliveries: number;
  seconds: number;
  latencies: number[];
}

async function insertAgents(url: string, count: number): Promise<{ id: number; token: string }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tokens = createTokenService(BENCH_JWT_SECRET, 3_600);
    const { rows } = await client.query<{ id: number; token_version: number }>(
      `insert into users (name, email, password_hash, role)
       select 'Typist ' || n, 'typist' || n || '@bench.test', 'not-a-hash', 'agent' from generate_series(1, $1) n
       returning id, token_version`,
      [count],
    );
    return await Promise.all(rows.map(async (r) => ({ id: r.id, token: await tokens.sign(r.id, r.token_version) })));
  } finally {
    await client.end();
  }
}

const connect = (url: string, token: string) =>
  new Promise<BenchSocket>((resolve, reject) => {
    const socket: BenchSocket = io(url, benchSocketOptions(token));
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });

async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += size)
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - i) }, (_, j) => make(i + j)))));
  return out;
}

export async function runPresenceBench(postgresUrl: string, redisUrl: string): Promise<PresenceFigures> {
  const database = await createPostgresDatabase(postgresUrl);
  const keyPrefix = `helpdesk-bench-${randomBytes(4).toString('hex')}`;
  const servers = await startBenchServers(2, { databaseUrl: database.url, redis: { url: redisUrl, keyPrefix } });
  const sockets: BenchSocket[] = [];
  try {
    const apis = servers.urls.map(createApiClient);
    const urlFor = (i: number) => servers.urls[i % servers.urls.length]!;
    const owner = await signUp(apis[0]!, { name: 'Bench Owner' });
    const tickets = await inBatches(TICKETS, 5, () => createTicket(apis[0]!, owner.token));
    // Each typist is a person of their own: presence lists people, not sockets. Written straight to the
    // database (sign-ups from one address are rate limited), with tokens signed by the servers' secret.
    const typists = await insertAgents(database.url, TYPISTS);
    const watcher = await signUp(apis[0]!, { role: 'agent', name: 'Bench Watcher' });

    /** The last state each typist announced, and when. */
    const sent = new Map<number, { typing: boolean; at: number }>();
    const latencies: number[] = [];
    let deliveries = 0;
    let measuring = false;
    await inBatches(LISTENERS, 100, async (i) => {
      const socket = await connect(urlFor(i), watcher.token);
      sockets.push(socket);
      const seen = new Map<number, boolean>();
      socket.on('presence', (event: PresenceEvent) => {
        if (!measuring) return;
        deliveries++;
        const now = performance.now();
        for (const viewer of event.viewers) {
          const last = sent.get(viewer.id);
          if (!last || seen.get(viewer.id) === viewer.typing) continue;
          seen.set(viewer.id, viewer.typing);
          if (viewer.typing === last.typing) latencies.push(now - last.at);
        }
      });
      return socket;
    });

    const typistSockets = await inBatches(TYPISTS, 50, async (i) => {
      const socket = await connect(urlFor(i + 1), typists[i]!.token);
      sockets.push(socket);
      socket.emit('ticket:view', { ticketId: tickets[i % tickets.length]!.id });
      return socket;
    });
    // Every view is announced and settled before the clock starts.
    await sleep(1_500);

    measuring = true;
    let signals = 0;
    const started = performance.now();
    const timers = typistSockets.map((socket, i) => {
      const id = typists[i]!.id;
      let typing = false;
      const toggle = () => {
        typing = !typing;
        sent.set(id, { typing, at: performance.now() });
        socket.emit('ticket:typing', { ticketId: tickets[i % tickets.length]!.id, typing });
        signals++;
      };
      // Spread over the first interval, as real people do not type in step.
      return setTimeout(
        () => {
          toggle();
          timers[i] = setInterval(toggle, TOGGLE_MS);
        },
        (i * TOGGLE_MS) / TYPISTS,
      );
    });
    await sleep(SECONDS * 1_000);
    timers.forEach((t) => clearInterval(t));
    const seconds = (performance.now() - started) / 1_000;
    // Deliveries of the last signals still on their way count; latencies after the stop are still real.
    await sleep(1_000);
    measuring = false;
    return { typists: TYPISTS, listeners: LISTENERS, signals, deliveries, seconds, latencies };
  } finally {
    sockets.forEach((s) => s.disconnect());
    await servers.stop();
    await database.drop();
    await deleteRedisKeys(redisUrl, keyPrefix);
  }
}

export function presenceTable(f: PresenceFigures): string {
  const sorted = [...f.latencies].sort((a, b) => a - b);
  const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');
  return markdownTable(
    ['presence', 'typists', 'staff sockets', 'typing signals/s', 'events delivered/s', 'events/s per socket', 'p50 ms', 'p99 ms', 'max ms'],
    [
      [
        '2 processes + Redis',
        String(f.typists),
        String(f.listeners),
        (f.signals / f.seconds).toFixed(0),
        (f.deliveries / f.seconds).toFixed(0),
        (f.deliveries / f.seconds / f.listeners).toFixed(1),
        ms(percentile(sorted, 0.5)),
        ms(percentile(sorted, 0.99)),
        ms(sorted.at(-1) ?? Number.NaN),
      ],
    ],
  );
}
