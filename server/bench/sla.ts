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
 * events, committed. BENCH_SLA_ROUNDS (3) rounds; the figure is each round's time and how many
 * tickets it marked. BENCH_DATABASE_URL as in bench:mail.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { ADMIN_ENV, createCast, insertUser } from '../test/factories.js';
import { startTestServer } from '../test/server.js';
import { DEFAULT_POSTGRES_URL, machine, markdownTable, positiveInt, requirePostgres } from './support.js';

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const TICKETS = positiveInt('BENCH_SLA_TICKETS', 10_000);
const ROUNDS = positiveInt('BENCH_SLA_ROUNDS', 3);

interface Round {
  marked: number;
  ms: number;
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
      const started = performance.now();
      const marked = await t.server.services.slaScan();
      rounds.push({ marked, ms: performance.now() - started });
    }
    return rounds;
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
  const rows: string[][] = [];
  for (const database of databases) {
    const rounds = await scanRounds(database);
    rounds.forEach((round, i) => rows.push([database, String(i + 1), String(round.marked), round.ms.toFixed(0)]));
  }
  console.log(markdownTable(['database', 'round', 'tickets marked', 'pass ms'], rows));
}

await main();
