/**
 * Realtime benchmark: how long one ticket update takes to reach N connected staff sockets.
 *
 *   npm run bench:realtime          # needs PostgreSQL and Redis
 *
 * Scenarios, for each N in BENCH_CLIENTS (default 1000,5000):
 *   - 1 process                  : one server process, Socket.IO's in-memory adapter (no REDIS_URL)
 *   - 1 process + Redis adapter  : one process with REDIS_URL (the streams adapter on every emit)
 *   - 2 processes + Redis        : two processes; clients connect DIRECTLY to them, alternating, and the
 *                                  updates alternate between them too (no load balancer in between: it
 *                                  would pipe every frame through this process's thread, next to the clients)
 *   - bare ws broadcast          : bench/wsBroadcastServer.ts sends a frame of the same bytes as the
 *                                  Socket.IO `ticket-changed` frame seen above to N plain `ws` clients
 * Then the presence fan-out (bench/presence.ts): 100 typists and 1,000 staff sockets on 2 processes
 * + Redis; BENCH_ONLY=presence runs that alone.
 * Each Socket.IO scenario starts fresh server processes on a fresh database (and its own Redis key
 * prefix), signs up an agent and a user, the user opens one ticket, N sockets connect with the agent's
 * token (room `staff`), then the agent changes the ticket's priority BENCH_WARMUP_UPDATES (10) times
 * unmeasured and BENCH_UPDATES (200) times measured, one after the other. Latency is from just before
 * the HTTP PUT to the moment the last of the N clients (all in this process) got the matching event.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a fresh database per scenario is
 * created on that server and dropped), BENCH_REDIS_URL (default redis://127.0.0.1:6379),
 * BENCH_TIMEOUT_MS per update (default 15000, counted as a failure), BENCH_CONNECT_CONCURRENCY
 * (handshakes in flight, default 200). Exit code 1 when any update failed. Loopback only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { PRIORITIES, type Priority, type TicketChangedEvent } from '@helpdesk/protocol';
import { createPostgresDatabase } from '../test/database.js';
import { createTicket, signUp } from '../test/factories.js';
import { createApiClient } from '../test/http.js';
import { deleteRedisKeys } from '../test/redisKeys.js';
import { socketIoAudience, wsAudience, type Audience } from './audience.js';
import { presenceTable, runPresenceBench } from './presence.js';
import { startBenchServers } from './servers.js';
import {
  DEFAULT_POSTGRES_URL,
  DEFAULT_REDIS_URL,
  machine,
  markdownTable,
  percentile,
  positiveInt,
  positiveInts,
  requirePostgres,
  requireRedis,
  rssKb,
  waitMicros,
} from './support.js';

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const REDIS_URL = process.env.BENCH_REDIS_URL || DEFAULT_REDIS_URL;
const CLIENTS = positiveInts('BENCH_CLIENTS', [1_000, 5_000]);
const UPDATES = positiveInt('BENCH_UPDATES', 200);
const WARMUP_UPDATES = positiveInt('BENCH_WARMUP_UPDATES', 10, 0);
const TIMEOUT_MS = positiveInt('BENCH_TIMEOUT_MS', 15_000);
const CONNECT_CONCURRENCY = positiveInt('BENCH_CONNECT_CONCURRENCY', 200);
/** Lets the heap settle after the handshakes before RSS is read. */
const SETTLE_MS = 1_000;

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------------------------
// Teardown that also runs on Ctrl-C, so no process, database or Redis key outlives the run.

const pendingTeardowns = new Set<() => Promise<void>>();

async function withTeardown<T>(body: (defer: (step: () => unknown) => void) => Promise<T>): Promise<T> {
  const steps: Array<() => unknown> = [];
  const run = async () => {
    pendingTeardowns.delete(run);
    for (const step of steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        console.error('teardown step failed:', error);
      }
    }
  };
  pendingTeardowns.add(run);
  try {
    return await body((step) => void steps.push(step));
  } finally {
    await run();
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: tearing down`);
    void Promise.all([...pendingTeardowns].map((run) => run())).finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Measuring one scenario.

interface Row {
  scenario: string;
  clients: number;
  latencies: number[];
  firstLatencies: number[];
  apiLatencies: number[];
  kbPerConnection: number;
  connectSeconds: number;
  frameBytes: number;
  failures: number;
  notes: string[];
  /** How this process (where the clients live) fared during the measured updates. */
  benchProcess?: string;
}

/** A row before anything was measured. */
const emptyRow = (scenario: string, clients: number): Row => ({
  scenario,
  clients,
  latencies: [],
  firstLatencies: [],
  apiLatencies: [],
  kbPerConnection: 0,
  connectSeconds: 0,
  frameBytes: 0,
  failures: 0,
  notes: [],
});

/** The priority the k-th update sets: each one differs from the one before, so each really changes the ticket. */
const priorityCycle = (current: Priority) => (k: number) => PRIORITIES[(PRIORITIES.indexOf(current) + 1 + k) % PRIORITIES.length]!;

interface Deployment {
  audience: Audience;
  /** Sends the k-th update (setting `priority`); rejects when it was not accepted. */
  send: (k: number, priority: Priority) => Promise<void>;
  ticketId: number;
  firstPriority: Priority;
  pids: () => number[];
}

/** Connects N clients, reading RSS around it, then runs the warm-up and the measured updates. */
async function measure(scenario: string, n: number, setup: Deployment): Promise<Row> {
  const { audience, send, ticketId } = setup;
  const rss = () => setup.pids().reduce((sum, pid) => sum + rssKb(pid), 0);
  const row = emptyRow(scenario, n);

  await sleep(SETTLE_MS);
  const before = rss();
  const connectStarted = performance.now();
  await audience.connect(n, CONNECT_CONCURRENCY);
  row.connectSeconds = (performance.now() - connectStarted) / 1000;
  await sleep(SETTLE_MS);
  row.kbPerConnection = (rss() - before) / n;
  console.log(
    `  ${scenario}, ${n} clients: connected in ${row.connectSeconds.toFixed(1)} s, ${row.kbPerConnection.toFixed(1)} KB/connection`,
  );

  // The clients share this process's thread: its stalls show up in every figure, so they are reported.
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  let gcMs = 0;
  let cpuWait: { micros: number; at: number } | undefined;
  const gc = new PerformanceObserver((list) => list.getEntries().forEach((e) => (gcMs += e.duration)));
  const priorityFor = priorityCycle(setup.firstPriority);
  for (let k = 0; k < WARMUP_UPDATES + UPDATES; k++) {
    if (k === WARMUP_UPDATES) {
      loopDelay.enable();
      gc.observe({ entryTypes: ['gc'] });
      const micros = waitMicros('cpu');
      if (micros !== undefined) cpuWait = { micros, at: performance.now() };
    }
    const priority = priorityFor(k);
    const round = audience.expect(
      (e: TicketChangedEvent) =>
        e.action === 'updated' && e.ticket.id === ticketId && 'priority' in e.ticket && e.ticket.priority === priority,
      TIMEOUT_MS,
    );
    const started = performance.now();
    try {
      await send(k, priority);
    } catch (error) {
      row.failures++;
      row.notes.push(`update ${k + 1}: ${(error as Error).message}`);
      await round;
      continue;
    }
    const answered = performance.now();
    const result = await round;
    if (result.last === undefined) {
      row.failures++;
      row.notes.push(`update ${k + 1}: ${result.missing} of ${n} clients had no event after ${TIMEOUT_MS} ms`);
      continue;
    }
    if (k < WARMUP_UPDATES) continue;
    row.latencies.push(result.last - started);
    row.firstLatencies.push(result.first! - started);
    row.apiLatencies.push(answered - started);
  }
  // Late or duplicated deliveries would arrive within this pause.
  await sleep(200);
  const expected = n * (WARMUP_UPDATES + UPDATES);
  if (audience.received !== expected)
    row.notes.push(`clients received ${audience.received} ticket-changed events in all, expected ${expected} (${n} per update)`);
  loopDelay.disable();
  gc.disconnect();
  row.benchProcess = `event-loop delay max ${(loopDelay.max / 1e6).toFixed(0)} ms, GC ${gcMs.toFixed(0)} ms`;
  if (cpuWait) {
    const waited = (waitMicros('cpu')! - cpuWait.micros) / 1000 / (performance.now() - cpuWait.at);
    row.benchProcess += `; runnable tasks (this run's included) waited for a CPU ${(waited * 100).toFixed(0)}% of the time`;
  }
  if (audience.disconnects > 0) row.notes.push(`${audience.disconnects} clients disconnected during the run`);
  row.frameBytes = Math.max(0, ...audience.frames.map((f) => Buffer.byteLength(f)));
  return row;
}

// ---------------------------------------------------------------------------------------------------------------
// Scenarios.

interface SocketIoScenario {
  name: string;
  processes: number;
  redis: boolean;
}

const SOCKET_IO_SCENARIOS: SocketIoScenario[] = [
  { name: '1 process', processes: 1, redis: false },
  { name: '1 process + Redis adapter', processes: 1, redis: true },
  { name: '2 processes + Redis', processes: 2, redis: true },
];

async function runSocketIo(scenario: SocketIoScenario, n: number): Promise<{ row: Row; frames: string[] }> {
  return withTeardown(async (defer) => {
    const database = await createPostgresDatabase(POSTGRES_URL);
    defer(() => database.drop());
    const keyPrefix = `helpdesk-bench-${randomBytes(4).toString('hex')}`;
    if (scenario.redis) defer(() => deleteRedisKeys(REDIS_URL, keyPrefix));
    const servers = await startBenchServers(scenario.processes, {
      databaseUrl: database.url,
      ...(scenario.redis && { redis: { url: REDIS_URL, keyPrefix } }),
    });
    defer(() => servers.stop());

    const apis = servers.urls.map(createApiClient);
    const agent = await signUp(apis[0]!, { role: 'agent', name: 'Bench Agent' });
    const owner = await signUp(apis[0]!, { name: 'Bench Owner' });
    const ticket = await createTicket(apis[0]!, owner.token);

    const audience = socketIoAudience((i) => servers.urls[i % servers.urls.length]!, agent.token);
    defer(() => audience.close());
    const row = await measure(scenario.name, n, {
      audience,
      ticketId: ticket.id,
      firstPriority: ticket.priority,
      pids: () => servers.processes.map((p) => p.child.pid!),
      async send(k, priority) {
        const response = await apis[k % apis.length]!.put(`/tickets/${ticket.id}`, { priority }, { token: agent.token });
        if (response.status !== 200) throw new Error(`PUT answered ${response.status}: ${JSON.stringify(response.body)}`);
      },
    });
    return { row, frames: audience.frames };
  });
}

/** Starts bench/wsBroadcastServer.ts and waits for its `listening <port>` line. */
async function startWsBroadcastServer(): Promise<{ child: ChildProcess; port: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/wsBroadcastServer.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('ws broadcast server did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`ws broadcast server exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { child, port, stop };
}

/** The floor: the same frame, byte for byte per priority, broadcast by bare `ws` to N clients. */
async function runWs(n: number, socketIoFrame: string): Promise<Row> {
  return withTeardown(async (defer) => {
    const server = await startWsBroadcastServer();
    defer(() => server.stop());
    const [name, event] = JSON.parse(socketIoFrame.slice(2)) as [string, TicketChangedEvent & { action: 'updated' }];
    // Only the priority differs between updates, exactly as in the Socket.IO frames.
    const frameFor = (priority: Priority) => `42${JSON.stringify([name, { ...event, ticket: { ...event.ticket, priority } }])}`;

    const audience = wsAudience(`ws://127.0.0.1:${server.port}`);
    defer(() => audience.close());
    return measure('bare ws broadcast', n, {
      audience,
      ticketId: event.ticket.id,
      firstPriority: event.ticket.priority,
      pids: () => [server.child.pid!],
      async send(_k, priority) {
        const response = await fetch(`http://127.0.0.1:${server.port}/broadcast`, { method: 'POST', body: frameFor(priority) });
        const body = (await response.json()) as { sent: number };
        if (response.status !== 200 || body.sent !== n)
          throw new Error(`broadcast answered ${response.status}, sent to ${body.sent} of ${n}`);
      },
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------

function printTable(rows: Row[]): void {
  const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');
  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      0.5,
    );
  const header = [
    'scenario',
    'clients',
    'p50 ms',
    'p99 ms',
    'max ms',
    'first p50 ms',
    'PUT p50 ms',
    'KB/conn',
    'connect s',
    'frame B',
    'failures',
  ];
  const cells = rows.map((r) => {
    const sorted = [...r.latencies].sort((a, b) => a - b);
    return [
      r.scenario,
      String(r.clients),
      ms(percentile(sorted, 0.5)),
      ms(percentile(sorted, 0.99)),
      ms(sorted.at(-1) ?? Number.NaN),
      ms(median(r.firstLatencies)),
      ms(median(r.apiLatencies)),
      r.kbPerConnection.toFixed(1),
      r.connectSeconds.toFixed(1),
      String(r.frameBytes),
      String(r.failures),
    ];
  });
  console.log(markdownTable(header, cells));
  console.log('');
  for (const r of rows) if (r.benchProcess) console.log(`bench process during "${r.scenario}", ${r.clients} clients: ${r.benchProcess}`);
  for (const r of rows) for (const note of r.notes.slice(0, 5)) console.log(`! ${r.scenario}, ${r.clients} clients: ${note}`);
}

async function main(): Promise<number> {
  await requirePostgres(POSTGRES_URL, 'BENCH_DATABASE_URL');
  await requireRedis(REDIS_URL, 'BENCH_REDIS_URL');
  console.log(
    `${machine()} | load average ${os.loadavg()[0]!.toFixed(2)}\n` +
      `clients: ${CLIENTS.join(', ')} | updates: ${WARMUP_UPDATES} warm-up + ${UPDATES} measured, sequential | timeout ${TIMEOUT_MS} ms | ` +
      `${CONNECT_CONCURRENCY} handshakes in flight\n` +
      `2 processes: clients connect directly, alternating between the processes; updates alternate too\n`,
  );

  const rows: Row[] = [];
  // BENCH_ONLY=presence runs the presence fan-out alone.
  const presenceOnly = process.env.BENCH_ONLY === 'presence';
  const failedScenario = (scenario: string, n: number, error: unknown): Row => {
    console.error(`  ${scenario}, ${n} clients failed:`, error);
    return { ...emptyRow(scenario, n), failures: 1, notes: [(error as Error).message] };
  };
  for (const n of presenceOnly ? [] : CLIENTS) {
    let frame: string | undefined;
    for (const scenario of SOCKET_IO_SCENARIOS) {
      try {
        const { row, frames } = await runSocketIo(scenario, n);
        // The longest frame, so the floor never sends fewer bytes than Socket.IO did.
        frame ??= [...frames].sort((a, b) => Buffer.byteLength(b) - Buffer.byteLength(a))[0];
        rows.push(row);
      } catch (error) {
        rows.push(failedScenario(scenario.name, n, error));
      }
    }
    try {
      if (!frame) throw new Error('no Socket.IO ticket-changed frame was observed to copy');
      rows.push(await runWs(n, frame));
    } catch (error) {
      rows.push(failedScenario('bare ws broadcast', n, error));
    }
  }

  const frameSizes = rows.filter((r) => r.frameBytes > 0).map((r) => r.frameBytes);
  console.log(`\nload average at the end: ${os.loadavg()[0]!.toFixed(2)}`);
  console.log(
    `payload: ticket-changed frame up to ${Math.max(0, ...frameSizes)} bytes on the wire (engine.io + socket.io framing included); latencies from just before the PUT\n`,
  );
  if (rows.length > 0) printTable(rows);

  console.log(
    "\npresence fan-out: typists switch typing on/off every second (the throttle's limit), one presence event per ticket per 250 ms batch at most",
  );
  let presenceFailed = false;
  try {
    console.log(presenceTable(await runPresenceBench(POSTGRES_URL, REDIS_URL)));
  } catch (error) {
    presenceFailed = true;
    console.error('  presence fan-out failed:', error);
  }
  return presenceFailed || rows.some((r) => r.failures > 0) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
