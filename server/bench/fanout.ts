/**
 * Fan-out benchmark: what one ticket change costs the server while N staff dashboards are open.
 *
 *   npm run bench:fanout                                   # needs PostgreSQL
 *   BENCH_DASHBOARDS=1000 BENCH_CHANGES=20 npm run bench:fanout
 *
 * One server process (src/main.ts, in-memory Socket.IO adapter) on a fresh PostgreSQL database with
 * BENCH_TICKETS (30) tickets. BENCH_DASHBOARDS (1000) agent dashboards live in this process, each as
 * the browser holds one: a socket.io-client connection, and a TanStack `QueryClient` (query-core,
 * the client's default options) with observers on the agent dashboard's two queries, page 1 of the
 * table with default filters and the count cards. Their queryFns send real HTTP and are counted.
 * Socket events go through the client's own cache writer (client/src/api/ticketCache.ts), as does the
 * acting agent's HTTP answer in dashboard 0, their own tab.
 *
 * Then one agent makes BENCH_WARMUP_CHANGES (2) unmeasured and BENCH_CHANGES (200) measured changes
 * over HTTP, one after the other, alternating priority and status, round-robin over the tickets of
 * page 1. After each, it waits until every dashboard has the event and no query is fetching. Figures
 * per change: HTTP requests the dashboards sent, CPU of the server process (utime + stime from
 * /proc), database transactions (pg_stat_database; a statement outside a transaction counts once).
 * At the end every dashboard's cached page and counts are compared with what the server answers.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a database is created and
 * dropped), BENCH_CONNECT_CONCURRENCY (200 handshakes in flight), BENCH_HTTP_SOCKETS (keep-alive
 * connections the dashboards share, 100), BENCH_TIMEOUT_MS per change (30000). Loopback only; Linux.
 */
import { execFileSync } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { QueryClient, QueryObserver } from '@tanstack/query-core';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import {
  DEFAULT_TICKET_QUERY,
  PRIORITIES,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type Ticket,
  type TicketListResponse,
  type TicketStats,
  type TicketStatsResponse,
  type TicketStatus,
  type UpdateTicketBody,
} from '@helpdesk/protocol';
import { applyCommentAdded, applyTicketChanged, setLiveEchoes, ticketKeys, ticketSaved } from '../../client/src/api/ticketCache';
import { createPostgresDatabase } from '../test/database.js';
import { createTicket, signUp } from '../test/factories.js';
import { createApiClient } from '../test/http.js';
import { startBenchServers } from './servers.js';
import { benchSocketOptions, DEFAULT_POSTGRES_URL, machine, markdownTable, percentile, positiveInt, requirePostgres } from './support.js';

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const DASHBOARDS = positiveInt('BENCH_DASHBOARDS', 1_000);
const CHANGES = positiveInt('BENCH_CHANGES', 200);
const WARMUP_CHANGES = positiveInt('BENCH_WARMUP_CHANGES', 2, 0);
const TICKETS = positiveInt('BENCH_TICKETS', 30);
const CONNECT_CONCURRENCY = positiveInt('BENCH_CONNECT_CONCURRENCY', 200);
const HTTP_SOCKETS = positiveInt('BENCH_HTTP_SOCKETS', 100);
const TIMEOUT_MS = positiveInt('BENCH_TIMEOUT_MS', 30_000);
/** Backends flush their counters to pg_stat_database within about ten seconds of going idle. */
const PG_STATS_SETTLE_MS = 11_000;

// ---------------------------------------------------------------------------------------------------------------
// HTTP as the dashboards send it, counted by what they asked for.

type RequestKind = 'list' | 'stats' | 'detail';
const requests: Record<RequestKind, number> = { list: 0, stats: 0, detail: 0 };
let inFlight = 0;
const httpAgent = new Agent({ keepAlive: true, maxSockets: HTTP_SOCKETS });

function getJson<T>(baseUrl: string, path: string, token: string, kind: RequestKind): Promise<T> {
  requests[kind]++;
  inFlight++;
  return new Promise<T>((resolve, reject) => {
    const req = httpRequest(
      `${baseUrl}/api${path}`,
      { agent: httpAgent, headers: { accept: 'application/json', authorization: `Bearer ${token}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode !== 200) reject(new Error(`GET ${path} answered ${res.statusCode}: ${text}`));
          else resolve(JSON.parse(text) as T);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  }).finally(() => inFlight--);
}

/** The agent table's first page with the filters cleared, as useAgentTicketPage asks for it. */
const PAGE_ONE = DEFAULT_TICKET_QUERY;
const ALL_TICKETS = {};

// ---------------------------------------------------------------------------------------------------------------
// One dashboard: a socket and a query cache with the dashboard's observers.

interface Dashboard {
  client: QueryClient;
  events: number;
  close(): void;
}

async function openDashboard(baseUrl: string, token: string): Promise<Dashboard> {
  // The client's createQueryClient defaults (client/src/api/queryClient.ts); a failure is a bench error, not retried.
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false } } });
  const list = new QueryObserver(client, {
    queryKey: ticketKeys.list(PAGE_ONE),
    queryFn: () => getJson<TicketListResponse>(baseUrl, `/tickets?page=1&limit=${PAGE_ONE.limit}`, token, 'list'),
  });
  const stats = new QueryObserver(client, {
    queryKey: ticketKeys.statsFor(ALL_TICKETS),
    queryFn: () => getJson<TicketStatsResponse>(baseUrl, '/tickets/stats', token, 'stats'),
  });
  const unsubscribe = [list.subscribe(() => undefined), stats.subscribe(() => undefined)];

  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(baseUrl, benchSocketOptions(token));
  const dashboard: Dashboard = {
    client,
    events: 0,
    close() {
      socket.disconnect();
      unsubscribe.forEach((off) => off());
      client.clear();
    },
  };
  socket.on('ticket-changed', (event) => {
    dashboard.events++;
    applyTicketChanged(client, event);
  });
  socket.on('comment-added', (event) => applyCommentAdded(client, event));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('connect', () => resolve());
  });
  // As useRealtime does: with the socket up, this tab's own answers leave the rest to the echo.
  setLiveEchoes(client, true);
  return dashboard;
}

async function openDashboards(n: number, open: (index: number) => Promise<Dashboard>): Promise<Dashboard[]> {
  const dashboards: Dashboard[] = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const index = next++;
      dashboards[index] = await open(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONNECT_CONCURRENCY, n) }, worker));
  return dashboards;
}

const settled = (dashboards: Dashboard[]) => inFlight === 0 && dashboards.every((d) => d.client.isFetching() === 0);

/** Until no dashboard has a request out, twice in a row a few milliseconds apart. */
async function untilSettled(dashboards: Dashboard[], deadline: number): Promise<void> {
  let quiet = 0;
  while (quiet < 2) {
    if (Date.now() > deadline) throw new Error('dashboards still fetching at the deadline');
    await sleep(5);
    quiet = settled(dashboards) ? quiet + 1 : 0;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Server-side figures.

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU milliseconds a process has used so far (user + system), from /proc/<pid>/stat. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

async function transactions(adminUrl: string, database: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('select xact_commit + xact_rollback as n from pg_stat_database where datname = $1', [
      database,
    ]);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------

const STATUSES: TicketStatus[] = ['in_progress', 'resolved', 'open'];
const next = <T>(cycle: readonly T[], current: T) => cycle[(cycle.indexOf(current) + 1) % cycle.length]!;

interface Outcome {
  requests: Record<RequestKind, number>;
  cpuMs: number;
  transactions: number;
  latencies: number[];
  missing: number;
  consistent: number;
  mismatch?: string;
}

async function run(): Promise<Outcome> {
  const database = await createPostgresDatabase(POSTGRES_URL, 'helpdesk_bench');
  const databaseName = new URL(database.url).pathname.slice(1);
  const teardown: Array<() => Promise<unknown>> = [() => database.drop()];
  let dashboards: Dashboard[] = [];
  try {
    // Open agent sign-up lets the bench create its agents without an admin account.
    const servers = await startBenchServers(1, { databaseUrl: database.url, env: { AGENT_SIGNUP: 'open' } });
    teardown.push(() => servers.stop());
    const baseUrl = servers.urls[0]!;
    const pid = servers.processes[0]!.child.pid!;
    const api = createApiClient(baseUrl);

    const actor = await signUp(api, { role: 'agent', name: 'Acting Agent' });
    const viewer = await signUp(api, { role: 'agent', name: 'Watching Agent' });
    const owner = await signUp(api, { name: 'Ticket Owner' });
    const created: Ticket[] = [];
    for (let i = 0; i < TICKETS; i++)
      created.push(await createTicket(api, owner.token, { title: `Bench ticket ${i + 1}`, priority: PRIORITIES[i % PRIORITIES.length] }));
    // Page 1 under the default sort (newest first) holds the last ones created.
    const targets = created.slice(-Math.min(TICKETS, PAGE_ONE.limit)).map((t) => ({ id: t.id, priority: t.priority, status: t.status }));

    const started = performance.now();
    dashboards = await openDashboards(DASHBOARDS, (i) => openDashboard(baseUrl, i === 0 ? actor.token : viewer.token));
    await untilSettled(dashboards, Date.now() + TIMEOUT_MS);
    console.log(`  ${DASHBOARDS} dashboards open and loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const ownTab = dashboards[0]!;
    /** The k-th change; its time until every dashboard settled, or how many dashboards never got its event. */
    const change = async (k: number): Promise<{ ms: number } | { missing: number }> => {
      const target = targets[k % targets.length]!;
      const body: UpdateTicketBody =
        k % 2 === 0
          ? { priority: (target.priority = next(PRIORITIES, target.priority)) }
          : { status: (target.status = next(STATUSES, target.status)) };
      const before = dashboards.map((d) => d.events);
      const t0 = performance.now();
      const deadline = Date.now() + TIMEOUT_MS;
      const answer = await api.put(`/tickets/${target.id}`, body, { token: actor.token });
      if (answer.status !== 200) throw new Error(`PUT answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      // The acting agent's own tab writes the answer, as the mutation's onSuccess does.
      void ticketSaved(ownTab.client, answer.body.ticket);
      while (dashboards.some((d, i) => d.events === before[i])) {
        if (Date.now() > deadline) return { missing: dashboards.filter((d, i) => d.events === before[i]).length };
        await sleep(2);
      }
      await untilSettled(dashboards, deadline);
      return { ms: performance.now() - t0 };
    };

    for (let k = 0; k < WARMUP_CHANGES; k++) await change(k);
    await sleep(PG_STATS_SETTLE_MS);
    const counted = { ...requests };
    const cpuBefore = cpuMs(pid);
    const xactBefore = await transactions(POSTGRES_URL, databaseName);
    const latencies: number[] = [];
    let missing = 0;
    for (let k = WARMUP_CHANGES; k < WARMUP_CHANGES + CHANGES; k++) {
      const result = await change(k);
      if ('ms' in result) latencies.push(result.ms);
      else missing += result.missing;
      if ((k - WARMUP_CHANGES + 1) % Math.max(1, Math.floor(CHANGES / 10)) === 0)
        process.stdout.write(`  ${k - WARMUP_CHANGES + 1}/${CHANGES} changes\n`);
    }
    const cpu = cpuMs(pid) - cpuBefore;
    const measured = {
      list: requests.list - counted.list,
      stats: requests.stats - counted.stats,
      detail: requests.detail - counted.detail,
    };
    await sleep(PG_STATS_SETTLE_MS);
    // The comparison below sends requests of its own, so the transaction count is read first.
    const xact = (await transactions(POSTGRES_URL, databaseName)) - xactBefore;

    // Every dashboard must show what the server would answer now.
    const truthList = await getJson<TicketListResponse>(baseUrl, `/tickets?page=1&limit=${PAGE_ONE.limit}`, viewer.token, 'list');
    const truthStats = await getJson<TicketStatsResponse>(baseUrl, '/tickets/stats', viewer.token, 'stats');
    let consistent = 0;
    let mismatch: string | undefined;
    for (const [i, d] of dashboards.entries()) {
      const list = d.client.getQueryData<TicketListResponse>(ticketKeys.list(PAGE_ONE));
      const stats = d.client.getQueryData<TicketStatsResponse>(ticketKeys.statsFor(ALL_TICKETS));
      const same =
        JSON.stringify(list?.data) === JSON.stringify(truthList.data) &&
        list?.total === truthList.total &&
        sameStats(stats?.stats, truthStats.stats);
      if (same) consistent++;
      else
        mismatch ??= `dashboard ${i}: list ${JSON.stringify(list?.data.map(brief))} vs ${JSON.stringify(truthList.data.map(brief))}; stats ${JSON.stringify(stats?.stats)} vs ${JSON.stringify(truthStats.stats)}`;
    }
    return { requests: measured, cpuMs: cpu, transactions: xact, latencies, missing, consistent, mismatch };
  } finally {
    dashboards.forEach((d) => {
      d.close();
    });
    httpAgent.destroy();
    for (const step of teardown.reverse()) await step().catch((error: unknown) => console.error('teardown step failed:', error));
  }
}

const brief = (t: Ticket) => `${t.id}:${t.status}/${t.priority}`;
const sameStats = (a: TicketStats | undefined, b: TicketStats) =>
  a !== undefined && (Object.keys(b) as (keyof TicketStats)[]).every((k) => a[k] === b[k]);

async function main(): Promise<number> {
  await requirePostgres(POSTGRES_URL, 'BENCH_DATABASE_URL');
  console.log(
    `${machine()} | load average ${os.loadavg()[0]!.toFixed(2)}\n` +
      `dashboards: ${DASHBOARDS} | changes: ${WARMUP_CHANGES} warm-up + ${CHANGES} measured, sequential | tickets: ${TICKETS} | ` +
      `${HTTP_SOCKETS} keep-alive HTTP connections shared by the dashboards\n`,
  );
  const outcome = await run();
  const per = (v: number) => (v / CHANGES).toFixed(v / CHANGES >= 100 ? 0 : 2);
  const total = outcome.requests.list + outcome.requests.stats + outcome.requests.detail;
  const sorted = [...outcome.latencies].sort((a, b) => a - b);
  console.log('');
  console.log(
    markdownTable(
      ['per change', 'value'],
      [
        ['HTTP requests from the dashboards', per(total)],
        ['  of which ticket list', per(outcome.requests.list)],
        ['  of which stats', per(outcome.requests.stats)],
        ['  of which ticket detail', per(outcome.requests.detail)],
        ['server CPU ms', per(outcome.cpuMs)],
        ['database transactions', per(outcome.transactions)],
        ['PUT to every dashboard settled, p50 ms', percentile(sorted, 0.5).toFixed(1)],
        ['PUT to every dashboard settled, max ms', (sorted.at(-1) ?? Number.NaN).toFixed(1)],
      ],
    ),
  );
  console.log(`\ndashboards matching the server at the end: ${outcome.consistent}/${DASHBOARDS}`);
  if (outcome.mismatch) console.log(`! first mismatch: ${outcome.mismatch}`);
  if (outcome.missing > 0) console.log(`! ${outcome.missing} event deliveries missing after ${TIMEOUT_MS} ms`);
  return outcome.consistent === DASHBOARDS && outcome.missing === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  },
);
