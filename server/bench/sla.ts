/**
 * SLA scanner benchmark: one pass over BENCH_SLA_TICKETS (10000) tickets whose first-response
 * deadline has passed.
 *
 *   npm run bench:sla           # PGlite, and PostgreSQL when it answers
 *
 * For each database, one in-process server (the test harness) with an admin, an agent and a second
 * admin; the tickets are inserted directly, half assigned to the agent, half unassigned (so each of
 * those notifies both admins). Each round arms every ticket's breach again and times one pass of the
 * scanner (services/sla/scanner.ts): the marks, the history entries, the notifications and the
 * events, committed. BENCH_SLA_ROUNDS (6) rounds; the figure is each round's time and how many
 * tickets it marked. On PostgreSQL the odd rounds scan with one worker and the even ones with the
 * server's two, so the two are compared in the same run. BENCH_DATABASE_URL as in bench:mail.
 *
 * Then at a million tickets, when bench:scale's kept PostgreSQL data set is there (BENCH_KEEP=1 npm
 * run bench:scale builds it): the set is copied (CREATE DATABASE ... TEMPLATE, so the marks never
 * change it), a server started on the copy, and BENCH_SLA_TICKETS of its running tickets (newest
 * first, as the data set assigned them: about half unassigned, each of those notifying every admin)
 * have their first response come due; BENCH_SLA_SCALE_ROUNDS (4) passes, one and two workers in
 * turn, each with the CPU time of the server's process while it ran (the bench does nothing else
 * meanwhile). BENCH_SLA_SCALE=off skips it. BENCH_SLA_BATCH sets the tickets a scanner batch marks (else the
 * scanner's own). BENCH_SLA_ONLY=scale runs this part alone (the other two skipped: for a profile or
 * two builds in turn).
 *
 * Then, on a fresh server per database, the re-apply of an edited policy: BENCH_SLA_REAPPLY_TICKETS
 * (100000) open tickets under one policy, the policy's targets edited over the API, and while the
 * background re-apply (services/sla/reapply.ts) runs, BENCH_SLA_LIST_CONNECTIONS (10) connections
 * ask for page 1 of GET /api/tickets as an admin (no filter, status=open, sla=ok, sort=slaDueAt, in
 * turn), each as soon as its last answer came. Printed: the list's p50/p95/p99/max for BENCH_SLA_IDLE_S
 * (5) seconds before the edit and during the re-apply, and how long the re-apply took. A closed loop:
 * a connection held up asks nothing meanwhile, so a stall shows in the max more than in the p95.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from '../src/server.js';
import { createLogger } from '../src/lib/logger.js';
import { parseSettings } from '../src/settings.js';
import { ADMIN_ENV, createCast, insertUser } from '../test/factories.js';
import { startTestServer } from '../test/server.js';
import { send, target } from './scaleLoad.js';
import { adminQuery, postgresPlace, rowsOf } from './scaleDataset.js';
import { ADMIN_URL, DATASET_NAME } from './scaleSettings.js';
import { BENCH_JWT_SECRET } from './servers.js';
import { DEFAULT_POSTGRES_URL, machine, markdownTable, percentile, positiveInt, requirePostgres } from './support.js';

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const TICKETS = positiveInt('BENCH_SLA_TICKETS', 10_000);
const ROUNDS = positiveInt('BENCH_SLA_ROUNDS', 6);
const REAPPLY_TICKETS = positiveInt('BENCH_SLA_REAPPLY_TICKETS', 100_000);
const LIST_CONNECTIONS = positiveInt('BENCH_SLA_LIST_CONNECTIONS', 10);
const IDLE_S = positiveInt('BENCH_SLA_IDLE_S', 5);
const SCALE_ROUNDS = positiveInt('BENCH_SLA_SCALE_ROUNDS', 4);
/** Tickets a scanner batch marks; unset, the scanner's own (services/sla/scanner.ts). */
const BATCH = process.env.BENCH_SLA_BATCH === undefined ? undefined : positiveInt('BENCH_SLA_BATCH', 500);
const SCALE = !['off', '0', 'false'].includes((process.env.BENCH_SLA_SCALE ?? '').toLowerCase());
const SCALE_ONLY = process.env.BENCH_SLA_ONLY === 'scale';
if (process.env.BENCH_SLA_ONLY !== undefined && !SCALE_ONLY) throw new Error('BENCH_SLA_ONLY takes only "scale"');
const LIST_PATHS = [
  '/api/tickets?page=1',
  '/api/tickets?page=1&status=open',
  '/api/tickets?page=1&sla=ok',
  '/api/tickets?page=1&sort=slaDueAt',
];

interface Round {
  marked: number;
  ms: number;
  workers: number;
}

async function scanRounds(database: 'pglite' | 'postgres'): Promise<Round[]> {
  process.env.TEST_DB = database;
  process.env.TEST_DATABASE_URL = POSTGRES_URL;
  const t = await startTestServer(ADMIN_ENV);
  try {
    // The interval scanner is stopped: each pass here is the bench's own.
    await t.server.slaScanner.stop();
    const { admin, agent, owner } = await createCast(t);
    await insertUser(t, { role: 'admin', name: 'Second Admin' });
    const oneHour = { firstResponseMinutes: 60, resolutionMinutes: 480 };
    const policy = await t.api.post(
      '/sla/policies',
      { name: 'Bench', targets: { low: oneHour, medium: oneHour, high: oneHour, urgent: oneHour } },
      { token: admin.token },
    );
    const policyId: number = policy.body.policy.id;
    const db = t.server.database.db;
    // In batches: every statement here runs under the server's one-second statement timeout.
    for (let from = 1; from <= TICKETS; from += 1000) {
      await db.execute(sql`
        insert into tickets (title, description, priority, status, user_id, assigned_agent_id, sla_policy_id, sla_running_since, sla_state)
        select 'Bench ticket ' || n, 'A ticket whose first response is overdue.', 'medium', 'open', ${owner.user.id},
          case when n % 2 = 0 then ${agent.user.id}::int end, ${policyId}, now() - interval '2 hours', 'ok'
        from generate_series(${from}::int, ${Math.min(TICKETS, from + 999)}::int) n
      `);
    }
    await db.execute(sql`analyze tickets`);
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (let from = 0; from < TICKETS; from += 1000) {
        await db.execute(sql`
          update tickets set sla_response_due_at = now() - interval '1 hour', sla_response_warned_at = now(),
            sla_response_breached_at = null, sla_next_mark_at = now() - interval '1 hour', sla_state = 'ok'
          where id in (select id from tickets where sla_policy_id = ${policyId} order by id offset ${from} limit 1000)
        `);
      }
      // Odd rounds with one worker, even ones as the server scans: the two compared in the same run.
      const workers = database === 'postgres' && round % 2 === 0 ? 1 : undefined;
      const started = performance.now();
      const marked = await t.server.services.slaScan(undefined, { workers, batch: BATCH });
      rounds.push({ marked, ms: performance.now() - started, workers: workers ?? (database === 'postgres' ? 2 : 1) });
    }
    return rounds;
  } finally {
    await t.close();
  }
}

/** A pass at scale: also the notices it stored and the CPU time of this process (the server's, here) while it ran. */
type ScaleRound = Round & { notified: number; cpuMs: number };

/** The passes over the kept 1M data set's copy, or why there are none. */
async function scanAtScale(): Promise<ScaleRound[] | string> {
  if (!(await postgresPlace().exists())) return `no kept data set ${DATASET_NAME} (BENCH_KEEP=1 npm run bench:scale builds it)`;
  const name = `helpdesk_sla_scale_${randomBytes(4).toString('hex')}`;
  // A template may have no other connection while it is copied: a server still on it fails this. The
  // files copied as they are: PostgreSQL 15's default writes the whole set through the WAL (80 s at a
  // million tickets), whose checkpoints then ran on through the passes it was made for.
  await adminQuery(`create database ${name} template ${DATASET_NAME} strategy file_copy`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-sla-scale-'));
  try {
    const settings = parseSettings({
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      JWT_SECRET: BENCH_JWT_SECRET,
    });
    const server = await createServer(settings, { database: { kind: 'postgres', url: url.toString() }, logger: createLogger('warn') });
    try {
      await server.slaScanner.stop();
      const db = server.database.db;
      const rounds: ScaleRound[] = [];
      for (let round = 0; round < SCALE_ROUNDS; round += 1) {
        // Only the first response comes due: its resolution stays a day away, already warned of nothing.
        for (let from = 0; from < TICKETS; from += 1000) {
          // The bench's own setup, not what it measures: on a slow machine 1,000 rows ran past the
          // server's one-second statement timeout.
          await db.transaction(async (tx) => {
            await tx.execute(sql`set local statement_timeout = 0`);
            await tx.execute(sql`
            update tickets set sla_first_responded_at = null, sla_response_due_at = now() - interval '1 hour',
              sla_response_warned_at = now(), sla_response_breached_at = null, sla_resolution_due_at = now() + interval '1 day',
              sla_resolution_warn_at = now() + interval '12 hours', sla_resolution_warned_at = null,
              sla_resolution_breached_at = null, sla_next_mark_at = now() - interval '1 hour', sla_state = 'ok'
            where id in (select id from tickets where status in ('open', 'in_progress') and sla_policy_id is not null
              order by id desc offset ${from} limit 1000)
          `);
          });
        }
        // Those stored by the pass: above the last id before it (a count of all two million would not
        // fit in the statement timeout on a cold copy).
        const [last] = await rowsOf<{ id: number }>(db, 'select coalesce(max(id), 0)::int as id from notifications');
        const workers = round % 2 === 0 ? 1 : 2;
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        const marked = await server.services.slaScan(undefined, { workers, batch: BATCH });
        const ms = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        const [stored] = await rowsOf<{ n: number }>(db, `select count(*)::int as n from notifications where id > ${last?.id ?? 0}`);
        rounds.push({ marked, ms, workers, notified: stored?.n ?? 0, cpuMs: (cpu.user + cpu.system) / 1000 });
      }
      return rounds;
    } finally {
      await server.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}

interface ListLoad {
  n: number;
  failed: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** LIST_CONNECTIONS loops asking for the list pages in turn until `until` settles. */
async function hammerList(base: string, token: string, until: Promise<unknown>): Promise<ListLoad> {
  const to = target(base, LIST_CONNECTIONS);
  const latencies: number[] = [];
  let failed = 0;
  let done = false;
  let turn = 0;
  const ended = until.finally(() => (done = true));
  const loop = async () => {
    while (!done) {
      const answer = await send(to, 'GET', LIST_PATHS[turn++ % LIST_PATHS.length]!, { authorization: `Bearer ${token}` });
      latencies.push(answer.ms);
      if (answer.status !== 200) failed++;
    }
  };
  await Promise.all([ended, ...Array.from({ length: LIST_CONNECTIONS }, loop)]);
  to.agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    n: latencies.length,
    failed,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1) ?? Number.NaN,
  };
}

interface Reapply {
  idle: ListLoad;
  during: ListLoad;
  ms: number;
}

async function reapplyRun(database: 'pglite' | 'postgres'): Promise<Reapply> {
  process.env.TEST_DB = database;
  process.env.TEST_DATABASE_URL = POSTGRES_URL;
  const t = await startTestServer(ADMIN_ENV);
  try {
    await t.server.slaScanner.stop();
    const { admin, agent, owner } = await createCast(t);
    const targets = (minutes: number) => {
      const target = { firstResponseMinutes: minutes, resolutionMinutes: minutes * 8 };
      return { low: target, medium: target, high: target, urgent: target };
    };
    const policy = await t.api.post('/sla/policies', { name: 'Bench', targets: targets(60) }, { token: admin.token });
    const policyId: number = policy.body.policy.id;
    const db = t.server.database.db;
    // Open tickets whose clocks started within the last hour: the edit moves every deadline.
    for (let from = 1; from <= REAPPLY_TICKETS; from += 1000) {
      await db.execute(sql`
        insert into tickets (title, description, priority, status, user_id, assigned_agent_id, sla_policy_id, sla_running_since,
          sla_response_due_at, sla_resolution_due_at, sla_next_mark_at, sla_due_at, sla_state)
        select 'Bench ticket ' || n, 'A ticket under the edited policy.', 'medium', 'open', ${owner.user.id},
          case when n % 2 = 0 then ${agent.user.id}::int end, ${policyId}, now() - (n % 60) * interval '1 minute',
          now() + (60 - n % 60) * interval '1 minute', now() + (480 - n % 60) * interval '1 minute',
          now() + (60 - n % 60) * interval '1 minute', now() + (60 - n % 60) * interval '1 minute', 'ok'
        from generate_series(${from}::int, ${Math.min(REAPPLY_TICKETS, from + 999)}::int) n
      `);
    }
    await db.execute(sql`analyze tickets`);
    const sleep = new Promise((resolve) => setTimeout(resolve, IDLE_S * 1000));
    const idle = await hammerList(t.url, admin.token, sleep);
    const edited = await t.api.put(`/sla/policies/${policyId}`, { name: 'Bench', targets: targets(120) }, { token: admin.token });
    if (edited.status !== 200) throw new Error(`the policy edit answered ${edited.status}`);
    // The edit answered; the re-apply it asked for runs in the background from here.
    const started = performance.now();
    let ms = 0;
    const reapplied = t.server.services.slaReapply.idle().then(() => (ms = performance.now() - started));
    const during = await hammerList(t.url, admin.token, reapplied);
    const moved: unknown = await db.execute(
      sql`select count(*)::int as n from tickets where sla_policy_id = ${policyId} and sla_running_since + interval '2 hours' = sla_response_due_at`,
    );
    const [row] = (moved as { rows: { n: number }[] }).rows;
    if (row?.n !== REAPPLY_TICKETS) console.log(`! re-apply moved ${row?.n} of ${REAPPLY_TICKETS} first-response deadlines`);
    return { idle, during, ms };
  } finally {
    await t.close();
  }
}

async function main() {
  const databases: ('pglite' | 'postgres')[] = ['pglite'];
  try {
    await requirePostgres(POSTGRES_URL, 'BENCH_DATABASE_URL');
    databases.push('postgres');
  } catch (error) {
    console.log(`PostgreSQL skipped: ${(error as Error).message}`);
  }
  console.log(`\nSLA scanner: one pass over ${TICKETS} tickets past their first-response deadline (half unassigned: 2 admins notified)`);
  console.log(machine());
  if (!SCALE_ONLY) {
    const rows: string[][] = [];
    for (const database of databases) {
      const rounds = await scanRounds(database);
      rounds.forEach((round, i) => rows.push([database, String(i + 1), String(round.workers), String(round.marked), round.ms.toFixed(0)]));
    }
    console.log(markdownTable(['database', 'round', 'workers', 'tickets marked', 'pass ms'], rows));
  }

  if (databases.includes('postgres') && (SCALE || SCALE_ONLY)) {
    console.log(`\nThe same at ${DATASET_NAME} (bench:scale's kept data set, copied): ${TICKETS} running tickets' first response due`);
    const scaled = await scanAtScale();
    if (typeof scaled === 'string') console.log(`skipped: ${scaled}`);
    else
      console.log(
        markdownTable(
          ['round', 'workers', 'tickets marked', 'notifications stored', 'pass ms', 'server CPU ms'],
          scaled.map((r, i) => [
            String(i + 1),
            String(r.workers),
            String(r.marked),
            String(r.notified),
            r.ms.toFixed(0),
            r.cpuMs.toFixed(0),
          ]),
        ),
      );
  }
  if (SCALE_ONLY) return;

  console.log(
    `\nRe-apply of an edited policy to ${REAPPLY_TICKETS} open tickets; GET /api/tickets page 1 on ${LIST_CONNECTIONS} connections (${LIST_PATHS.length} queries in turn)`,
  );
  const reapplyRows: string[][] = [];
  for (const database of databases) {
    const { idle, during, ms } = await reapplyRun(database);
    for (const [phase, load] of [
      ['before the edit', idle],
      ['during the re-apply', during],
    ] as const) {
      reapplyRows.push([
        database,
        phase,
        String(load.n),
        String(load.failed),
        load.p50.toFixed(0),
        load.p95.toFixed(0),
        load.p99.toFixed(0),
        load.max.toFixed(0),
        phase === 'during the re-apply' ? (ms / 1000).toFixed(1) : '',
      ]);
    }
  }
  console.log(
    markdownTable(['database', 'list', 'requests', 'not 200', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 're-apply s'], reapplyRows),
  );
}

await main();
