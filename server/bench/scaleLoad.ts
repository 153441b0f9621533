/**
 * The scale bench's load: a closed loop of `connections` workers over keep-alive sockets, each sending
 * the next distinct question as soon as its previous answer has fully arrived, and timing every
 * response itself (no fixed percentiles, no request dropped at the end of a run: one still in flight
 * is waited for and counted). With several server processes the requests alternate between them. A
 * writer changes random tickets at a set rate meanwhile and says what rate it reached.
 */
import http from 'node:http';
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

/**
 * Asks `next()`'s questions for `seconds` with `connections` workers; requests still in flight at
 * the end are waited for and counted, so a slow call's tail is in its figures.
 */
export async function load(
  targets: Target[],
  next: () => Question,
  headersOf: (q: Question) => Record<string, string>,
  connections: number,
  seconds: number,
): Promise<Run> {
  const latencies: number[] = [];
  const refused = new Map<number, number>();
  const paths = new Set<string>();
  let bytes = 0;
  let turn = 0;
  let slowest: Run['slowest'];
  const started = performance.now();
  const until = started + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const q = next();
      paths.add(`${q.userId ?? '-'} ${q.path}`);
      const answer = await send(targets[turn++ % targets.length]!, 'GET', q.path, headersOf(q));
      latencies.push(answer.ms);
      if (!slowest || answer.ms > slowest.ms) slowest = { ms: answer.ms, question: q };
      bytes += answer.body.length;
      if (answer.status < 200 || answer.status > 299) refused.set(answer.status, (refused.get(answer.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    n: latencies.length,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    rps: latencies.length / elapsed,
    refused,
    repeated: latencies.length === 0 ? 0 : 1 - paths.size / latencies.length,
    bytes: latencies.length === 0 ? 0 : bytes / latencies.length,
    slowest,
    latencies,
    seconds: elapsed,
  };
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
