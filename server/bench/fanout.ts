/**
 * Fan-out benchmark: what one ticket change costs the server while N staff dashboards are open.
 *
 *   npm run bench:fanout                                   # needs PostgreSQL
 *   BENCH_DASHBOARDS=1000 BENCH_CHANGES=20 npm run bench:fanout
 *
 * One server process (src/main.ts, in-memory Socket.IO adapter) on a fresh PostgreSQL database with
 * BENCH_TICKETS (30) tickets and saved views of every kind: shared and private, filter-only and with a
 * text search. BENCH_DASHBOARDS (1000) agent dashboards live in this process, each as the browser
 * holds one: a socket.io-client connection, and a TanStack `QueryClient` (query-core, the client's
 * default options) with observers on every live widget the agent dashboard loads: page 1 of the table
 * with default filters, the count cards, the saved views and their counts, the bell's notifications
 * and the staff directory of the assign menu. BENCH_REPORT_PAGES (100) of them also have the Reports
 * page open: its four reports of the last 30 days, refetched as the page does (at most once per
 * LIVE_REFETCH_MS, client/src/features/reports/liveRefetch.ts). Their queryFns send real HTTP and are counted. Socket
 * events go through the client's own cache writers (client/src/api/ticketCache.ts and
 * viewCountCache.ts, realtime/collaboration.ts for the bell), as does the acting agent's HTTP answer
 * in dashboard 0, their own tab.
 *
 * Then one agent makes BENCH_WARMUP_CHANGES (2) unmeasured and BENCH_CHANGES (200) measured changes
 * over HTTP, one after the other, cycling through a priority change, a status change and a comment,
 * round-robin over the tickets of page 1. After each, it waits until every dashboard has the event and
 * no query is fetching. Figures per change: HTTP requests the dashboards sent, by widget, CPU of the
 * server process (utime + stime from /proc), database transactions (pg_stat_database; a statement
 * outside a transaction counts once), `view-counts` messages a dashboard received. At the end every
 * dashboard's cached page, count cards and view counts are compared with what the server answers.
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
  addDays,
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
  type ViewCountsResponse,
} from '@helpdesk/protocol';
import { queryKeys } from '../../client/src/api/queryKeys';
import { applyCommentAdded, applyTicketChanged, setLiveEchoes, ticketKeys, ticketSaved } from '../../client/src/api/ticketCache';
import { applyPushedViewCounts, moveViewCounts } from '../../client/src/api/viewCountCache';
import { applyNotification } from '../../client/src/api/notificationCache';
import { refetchReportsOn } from '../../client/src/features/reports/liveRefetch';
import { createPostgresDatabase } from '../test/database.js';
import { ADMIN_ENV, createTicket, logIn, signUp, TEST_ADMIN, type Account } from '../test/factories.js';
import { createApiClient, type ApiClient } from '../test/http.js';
import { VIEW_COUNTS_INTERVAL_MS } from '../src/realtime/viewCountsPush.js';
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
const REPORT_PAGES = positiveInt('BENCH_REPORT_PAGES', 100, 0);
/** Backends flush their counters to pg_stat_database within about ten seconds of going idle. */
const PG_STATS_SETTLE_MS = 11_000;

// ---------------------------------------------------------------------------------------------------------------
// HTTP as the dashboards send it, counted by what they asked for.

const REQUEST_KINDS = ['list', 'stats', 'detail', 'views', 'viewCounts', 'notifications', 'staff', 'reports'] as const;
type RequestKind = (typeof REQUEST_KINDS)[number];
const WIDGET_NAMES: Record<RequestKind, string> = {
  list: 'ticket list',
  stats: 'count cards',
  detail: 'ticket detail',
  views: 'saved views',
  viewCounts: 'view counts',
  notifications: 'bell',
  staff: 'staff directory',
  reports: 'Reports page',
};
const requests = Object.fromEntries(REQUEST_KINDS.map((kind) => [kind, 0])) as Record<RequestKind, number>;
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
  pushes: number;
  close(): void;
}

/** The agent dashboard's live widgets as query options: each a key of the client's and the path it reads. */
const WIDGETS: { key: readonly unknown[]; path: string; kind: RequestKind }[] = [
  { key: ticketKeys.list(PAGE_ONE), path: `/tickets?page=1&limit=${PAGE_ONE.limit}`, kind: 'list' },
  { key: ticketKeys.statsFor(ALL_TICKETS), path: '/tickets/stats', kind: 'stats' },
  { key: queryKeys.queue.views, path: '/views', kind: 'views' },
  { key: queryKeys.queue.viewCounts, path: '/views/counts', kind: 'viewCounts' },
  { key: queryKeys.notifications, path: '/notifications', kind: 'notifications' },
  { key: queryKeys.users.staffDirectory, path: '/users/staff', kind: 'staff' },
];

/** The Reports page's reads for its default range, the last 30 days (features/reports/ReportsPage.tsx). */
const REPORT_QUERY = (() => {
  const to = new Date().toISOString().slice(0, 10);
  return { from: addDays(to, -29), to, tz: 'UTC' };
})();
const REPORT_WIDGETS = (['summary', 'timeseries', 'backlog', 'breakdown'] as const).map((name) => ({
  key: queryKeys.reports.report(name, REPORT_QUERY),
  path: `/reports/${name}?${new URLSearchParams(REPORT_QUERY).toString()}`,
  kind: 'reports' as const,
}));

async function openDashboard(baseUrl: string, account: Account, withReports: boolean): Promise<Dashboard> {
  // The client's createQueryClient defaults (client/src/api/queryClient.ts); a failure is a bench error, not retried.
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false } } });
  const unsubscribe = [...WIDGETS, ...(withReports ? REPORT_WIDGETS : [])].map(({ key, path, kind }) =>
    new QueryObserver(client, { queryKey: key, queryFn: () => getJson(baseUrl, path, account.token, kind) }).subscribe(() => undefined),
  );

  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(baseUrl, benchSocketOptions(account.token));
  const stopReports = withReports ? refetchReportsOn(socket, client) : () => undefined;
  const dashboard: Dashboard = {
    client,
    events: 0,
    pushes: 0,
    close() {
      stopReports();
      socket.disconnect();
      unsubscribe.forEach((off) => off());
      client.clear();
    },
  };
  // As useRealtime hands them over.
  socket.on('ticket-changed', (event) => {
    dashboard.events++;
    applyTicketChanged(client, event);
    moveViewCounts(client, event, account.user.id);
  });
  socket.on('comment-added', (event) => {
    dashboard.events++;
    applyCommentAdded(client, event);
  });
  socket.on('notification', (event) => applyNotification(client, event));
  socket.on('view-counts', (event) => {
    dashboard.pushes++;
    applyPushedViewCounts(client, event);
  });
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
  /** `view-counts` messages the dashboards received. */
  pushes: number;
  latencies: number[];
  missing: number;
  consistent: number;
  mismatch?: string;
}

/** Every few changes one is a comment; comments are rate-limited per person, so several staff take turns. */
const COMMENT_EVERY = 10;
const COMMENTERS = 4;

/** Saved views of every kind the counts handle: built in, shared and private, filter-only and searched. */
async function createViews(api: ApiClient, admin: Account, viewer: Account): Promise<void> {
  const views: [Account, object][] = [
    [admin, { name: 'Open urgent', filters: { status: 'open', priority: 'urgent' }, shared: true }],
    [admin, { name: 'Open 2x', filters: { status: 'open', search: 'ticket 2' }, shared: true }],
    [admin, { name: 'My bench tickets', filters: { search: 'bench', assignee: 'me' }, shared: true }],
    [viewer, { name: 'Mine in progress', filters: { status: 'in_progress', assignee: 'me' } }],
    [viewer, { name: 'Resolved bench', filters: { status: 'resolved', search: 'bench' } }],
  ];
  for (const [owner, body] of views) {
    const res = await api.post('/views', body, { token: owner.token });
    if (res.status !== 201) throw new Error(`view answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

async function run(): Promise<Outcome> {
  const database = await createPostgresDatabase(POSTGRES_URL, 'helpdesk_bench');
  const databaseName = new URL(database.url).pathname.slice(1);
  const teardown: Array<() => Promise<unknown>> = [() => database.drop()];
  let dashboards: Dashboard[] = [];
  try {
    // Open agent sign-up lets the bench create its agents; the admin shares views.
    const servers = await startBenchServers(1, { databaseUrl: database.url, env: { AGENT_SIGNUP: 'open', ...ADMIN_ENV } });
    teardown.push(() => servers.stop());
    const baseUrl = servers.urls[0]!;
    const pid = servers.processes[0]!.child.pid!;
    const api = createApiClient(baseUrl);

    const admin = await logIn(api, TEST_ADMIN.email, TEST_ADMIN.password);
    const actor = await signUp(api, { role: 'agent', name: 'Acting Agent' });
    const viewer = await signUp(api, { role: 'agent', name: 'Watching Agent' });
    const owner = await signUp(api, { name: 'Ticket Owner' });
    const commenters = [actor];
    while (commenters.length < COMMENTERS) commenters.push(await signUp(api, { role: 'agent', name: `Commenter ${commenters.length}` }));
    const created: Ticket[] = [];
    for (let i = 0; i < TICKETS; i++)
      created.push(await createTicket(api, owner.token, { title: `Bench ticket ${i + 1}`, priority: PRIORITIES[i % PRIORITIES.length] }));
    // Page 1 under the default sort (newest first) holds the last ones created; half of them are the watcher's.
    const targets = created.slice(-Math.min(TICKETS, PAGE_ONE.limit)).map((t) => ({ id: t.id, priority: t.priority, status: t.status }));
    for (const target of targets.filter((_, i) => i % 2 === 0))
      await api.put(`/tickets/${target.id}`, { assignedAgentId: viewer.user.id }, { token: actor.token });
    await createViews(api, admin, viewer);

    const started = performance.now();
    dashboards = await openDashboards(DASHBOARDS, (i) => openDashboard(baseUrl, i === 0 ? actor : viewer, i < REPORT_PAGES));
    await untilSettled(dashboards, Date.now() + TIMEOUT_MS);
    console.log(`  ${DASHBOARDS} dashboards open and loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const ownTab = dashboards[0]!;
    /** The k-th change; its time until every dashboard settled, or how many dashboards never got its event. */
    const change = async (k: number): Promise<{ ms: number } | { missing: number }> => {
      const target = targets[k % targets.length]!;
      const before = dashboards.map((d) => d.events);
      const t0 = performance.now();
      const deadline = Date.now() + TIMEOUT_MS;
      if (k % COMMENT_EVERY === COMMENT_EVERY - 1) {
        const by = commenters[Math.floor(k / COMMENT_EVERY) % commenters.length]!;
        const answer = await api.post(`/tickets/${target.id}/comments`, { content: `Bench comment ${k}` }, { token: by.token });
        if (answer.status !== 201) throw new Error(`comment answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      } else {
        const body: UpdateTicketBody =
          k % 2 === 0
            ? { priority: (target.priority = next(PRIORITIES, target.priority)) }
            : { status: (target.status = next(STATUSES, target.status)) };
        const answer = await api.put(`/tickets/${target.id}`, body, { token: actor.token });
        if (answer.status !== 200) throw new Error(`PUT answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        // The acting agent's own tab writes the answer, as the mutation's onSuccess does.
        void ticketSaved(ownTab.client, answer.body.ticket);
      }
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
    const pushesBefore = dashboards.reduce((n, d) => n + d.pushes, 0);
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
    const measured = Object.fromEntries(REQUEST_KINDS.map((kind) => [kind, requests[kind] - counted[kind]])) as Record<RequestKind, number>;
    // The last pushes leave up to a second after the last change (one message a second per room).
    await sleep(VIEW_COUNTS_INTERVAL_MS + 500);
    await untilSettled(dashboards, Date.now() + TIMEOUT_MS);
    const cpu = cpuMs(pid) - cpuBefore;
    const pushes = dashboards.reduce((n, d) => n + d.pushes, 0) - pushesBefore;
    await sleep(PG_STATS_SETTLE_MS);
    // The comparison below sends requests of its own, so the transaction count is read first.
    const xact = (await transactions(POSTGRES_URL, databaseName)) - xactBefore;

    // Every dashboard must show what the server would answer now, to its own user.
    const truthOf = async (account: Account) => ({
      list: await getJson<TicketListResponse>(baseUrl, `/tickets?page=1&limit=${PAGE_ONE.limit}`, account.token, 'list'),
      stats: await getJson<TicketStatsResponse>(baseUrl, '/tickets/stats', account.token, 'stats'),
      counts: await getJson<ViewCountsResponse>(baseUrl, '/views/counts', account.token, 'viewCounts'),
    });
    const truths = [await truthOf(actor), await truthOf(viewer)];
    let consistent = 0;
    let mismatch: string | undefined;
    for (const [i, d] of dashboards.entries()) {
      const truth = truths[i === 0 ? 0 : 1]!;
      const list = d.client.getQueryData<TicketListResponse>(ticketKeys.list(PAGE_ONE));
      const stats = d.client.getQueryData<TicketStatsResponse>(ticketKeys.statsFor(ALL_TICKETS));
      const counts = d.client.getQueryData<ViewCountsResponse>(queryKeys.queue.viewCounts);
      const same =
        JSON.stringify(list?.data.map(comparable)) === JSON.stringify(truth.list.data.map(comparable)) &&
        list?.total === truth.list.total &&
        sameStats(stats?.stats, truth.stats.stats) &&
        JSON.stringify(sorted(counts?.counts)) === JSON.stringify(sorted(truth.counts.counts));
      if (same) consistent++;
      else
        mismatch ??= `dashboard ${i}: list ${JSON.stringify(list?.data.map(brief))} vs ${JSON.stringify(truth.list.data.map(brief))}; stats ${JSON.stringify(stats?.stats)} vs ${JSON.stringify(truth.stats.stats)}; view counts ${JSON.stringify(counts?.counts)} vs ${JSON.stringify(truth.counts.counts)}`;
    }
    return { requests: measured, cpuMs: cpu, transactions: xact, pushes, latencies, missing, consistent, mismatch };
  } finally {
    dashboards.forEach((d) => {
      d.close();
    });
    httpAgent.destroy();
    for (const step of teardown.reverse()) await step().catch((error: unknown) => console.error('teardown step failed:', error));
  }
}

/** A row as both sides know it: a reader's unread mark is the server's per-person memory, not part of the change. */
const comparable = ({ unread: _unread, ...ticket }: Ticket) => ticket;
const sorted = (counts: Record<string, number> | undefined) => counts && Object.entries(counts).sort(([a], [b]) => Number(a) - Number(b));
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
  const total = REQUEST_KINDS.reduce((n, kind) => n + outcome.requests[kind], 0);
  const sorted = [...outcome.latencies].sort((a, b) => a - b);
  console.log('');
  console.log(
    markdownTable(
      ['per change', 'value'],
      [
        ['HTTP requests from the dashboards', per(total)],
        ...REQUEST_KINDS.map((kind) => [`  of which ${WIDGET_NAMES[kind]}`, per(outcome.requests[kind])]),
        ['view-counts messages received, all dashboards', per(outcome.pushes)],
        ['server CPU ms', per(outcome.cpuMs)],
        ['database transactions', per(outcome.transactions)],
        ['change to every dashboard settled, p50 ms', percentile(sorted, 0.5).toFixed(1)],
        ['change to every dashboard settled, max ms', (sorted.at(-1) ?? Number.NaN).toFixed(1)],
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
