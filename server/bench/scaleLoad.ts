/**
 * The scale bench's load: autocannon, each request built anew from the call's question generator,
 * every response time kept (percentiles computed from them, not autocannon's fixed ones), a fixed
 * number of requests so none is dropped at the end of a run. With several server processes the
 * connections are split between them. A writer changes random tickets at a set rate meanwhile
 * (node:http, keep-alive) and says what rate it reached.
 */
import http from 'node:http';
import autocannon from 'autocannon';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { PRIORITIES } from '@helpdesk/protocol';
import type { Question } from './scaleQuestions.js';
import { TIMEOUT_S } from './scaleSettings.js';
import { percentile } from './support.js';

export interface Answer {
  status: number;
  body: Buffer;
  ms: number;
}

export interface Target {
  /** http://host:port */
  base: string;
  agent: http.Agent;
}

export const target = (base: string, connections: number): Target => ({
  base,
  agent: new http.Agent({ keepAlive: true, maxSockets: connections }),
});

/** One request; a timeout or a dropped connection answers status 0 at the time it took. */
export function send(to: Target, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.request(`${to.base}${path}`, { method, agent: to.agent, headers, timeout: TIMEOUT_S * 1000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - started }));
      response.on('error', () => resolve({ status: 0, body: Buffer.alloc(0), ms: performance.now() - started }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', () => resolve({ status: 0, body: Buffer.alloc(0), ms: performance.now() - started }));
    request.end(body);
  });
}

export interface Run {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  /** Answers other than 2xx, by status (0: timeout or connection lost). */
  refused: Map<number, number>;
  /** Share of the questions asked again within the run (the same path by the same account). */
  repeated: number;
  bytes: number;
  /** The slowest question, to EXPLAIN. */
  slowest?: { ms: number; question: Question };
  /** Every response time, ascending, and how long the run took. */
  latencies: number[];
  seconds: number;
}

/** Several runs as one: their response times together, their requests over their time. */
export function mergeRuns(runs: Run[]): Run {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  const refused = new Map<number, number>();
  for (const r of runs) for (const [status, n] of r.refused) refused.set(status, (refused.get(status) ?? 0) + n);
  return {
    n: latencies.length,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    rps: latencies.length / Math.max(seconds, 0.001),
    refused,
    repeated: 0,
    bytes: runs.reduce((sum, r) => sum + r.bytes * r.n, 0) / Math.max(latencies.length, 1),
    latencies,
    seconds,
  };
}

interface Cannon {
  latencies: number[];
  refused: Map<number, number>;
  keys: Set<string>;
  bytes: number;
  slowest?: { ms: number; question: Question };
  timeouts: number;
}

/** One autocannon instance on one target: every request a new question from `next()`. */
function cannon(
  to: Target,
  next: () => Question,
  headersOf: (q: Question) => Record<string, string>,
  connections: number,
  mode: { duration: number } | { amount: number },
  into: Cannon,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: to.base,
        connections,
        timeout: TIMEOUT_S,
        ...mode,
        requests: [
          {
            setupRequest: (request, context: { question?: Question }) => {
              const question = next();
              context.question = question;
              return { ...request, method: 'GET', path: question.path, headers: headersOf(question) };
            },
          },
        ],
      },
      (error, result) => {
        if (error) reject(error as Error);
        else {
          into.timeouts += result.timeouts;
          resolve();
        }
      },
    );
    instance.on('response', (client, status, bytes, ms) => {
      // The answered request's question: the client builds its next one only after this event.
      const question = (client as unknown as { requestIterator?: { context?: { question?: Question } } }).requestIterator?.context
        ?.question;
      into.latencies.push(ms);
      into.bytes += bytes;
      if (question) {
        into.keys.add(`${question.userId ?? '-'} ${question.path}`);
        if (!into.slowest || ms > into.slowest.ms) into.slowest = { ms, question };
      }
      if (status < 200 || status > 299) into.refused.set(status, (into.refused.get(status) ?? 0) + 1);
    });
  });
}

/**
 * Asks `next()`'s questions at `connections` (split between the targets: requests alternate between
 * the processes). A short timed slice first (its figures dropped) says how many requests fit in
 * `seconds`; then exactly that many are sent and every answer waited for, so a slow call's tail is
 * never cut off by the end of a timed run. A request over BENCH_TIMEOUT counts at that time.
 */
export async function load(
  targets: Target[],
  next: () => Question,
  headersOf: (q: Question) => Record<string, string>,
  connections: number,
  seconds: number,
  /** Timed only (no count first): for the floor, whose answers take well under a millisecond. */
  { timed = false } = {},
): Promise<Run> {
  const per = targets.map((_, i) => Math.floor(connections / targets.length) + (i < connections % targets.length ? 1 : 0));
  const fresh = (): Cannon => ({ latencies: [], refused: new Map(), keys: new Set(), bytes: 0, timeouts: 0 });
  let amount = 0;
  if (!timed) {
    const probe = fresh();
    const probeStarted = performance.now();
    await Promise.all(targets.map((t, i) => cannon(t, next, headersOf, per[i]!, { duration: 0.5 }, probe)));
    const probeRps = probe.latencies.length / ((performance.now() - probeStarted) / 1000);
    amount = Math.max(1, Math.round((probeRps * seconds) / targets.length / Math.max(...per)));
  }
  const got = fresh();
  const started = performance.now();
  await Promise.all(
    targets.map((t, i) => cannon(t, next, headersOf, per[i]!, timed ? { duration: seconds } : { amount: amount * per[i]! }, got)),
  );
  const elapsed = (performance.now() - started) / 1000;
  const latencies = got.latencies;
  // A timeout counts at the timeout: at least that long, and it must show in the tail.
  for (let i = 0; i < got.timeouts; i++) latencies.push(TIMEOUT_S * 1000);
  if (got.timeouts) got.refused.set(0, got.timeouts);
  latencies.sort((a, b) => a - b);
  return {
    n: latencies.length,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    rps: got.latencies.length / elapsed,
    refused: got.refused,
    repeated: latencies.length === 0 ? 0 : 1 - got.keys.size / latencies.length,
    bytes: latencies.length === 0 ? 0 : got.bytes / latencies.length,
    slowest: got.slowest,
    latencies,
    seconds: elapsed,
  };
}

/**
 * Asks `n` of `next()`'s questions one at a time on one connection: what each costs without waiting
 * behind the others, so a change to one kind of question shows on a machine too noisy for the loaded
 * run's tail. Percentiles as load's.
 */
export async function serial(
  to: Target,
  next: () => Question,
  headersOf: (q: Question) => Record<string, string>,
  n: number,
): Promise<{ mean: number; p50: number; p95: number; refused: number }> {
  const latencies: number[] = [];
  let refused = 0;
  for (let i = 0; i < n; i++) {
    const question = next();
    const answer = await send(to, 'GET', question.path, headersOf(question));
    latencies.push(answer.ms);
    if (answer.status < 200 || answer.status > 299) refused += 1;
  }
  latencies.sort((a, b) => a - b);
  const mean = latencies.reduce((sum, ms) => sum + ms, 0) / Math.max(1, n);
  return { mean, p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), refused };
}

export interface Writer {
  /** Writes done since the last mark and the rate they came at. */
  mark(): { done: number; failed: number; perSecond: number };
  stop(): Promise<{ done: number; failed: number; perSecond: number }>;
}

/**
 * Changes the priority of random tickets (never to the one it has, so each is a real write) at
 * `perSecond`, through the API as an agent would, on the targets in turn. Up to eight changes may
 * be in flight; a tick finding eight still running is skipped, which shows in the rate reached.
 */
export function startWriter(
  targets: Target[],
  pool: { id: number; priority: string }[],
  headersOf: () => Record<string, string>,
  perSecond: number,
  random: () => number,
): Writer {
  let done = 0;
  let failed = 0;
  let inFlight = 0;
  let turn = 0;
  const running = new Set<Promise<void>>();
  const since = { at: performance.now(), done: 0, failed: 0 };
  const failures = new Map<string, number>();
  const write = async () => {
    const ticket = pool[Math.floor(random() * pool.length)]!;
    const others = PRIORITIES.filter((p) => p !== ticket.priority);
    const priority = others[Math.floor(random() * others.length)]!;
    ticket.priority = priority;
    const answer = await send(
      targets[turn++ % targets.length]!,
      'PUT',
      `/api/tickets/${ticket.id}`,
      { ...headersOf(), 'content-type': 'application/json' },
      JSON.stringify({ priority }),
    );
    if (answer.status === 200) done++;
    else {
      failed++;
      const key = `${answer.status} ${answer.body.toString().slice(0, 120)}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    }
  };
  const timer = setInterval(() => {
    if (inFlight >= 8) return;
    inFlight++;
    const p = write().finally(() => {
      inFlight--;
      running.delete(p);
    });
    running.add(p);
  }, 1000 / perSecond);
  const mark = () => {
    const now = performance.now();
    const result = { done: done - since.done, failed: failed - since.failed, perSecond: (done - since.done) / ((now - since.at) / 1000) };
    Object.assign(since, { at: now, done, failed });
    return result;
  };
  const started = performance.now();
  return {
    mark,
    async stop() {
      clearInterval(timer);
      await Promise.all(running);
      for (const [what, n] of failures) console.log(`! writer: ${n} × ${what}`);
      return { done, failed, perSecond: done / ((performance.now() - started) / 1000) };
    },
  };
}

/** Waits until nothing runs on the database any more (a timed-out request's query keeps running). */
export type IdleWait = () => Promise<void>;

export function postgresIdle(url: string): { wait: IdleWait; close(): Promise<void> } {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  return {
    async wait() {
      await connected;
      const deadline = Date.now() + 300_000;
      for (;;) {
        const { rows } = await client.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend' and state not in ('idle')`,
        );
        if (rows[0]!.n === 0) return;
        if (Date.now() > deadline) {
          console.log('! database still busy after 300 s; going on');
          return;
        }
        await sleep(250);
      }
    },
    close: () => client.end(),
  };
}

/** PGlite runs one query at a time inside the server: a quick health answer means the queue is empty. */
export function pgliteIdle(baseUrl: string): IdleWait {
  return async () => {
    const deadline = Date.now() + 300_000;
    while (Date.now() < deadline) {
      const started = performance.now();
      const ok = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok && performance.now() - started < 200) return;
      await sleep(250);
    }
  };
}
