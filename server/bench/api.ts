/**
 * HTTP benchmark of the ticket list: the real server (createServer) on 10,000 seeded tickets, next to a
 * bare Koa app that serves the same number of bytes, so the gap is what the API itself costs.
 *
 *   npm run bench:api                                                         # embedded PGlite
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:api  # PostgreSQL (a fresh database on that server, dropped afterwards)
 *
 * BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS (default 10),
 * BENCH_WORKERS (autocannon worker threads, default 1; 0 = fire requests from the server's own thread).
 * All traffic stays on 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import Koa from 'koa';
import pg from 'pg';
import type { Priority, TicketStatus } from '@helpdesk/protocol';
import { ticketComments, tickets, users } from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/passwords.js';
import { createServer, type HelpdeskServer } from '../src/server.js';
import { parseSettings } from '../src/settings.js';

const TICKETS = 10_000;
const OWNERS = 50;
const SEEDED_AGENTS = 5;
const BATCH = 1_000;
const HOST = '127.0.0.1';

const positiveInt = (name: string, fallback: number, min = 1): number => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
};

const DURATION = positiveInt('BENCH_DURATION', 10);
const WARMUP = positiveInt('BENCH_WARMUP', 2, 0);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const WORKERS = positiveInt('BENCH_WORKERS', 1, 0);

// ---------------------------------------------------------------------------------------------------------------
// Database: embedded PGlite in the temp DATA_DIR, or a throwaway database on BENCH_DATABASE_URL's server.

interface BenchDatabase {
  url?: string;
  drop(): Promise<void>;
}

async function createBenchDatabase(): Promise<BenchDatabase> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) return { drop: async () => {} };
  const name = `helpdesk_bench_${randomBytes(6).toString('hex')}`;
  const withAdmin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await withAdmin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => withAdmin(`drop database if exists ${name} with (force)`) };
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
const RESOLUTIONS = ['Replaced the faulty part.', 'Reset the account and confirmed with the user.', 'Updated the driver; working again.', 'Duplicate of an earlier ticket.'];

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

async function seed(server: HelpdeskServer): Promise<{ tickets: number; comments: number; ms: number }> {
  const started = performance.now();
  const { db } = server.database;
  const random = mulberry32(42);
  const passwordHash = await hashPassword('bench-password-not-used');

  const owners = await db
    .insert(users)
    .values(Array.from({ length: OWNERS }, (_, i) => ({ name: `Bench User ${i + 1}`, email: `user${i + 1}@bench.test`, passwordHash, role: 'user' as const })))
    .returning({ id: users.id });
  const agents = await db
    .insert(users)
    .values(Array.from({ length: SEEDED_AGENTS }, (_, i) => ({ name: `Bench Agent ${i + 1}`, email: `agent${i + 1}@bench.test`, passwordHash, role: 'agent' as const })))
    .returning({ id: users.id });
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  // One ticket every ~5 minutes going back from now: ~35 days of history, each created_at distinct.
  const now = Date.now();
  const ticketIds: number[] = [];
  for (let start = 0; start < TICKETS; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, TICKETS - start) }, (_, k) => {
      const n = start + k;
      const createdAt = new Date(now - (TICKETS - n) * 300_000 - Math.floor(random() * 60_000));
      const status = weighted<TicketStatus>(random, { open: 35, in_progress: 20, resolved: 30, closed: 15 });
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

async function postJson<T>(url: string, body: unknown, expected: number): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
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

/** The floor: Koa answering with precomputed bytes, no auth, no database, no JSON encoding. */
function bareApp(body: Buffer): HttpServer {
  const app = new Koa();
  app.use((ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/bare') {
      ctx.type = 'application/json';
      ctx.body = body;
    }
  });
  return createHttpServer(app.callback());
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
  const problems = [r.errors && `${r.errors} errors`, r.timeouts && `${r.timeouts} timeouts`, r.non2xx && `${r.non2xx} non-2xx`].filter(Boolean).join(', ');
  return { scenario: scenario.name, reqPerSec: r.requests.mean, p50: r.latency.p50, p99: r.latency.p99, bodyBytes: scenario.bodyBytes, requests: r.requests.total, problems };
}

function printTable(rows: Row[]): void {
  const header = ['scenario', 'req/s (mean)', 'p50 ms', 'p99 ms', 'bytes/resp', 'requests'];
  // autocannon records latency in whole milliseconds, so 0 means "under 1 ms".
  const ms = (v: number) => (v < 1 ? '<1' : String(v));
  const cells = rows.map((r) => [r.scenario, r.reqPerSec.toFixed(0), ms(r.p50), ms(r.p99), String(r.bodyBytes), String(r.requests)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const c of cells) console.log(line(c));
  for (const r of rows) if (r.problems) console.log(`! ${r.scenario}: ${r.problems}`);
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'helpdesk-bench-'));
  const benchDb = await createBenchDatabase();
  let server: HelpdeskServer | undefined;
  let bare: HttpServer | undefined;
  try {
    const settings = parseSettings({
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      ...(benchDb.url && { DATABASE_URL: benchDb.url }),
    });
    server = await createServer(settings);
    const url = await server.listen(0, HOST);

    const seeded = await seed(server);
    console.log(`seeded ${seeded.tickets} tickets, ${seeded.comments} comments, ${OWNERS} users, ${SEEDED_AGENTS} agents in ${(seeded.ms / 1000).toFixed(1)} s`);

    const agent = { name: 'Bench Agent', email: 'bench-agent@bench.test', password: 'Bench-Agent-Passw0rd!' };
    await postJson(`${url}/api/auth/register`, { ...agent, role: 'agent' }, 201);
    const { token } = await postJson<{ token: string }>(`${url}/api/auth/login`, { email: agent.email, password: agent.password }, 200);
    const auth = { authorization: `Bearer ${token}` };

    const listUrl = `${url}/api/tickets`;
    const listBody = await getBytes(listUrl, auth);
    const listed = JSON.parse(listBody.toString()) as { tickets: unknown[]; total: number };
    if (listed.total !== seeded.tickets || listed.tickets.length !== 10) throw new Error(`unexpected list: total ${listed.total}, page of ${listed.tickets.length}`);
    const filteredUrl = `${url}/api/tickets?search=printer&status=open`;
    const filteredBody = await getBytes(filteredUrl, auth);
    const filtered = JSON.parse(filteredBody.toString()) as { total: number };

    bare = bareApp(listBody);
    const bareUrl = `${await listen(bare)}/bare`;
    const bareCheck = await getBytes(bareUrl, {});
    if (!bareCheck.equals(listBody)) throw new Error('bare route does not serve the same bytes');

    const scenarios: Scenario[] = [
      { name: 'GET /api/tickets (page 1, limit 10)', url: listUrl, headers: auth, bodyBytes: listBody.length },
      { name: 'GET /api/tickets?search=printer&status=open', url: filteredUrl, headers: auth, bodyBytes: filteredBody.length },
      { name: 'bare Koa, same bytes', url: bareUrl, headers: {}, bodyBytes: listBody.length },
    ];

    const [version] = await server.database.db
      .select({ v: sql<string>`current_setting('server_version')` })
      .from(sql`(select 1) as one`);
    const database = `${server.database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded, files in DATA_DIR), PostgreSQL'} ${version?.v}`;
    console.log(
      `\ndatabase: ${database} | cpus: ${os.cpus().length} (${os.cpus()[0]?.model.trim()}) | node ${process.version}` +
        `\nload: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per scenario, autocannon ${WORKERS > 0 ? `in ${WORKERS} worker thread(s)` : 'on the main thread'}` +
        `\nfiltered scenario matches ${filtered.total} of ${seeded.tickets} tickets\n`,
    );

    const rows: Row[] = [];
    for (const scenario of scenarios) rows.push(await measure(scenario));
    printTable(rows);
    return rows.some((r) => r.problems) ? 1 : 0;
  } finally {
    await new Promise<void>((resolve) => (bare?.listening ? bare.close(() => resolve()) : resolve()));
    await server?.close();
    await benchDb.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
