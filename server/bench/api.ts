/**
 * HTTP benchmark of the ticket list: the real server (createServer) on 10,000 seeded tickets, next to a
 * bare Koa app that serves the same number of bytes, so the gap is what the API itself costs.
 *
 *   npm run bench:api                                                         # embedded PGlite
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:api  # PostgreSQL (a fresh database on that server, dropped afterwards)
 *
 *   BENCH_PROCESSES=2 BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test BENCH_REDIS_URL=redis://127.0.0.1:6379 npm run bench:api
 *
 * BENCH_PROCESSES=2 (needs BENCH_DATABASE_URL and BENCH_REDIS_URL) measures scale-out instead: it seeds a
 * fresh PostgreSQL database directly, then runs the same scenarios through the loopback round-robin
 * load balancer (test/tcpProxy.ts) in front of one server process, then of two (the server build, both with
 * REDIS_URL, so the process count is the only difference), next to the bare Koa floor served directly
 * and through the same balancer. The balancer runs in this process, on the thread autocannon does not use.
 *
 * BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS (default 10),
 * BENCH_WORKERS (autocannon worker threads, default 1; 0 = fire requests from the server's own thread).
 * All traffic stays on 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { BUILT_IN_VIEWS, type Priority, type TicketStatus } from '@helpdesk/protocol';
import { openDatabase, type Db } from '../src/db/client.js';
import { ticketComments, tickets, users } from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/passwords.js';
import { createServer, type HelpdeskServer } from '../src/server.js';
import { parseSettings } from '../src/settings.js';
import { createPostgresDatabase } from '../test/database.js';
import { deleteRedisKeys } from '../test/redisKeys.js';
import { startTcpProxy, upstreamOf } from '../test/tcpProxy.js';
import { bareFloorServer } from './bareFloor.js';
import { startBenchServers } from './servers.js';
import { markdownTable, positiveInt, requirePostgres, requireRedis } from './support.js';

const TICKETS = 10_000;
const OWNERS = 50;
const SEEDED_AGENTS = 5;
const BATCH = 1_000;
const HOST = '127.0.0.1';

const DURATION = positiveInt('BENCH_DURATION', 10);
const WARMUP = positiveInt('BENCH_WARMUP', 2, 0);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const WORKERS = positiveInt('BENCH_WORKERS', 1, 0);
const PROCESSES = positiveInt('BENCH_PROCESSES', 0, 0);

// ---------------------------------------------------------------------------------------------------------------
// Database: embedded PGlite in the temp DATA_DIR, or a throwaway database on BENCH_DATABASE_URL's server.

/** A throwaway database on BENCH_DATABASE_URL's server, or none (the embedded PGlite in DATA_DIR). */
async function createBenchDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  return adminUrl ? createPostgresDatabase(adminUrl, 'helpdesk_bench') : { drop: async () => {} };
}

// ---------------------------------------------------------------------------------------------------------------
// Seed: owners and agents, then 10,000 tickets and some comments in multi-row INSERTs.

const SUBJECTS = [
  'Printer on floor 3 is jammed',
  'Printer shows offline for the whole team',
  'Cannot connect to the VPN from home',
  'Password reset email never arrives',
  'Laptop battery drains within an hour',
  'Outlook keeps asking for credentials',
  'Need access to the finance shared drive',
  'Monitor flickers after docking',
  'Invoice PDF export fails with an error',
  'Wi-Fi drops in meeting room B',
  'Request a new keyboard and mouse',
  'Slow login on the CRM web app',
  'Phone extension not forwarding calls',
  'Software licence expired for the design suite',
  'Calendar invites show the wrong time zone',
  'Scanner saves blank pages',
];
const DETAILS = [
  'It started this morning and happens every time I try.',
  'Restarting did not help, and a colleague sees the same thing.',
  'This blocks the month-end close, so it is fairly urgent for us.',
  'I attached nothing yet, but I can share a screenshot if needed.',
  'The problem comes and goes; it was fine yesterday afternoon.',
  'Several people in the office have mentioned it during stand-up.',
];
const RESOLUTIONS = [
  'Replaced the faulty part.',
  'Reset the account and confirmed with the user.',
  'Updated the driver; working again.',
  'Duplicate of an earlier ticket.',
];

/** A deterministic PRNG, so every run seeds the same data set. */
function mulberry32(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function weighted<T extends string>(random: () => number, weights: Record<T, number>): T {
  const entries = Object.entries(weights) as [T, number][];
  let roll = random() * entries.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, weight] of entries) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return entries.at(-1)![0];
}

interface Seeded {
  tickets: number;
  comments: number;
  ms: number;
}

async function seed(db: Db): Promise<Seeded> {
  const started = performance.now();
  const random = mulberry32(42);
  const passwordHash = await hashPassword('bench-password-not-used');

  const owners = await db
    .insert(users)
    .values(
      Array.from({ length: OWNERS }, (_, i) => ({
        name: `Bench User ${i + 1}`,
        email: `user${i + 1}@bench.test`,
        passwordHash,
        role: 'user' as const,
      })),
    )
    .returning({ id: users.id });
  const agents = await db
    .insert(users)
    .values(
      Array.from({ length: SEEDED_AGENTS }, (_, i) => ({
        name: `Bench Agent ${i + 1}`,
        email: `agent${i + 1}@bench.test`,
        passwordHash,
        role: 'agent' as const,
      })),
    )
    .returning({ id: users.id });
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  // One ticket every ~5 minutes going back from now: ~35 days of history, each created_at distinct.
  const now = Date.now();
  const ticketIds: number[] = [];
  for (let start = 0; start < TICKETS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, TICKETS - start) }, (_, k) => {
      const n = start + k;
      const createdAt = new Date(now - (TICKETS - n) * 300_000 - Math.floor(random() * 60_000));
      const status = weighted<TicketStatus>(random, { open: 30, in_progress: 20, pending: 5, resolved: 30, closed: 15 });
      const priority = weighted<Priority>(random, { low: 25, medium: 45, high: 22, urgent: 8 });
      const owner = pick(owners).id;
      const agent = status === 'open' ? (random() < 0.15 ? pick(agents).id : null) : pick(agents).id;
      const touched = status !== 'open' || agent !== null;
      return {
        title: `${pick(SUBJECTS)} (#${n + 1})`,
        description: `${pick(DETAILS)} ${pick(DETAILS)} Reported from workstation WS-${1000 + Math.floor(random() * 9000)}.`,
        status,
        priority,
        resolutionNotes: status === 'resolved' || status === 'closed' ? pick(RESOLUTIONS) : null,
        userId: owner,
        assignedAgentId: agent,
        updatedById: touched ? (agent ?? owner) : null,
        createdAt,
        updatedAt: touched ? new Date(createdAt.getTime() + Math.floor(random() * 86_400_000)) : createdAt,
      };
    });
    const inserted = await db.insert(tickets).values(rows).returning({ id: tickets.id });
    ticketIds.push(...inserted.map((r) => r.id));
  }

  // About a third of the tickets get one to three comments, so commentCount is not always zero.
  const comments = ticketIds.flatMap((ticketId) =>
    random() < 0.33
      ? Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
          ticketId,
          authorId: random() < 0.5 ? pick(agents).id : pick(owners).id,
          content: pick(DETAILS),
        }))
      : [],
  );
  for (let start = 0; start < comments.length; start += BATCH) {
    await db.insert(ticketComments).values(comments.slice(start, start + BATCH));
  }
  // A long-running database has planner statistics; a freshly bulk-loaded one may not yet.
  await db.execute(sql`analyze`);
  return { tickets: ticketIds.length, comments: comments.length, ms: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP helpers.

async function postJson<T>(url: string, body: unknown, expected: number, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`POST ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

async function getBytes(url: string, headers: Record<string, string>): Promise<Buffer> {
  const response = await fetch(url, { headers });
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${body.toString()}`);
  return body;
}

function listen(server: HttpServer): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve(`http://${HOST}:${(server.address() as AddressInfo).port}`));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Load.

interface Scenario {
  name: string;
  url: string;
  headers: Record<string, string>;
  bodyBytes: number;
}

interface Row {
  scenario: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  bodyBytes: number;
  requests: number;
  problems: string;
}

const load = (scenario: Scenario, seconds: number, connections: number) =>
  autocannon({
    url: scenario.url,
    headers: scenario.headers,
    connections,
    duration: seconds,
    ...(WORKERS > 0 && { workers: WORKERS }),
  });

async function measure(scenario: Scenario): Promise<Row> {
  if (WARMUP > 0) await load(scenario, WARMUP, CONNECTIONS);
  const r = await load(scenario, DURATION, CONNECTIONS);
  const problems = [r.errors && `${r.errors} errors`, r.timeouts && `${r.timeouts} timeouts`, r.non2xx && `${r.non2xx} non-2xx`]
    .filter(Boolean)
    .join(', ');
  return {
    scenario: scenario.name,
    reqPerSec: r.requests.mean,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bodyBytes: scenario.bodyBytes,
    requests: r.requests.total,
    problems,
  };
}

function printTable(rows: Row[]): void {
  // autocannon records latency in whole milliseconds, so 0 means "under 1 ms".
  const ms = (v: number) => (v < 1 ? '<1' : String(v));
  const cells = rows.map((r) => [r.scenario, r.reqPerSec.toFixed(0), ms(r.p50), ms(r.p99), String(r.bodyBytes), String(r.requests)]);
  console.log(markdownTable(['scenario', 'req/s (mean)', 'p50 ms', 'p99 ms', 'bytes/resp', 'requests'], cells));
  for (const r of rows) if (r.problems) console.log(`! ${r.scenario}: ${r.problems}`);
}

/** Signs up an agent through the API under test and returns its bearer header. */
async function agentAuth(url: string): Promise<Record<string, string>> {
  const agent = { name: 'Bench Agent', email: 'bench-agent@bench.test', password: 'Bench-Agent-Passw0rd!' };
  await postJson(`${url}/api/auth/register`, { ...agent, role: 'agent' }, 201);
  const { token } = await postJson<{ token: string }>(`${url}/api/auth/login`, { email: agent.email, password: agent.password }, 200);
  return { authorization: `Bearer ${token}` };
}

const VIEW_COUNTS_PATH = '/api/views/counts';

/** Saved views as an agent keeps them: filter-only ones (maintained counters) and two with a search (capped counts). */
async function queueScenarios(url: string, auth: Record<string, string>, suffix = ''): Promise<Scenario[]> {
  const views = [
    { name: 'Open urgent', filters: { status: 'open', priority: 'urgent' } },
    { name: 'Mine in progress', filters: { status: 'in_progress', assignee: 'me' } },
    { name: 'Unassigned high', filters: { priority: 'high', assignee: 'none' } },
    { name: 'Printers', filters: { search: 'printer' } },
    { name: 'Open VPN', filters: { search: 'vpn', status: 'open' } },
  ];
  for (const view of views) await postJson(`${url}/api/views`, view, 201, auth);
  const body = await getBytes(`${url}${VIEW_COUNTS_PATH}`, auth);
  const counts = Object.keys((JSON.parse(body.toString()) as { counts: object }).counts).length;
  if (counts !== views.length + BUILT_IN_VIEWS.length) throw new Error(`unexpected view counts: ${counts} views`);
  return [
    {
      name: `GET /api/views/counts (${counts} views, 2 searched)${suffix}`,
      url: `${url}${VIEW_COUNTS_PATH}`,
      headers: auth,
      bodyBytes: body.length,
    },
  ];
}

/**
 * POST /api/tickets/bulk on 100 open tickets (closed ones are refused in bulk), one call at a time, each changing all of them (priority
 * alternates), so every call writes 100 rows, 100 history entries and announces 100 events.
 */
async function measureBulk(url: string, auth: Record<string, string>, rounds = 30): Promise<Row> {
  const page = JSON.parse((await getBytes(`${url}/api/tickets?limit=100&status=open`, auth)).toString()) as { tickets: { id: number }[] };
  const ids = page.tickets.map((t) => t.id);
  if (ids.length !== 100) throw new Error(`bulk needs 100 tickets, found ${ids.length}`);
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < rounds + 3; i++) {
    const started = performance.now();
    const answer = await postJson<{ updated: unknown[] }>(
      `${url}/api/tickets/bulk`,
      { ids, changes: { priority: i % 2 === 0 ? 'high' : 'low' } },
      200,
      auth,
    );
    const ms = performance.now() - started;
    if (answer.updated.length !== 100) throw new Error(`bulk updated ${answer.updated.length} of 100`);
    bytes = JSON.stringify(answer).length;
    if (i >= 3) times.push(ms); // the first calls warm up
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0);
  const total = times.reduce((a, b) => a + b, 0);
  return {
    scenario: 'POST /api/tickets/bulk (100 tickets, 1 connection)',
    reqPerSec: (times.length / total) * 1000,
    p50: at(0.5),
    p99: at(0.99),
    bodyBytes: bytes,
    requests: times.length,
    problems: '',
  };
}

const LIST_PATH = '/api/tickets';
const FILTERED_PATH = '/api/tickets?search=printer&status=open';

/** The two API scenarios against a server at `url`, after checking that they answer what the seed implies. */
async function apiScenarios(url: string, auth: Record<string, string>, seeded: Seeded, suffix = '') {
  const listBody = await getBytes(`${url}${LIST_PATH}`, auth);
  const listed = JSON.parse(listBody.toString()) as { tickets: unknown[]; total: number };
  if (listed.total !== seeded.tickets || listed.tickets.length !== 10)
    throw new Error(`unexpected list: total ${listed.total}, page of ${listed.tickets.length}`);
  const filteredBody = await getBytes(`${url}${FILTERED_PATH}`, auth);
  const filtered = JSON.parse(filteredBody.toString()) as { total: number };
  const scenarios: Scenario[] = [
    { name: `GET /api/tickets (page 1, limit 10)${suffix}`, url: `${url}${LIST_PATH}`, headers: auth, bodyBytes: listBody.length },
    {
      name: `GET /api/tickets?search=printer&status=open${suffix}`,
      url: `${url}${FILTERED_PATH}`,
      headers: auth,
      bodyBytes: filteredBody.length,
    },
  ];
  return { scenarios, listBody, filteredTotal: filtered.total };
}

/** The floor, listening on loopback and checked to serve exactly `body`. */
async function startBare(body: Buffer): Promise<{ server: HttpServer; url: string }> {
  const server = bareFloorServer(body);
  const url = `${await listen(server)}/bare`;
  const check = await getBytes(url, {});
  if (!check.equals(body)) throw new Error('bare route does not serve the same bytes');
  return { server, url };
}

const closeHttp = (server: HttpServer | undefined) =>
  new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));

function printSetup(database: string, filteredTotal: number, seeded: Seeded, extra = ''): void {
  console.log(
    `\ndatabase: ${database} | cpus: ${os.cpus().length} (${os.cpus()[0]?.model.trim()}) | node ${process.version}` +
      `\nload: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per scenario, autocannon ${WORKERS > 0 ? `in ${WORKERS} worker thread(s)` : 'on the main thread'}` +
      `\nfiltered scenario matches ${filteredTotal} of ${seeded.tickets} tickets${extra}\n`,
  );
}

const serverVersion = async (db: Db) => {
  const [version] = await db.select({ v: sql<string>`current_setting('server_version')` }).from(sql`(select 1) as one`);
  return version?.v;
};

// ---------------------------------------------------------------------------------------------------------------

/** One server in this process, on PGlite or a throwaway PostgreSQL database. */
async function main(): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'helpdesk-bench-'));
  const benchDb = await createBenchDatabase();
  let server: HelpdeskServer | undefined;
  let bare: HttpServer | undefined;
  try {
    const settings = parseSettings({
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      AGENT_SIGNUP: 'open',
      LOG_LEVEL: 'silent',
      ...(benchDb.url && { DATABASE_URL: benchDb.url }),
    });
    // measureBulk times back-to-back bulk calls of one agent, far past the per-person budget.
    const unlimited = { points: 1_000_000, durationSeconds: 60 };
    server = await createServer(settings, { rateLimits: { bulkPerUser: unlimited, bulkPerAddress: unlimited } });
    const url = await server.listen(0, HOST);

    const seeded = await seed(server.database.db);
    console.log(
      `seeded ${seeded.tickets} tickets, ${seeded.comments} comments, ${OWNERS} users, ${SEEDED_AGENTS} agents in ${(seeded.ms / 1000).toFixed(1)} s`,
    );

    const auth = await agentAuth(url);
    const { scenarios, listBody, filteredTotal } = await apiScenarios(url, auth, seeded);
    scenarios.push(...(await queueScenarios(url, auth)));
    const floor = await startBare(listBody);
    bare = floor.server;
    scenarios.push({ name: 'bare Koa, same bytes', url: floor.url, headers: {}, bodyBytes: listBody.length });

    const version = await serverVersion(server.database.db);
    printSetup(
      `${server.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded, files in DATA_DIR), PostgreSQL'} ${version}`,
      filteredTotal,
      seeded,
    );

    const rows: Row[] = [];
    for (const scenario of scenarios) rows.push(await measure(scenario));
    rows.push(await measureBulk(url, auth));
    printTable(rows);
    return rows.some((r) => r.problems) ? 1 : 0;
  } finally {
    await closeHttp(bare);
    await server?.close();
    await benchDb.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * BENCH_PROCESSES=2: real server processes behind the loopback load balancer, first one then two, on
 * one seeded PostgreSQL database and one Redis.
 */
async function mainProcesses(): Promise<number> {
  if (PROCESSES !== 2) throw new Error(`BENCH_PROCESSES must be 2 (one then two server processes), got ${PROCESSES}`);
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const redisUrl = process.env.BENCH_REDIS_URL;
  if (!adminUrl || !redisUrl)
    throw new Error('BENCH_PROCESSES=2 needs BENCH_DATABASE_URL (PostgreSQL) and BENCH_REDIS_URL (Redis), which the processes share');
  await requirePostgres(adminUrl, 'BENCH_DATABASE_URL');
  await requireRedis(redisUrl, 'BENCH_REDIS_URL');

  const benchDb = await createBenchDatabase();
  let bare: HttpServer | undefined;
  try {
    const databaseUrl = benchDb.url!;
    // openDatabase runs the migrations, as a server process would on an empty database.
    const direct = await openDatabase({ kind: 'postgres', url: databaseUrl });
    const { seeded, version } = await (async () => {
      try {
        return { seeded: await seed(direct.db), version: await serverVersion(direct.db) };
      } finally {
        await direct.close();
      }
    })();
    console.log(
      `seeded ${seeded.tickets} tickets, ${seeded.comments} comments, ${OWNERS} users, ${SEEDED_AGENTS} agents in ${(seeded.ms / 1000).toFixed(1)} s`,
    );

    const rows: Row[] = [];
    let auth: Record<string, string> | undefined;
    let listBody: Buffer | undefined;
    for (const count of [1, 2]) {
      const keyPrefix = `helpdesk-bench-${randomBytes(4).toString('hex')}`;
      const servers = await startBenchServers(count, { databaseUrl, redis: { url: redisUrl, keyPrefix } });
      const lb = await startTcpProxy(servers.urls.map((u) => upstreamOf(u, 80))).catch(async (error: unknown) => {
        await servers.stop();
        throw error;
      });
      try {
        const url = `http://${HOST}:${lb.port}`;
        // Tokens carry the shared JWT_SECRET, so the agent signed up on the first deployment works on the second.
        auth ??= await agentAuth(url);
        const prepared = await apiScenarios(url, auth, seeded, ` — ${count} process${count > 1 ? 'es' : ''} via LB`);
        if (!listBody) {
          listBody = prepared.listBody;
          printSetup(
            `PostgreSQL ${version}`,
            prepared.filteredTotal,
            seeded,
            `\nserver processes: the server build (src/main.ts bundled) with LOG_LEVEL=warn, REDIS_URL set; loopback round-robin TCP load balancer in this process`,
          );
        }
        for (const scenario of prepared.scenarios) rows.push(await measure(scenario));
      } finally {
        await lb.close();
        await servers.stop();
        await deleteRedisKeys(redisUrl, keyPrefix);
      }
    }

    const floor = await startBare(listBody!);
    bare = floor.server;
    const lb = await startTcpProxy(upstreamOf(floor.url, 80));
    try {
      rows.push(await measure({ name: 'bare Koa, same bytes', url: floor.url, headers: {}, bodyBytes: listBody!.length }));
      rows.push(await measure({ name: 'bare Koa, same bytes — via LB', url: lb.url(floor.url), headers: {}, bodyBytes: listBody!.length }));
    } finally {
      await lb.close();
    }
    printTable(rows);
    return rows.some((r) => r.problems) ? 1 : 0;
  } finally {
    await closeHttp(bare);
    await benchDb.drop();
  }
}

(PROCESSES > 0 ? mainProcesses() : main()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
