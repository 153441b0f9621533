/**
 * Scale benchmark: the real server on a production-sized data set (default 1,000,000 tickets, 20,000
 * users, 2,000,000 comments, their history, 200 knowledge articles), every read call an agent or a user
 * makes, at 1 and at 10 connections, next to a bare Koa floor serving the same bytes as the list.
 *
 *   npm run bench:scale                                             # PostgreSQL, 1,000,000 tickets
 *   BENCH_KEEP=1 npm run bench:scale                                # keep the data set for the next run
 *   BENCH_DB=pglite BENCH_TICKETS=100000 npm run bench:scale        # embedded PGlite
 *   BENCH_EXPLAIN=8 BENCH_EXPLAIN_FILE=/tmp/explain.txt npm run bench:scale
 *
 * Data set. The database goes through the app's own migrations (openDatabase, as the server opens it),
 * then is filled with set-based SQL (generate_series, INSERT … SELECT) through the same driver: the
 * secondary indexes the migrations created are read from the catalog, dropped for the load and
 * recreated from their own definitions afterwards, then VACUUM ANALYZE. Distributions: statuses mostly
 * resolved/closed (the newest 2% mostly open/in progress), priorities skewed to medium, owners skewed
 * (a few heavy requesters), tickets mostly assigned to a few hundred agents (also skewed), ~12% of
 * tickets mention "printer", a rare word in 0.01%, created_at spread over 3 years, comments uniform
 * plus 30% on "busy" tickets plus five tickets with 1,000–2,500 comments, a history row per change and
 * per comment, as the app writes them. A marker table in its own schema (helpdesk_scale) records what
 * was built, so a later run on the same database reuses it (migrations added since still apply).
 *
 * Where. PostgreSQL (default): database helpdesk_scale_<tickets> on BENCH_DATABASE_URL's server
 * (default postgres://postgres@127.0.0.1:5432/postgres). PGlite (BENCH_DB=pglite): the directory
 * BENCH_KEEP names, else <tmp>/helpdesk_scale_pglite_<tickets>. A data set this run built is removed
 * at the end unless BENCH_KEEP is set (1, or for PGlite a directory); one found already is left alone.
 *
 * Load. The server runs as its own process (src/main.ts, LOG_LEVEL=warn), so autocannon can run on
 * this thread and report every response time (p95 is computed from them, not from autocannon's
 * fixed percentiles). Per call: one or two probe requests (status, bytes, a time estimate), a warm-up,
 * then BENCH_SECONDS at each of BENCH_CONNECTIONS (default 1,10). A call too slow to fit ~20 rounds in
 * that time runs a fixed number of requests instead (the n column). A request that takes longer than
 * BENCH_TIMEOUT s (default 30) is a timeout, counted at that value in the percentiles; after each run
 * the bench waits for the database to go idle, so abandoned queries do not leak into the next call.
 *
 * BENCH_TICKETS (1000000), BENCH_USERS (20000), BENCH_COMMENTS (2 × tickets), BENCH_ARTICLES (200),
 * BENCH_SECONDS (5), BENCH_WARMUP (1 s), BENCH_TIMEOUT (30 s), BENCH_CONNECTIONS (1,10), BENCH_WRITES (10 changes/s
 * made through the API during the last four calls, which are the first four again under writes),
 * BENCH_EXPLAIN (0; n = EXPLAIN (ANALYZE, BUFFERS) the SQL of the n slowest calls, "all" = every call),
 * BENCH_EXPLAIN_FILE (default: printed before the table), BENCH_ONLY (substring: measure only the
 * calls whose name contains it).
 *
 * The last line reads `worst p95: <ms> ms (<call>)`, over the runs at the highest connection count of
 * every call but those under writes, which have a line of their own before it, after the list's share
 * of the bare Koa floor.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import autocannon from 'autocannon';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { articleListQuery, ticketFiltersQuery, ticketListQuery } from '@helpdesk/protocol';
import { openDatabase, type Database, type Db, type DatabaseTarget } from '../src/db/client.js';
import * as schema from '../src/db/schema/index.js';
import { createLogger } from '../src/lib/logger.js';
import { hashPassword } from '../src/lib/passwords.js';
import { createTokenService } from '../src/lib/tokens.js';
import { parseInput } from '../src/lib/validation.js';
import type { AttachmentStore } from '../src/attachments/store.js';
import type { Mailer } from '../src/mail/transport.js';
import type { Actor } from '../src/lib/actor.js';
import { createServices, type Services } from '../src/services/index.js';
import { parseSettings } from '../src/settings.js';
import { freePort, startServerProcess, type ServerProcess } from '../test/serverProcess.js';
import { BENCH_JWT_SECRET } from './servers.js';
import { cpuWaitMicros, machine, markdownTable, percentile, positiveInt, positiveInts, requirePostgres } from './support.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const HOST = '127.0.0.1';

const TICKETS = positiveInt('BENCH_TICKETS', 1_000_000, 100);
const USERS = positiveInt('BENCH_USERS', 20_000, 50);
const COMMENTS = positiveInt('BENCH_COMMENTS', 2 * TICKETS, 0);
const ARTICLES = positiveInt('BENCH_ARTICLES', 200, 1);
const SECONDS = positiveInt('BENCH_SECONDS', 5);
const WARMUP = positiveInt('BENCH_WARMUP', 1, 0);
const WRITES_PER_SECOND = positiveInt('BENCH_WRITES', 10);
const TIMEOUT_S = positiveInt('BENCH_TIMEOUT', 30);
const CONNECTIONS = positiveInts('BENCH_CONNECTIONS', [1, 10]);
const KIND: 'postgres' | 'pglite' = (() => {
  const raw = (process.env.BENCH_DB ?? 'postgres').toLowerCase();
  if (raw !== 'postgres' && raw !== 'pglite') throw new Error(`BENCH_DB must be postgres or pglite, got "${raw}"`);
  return raw;
})();
const KEEP = process.env.BENCH_KEEP && !['0', 'false', ''].includes(process.env.BENCH_KEEP) ? process.env.BENCH_KEEP : undefined;
const EXPLAIN = process.env.BENCH_EXPLAIN === 'all' ? Infinity : positiveInt('BENCH_EXPLAIN', 0, 0);
const EXPLAIN_FILE = process.env.BENCH_EXPLAIN_FILE;
const ONLY = process.env.BENCH_ONLY;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A few hundred staff for 20,000 users; the first few of them admins. */
const STAFF = Math.min(USERS - 10, Math.max(5, Math.round(USERS * 0.015)));
const ADMINS = Math.max(1, Math.round(STAFF / 30));
const PASSWORD = 'Scale-Bench-Passw0rd!';
/** Bumped whenever the generator below changes, so an older kept data set is rebuilt, not reused. */
const SEED_VERSION = 1;
const SPEC = JSON.stringify({ v: SEED_VERSION, tickets: TICKETS, users: USERS, comments: COMMENTS, articles: ARTICLES });
const DEFAULT_SIZES = USERS === 20_000 && COMMENTS === 2 * TICKETS && ARTICLES === 200;
const DATASET_NAME = `helpdesk_scale_${TICKETS}${DEFAULT_SIZES ? '' : `_u${USERS}_c${COMMENTS}_a${ARTICLES}`}`;

// ---------------------------------------------------------------------------------------------------------------
// Phases: every step says how long it took, and the run ends with the list.

const phases: { name: string; seconds: number }[] = [];

async function phase<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    const seconds = (performance.now() - started) / 1000;
    phases.push({ name, seconds });
    console.log(`[phase] ${name}: ${seconds.toFixed(1)} s`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Where the data set lives.

interface Place {
  label: string;
  target: DatabaseTarget;
  /** The server process's settings for this database. */
  serverEnv: Record<string, string>;
  exists(): Promise<boolean>;
  /** Removes whatever is there and leaves an empty database. */
  recreate(): Promise<void>;
  remove(): Promise<void>;
}

async function adminQuery(query: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await client.query(query, params);
  } finally {
    await client.end();
  }
}

function postgresPlace(): Place {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATASET_NAME}`;
  return {
    label: `PostgreSQL database ${DATASET_NAME}`,
    target: { kind: 'postgres', url: url.toString() },
    serverEnv: { DATABASE_URL: url.toString() },
    exists: async () => (await adminQuery('select 1 from pg_database where datname = $1', [DATASET_NAME])).rowCount === 1,
    async recreate() {
      await adminQuery(`drop database if exists ${DATASET_NAME} with (force)`);
      await adminQuery(`create database ${DATASET_NAME}`);
    },
    remove: async () => {
      await adminQuery(`drop database if exists ${DATASET_NAME} with (force)`);
    },
  };
}

function pglitePlace(dataDir: string): Place {
  // The server opens DATA_DIR/pglite when it has no DATABASE_URL.
  const dir = path.join(dataDir, 'pglite');
  return {
    label: `PGlite in ${dir}`,
    target: { kind: 'pglite', dataDir: dir },
    serverEnv: { DATA_DIR: dataDir },
    exists: () => Promise.resolve(existsSync(path.join(dir, 'PG_VERSION'))),
    async recreate() {
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
    },
    remove: () => rm(dataDir, { recursive: true, force: true }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The generator. Everything is one SQL statement per table, run through the app's driver.

const FIRST = [
  'Alice',
  'Bob',
  'Carla',
  'Dmitri',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Keiko',
  'Liam',
  'Maya',
  'Nikolai',
  'Olga',
  'Pedro',
  'Quinn',
  'Rosa',
  'Samir',
  'Tara',
  'Umar',
  'Vera',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zoe',
  'Anton',
  'Beatriz',
  'Chen',
  'Divya',
  'Emeka',
  'Freya',
  'Goran',
  'Hana',
  'Ivan',
  'Julia',
  'Kofi',
  'Lena',
  'Marek',
  'Nadia',
];
const LAST = [
  'Andersen',
  'Baker',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Hughes',
  'Ibrahim',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Meyer',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Quinlan',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Usman',
  'Varga',
  'Walsh',
  'Xu',
  'Yilmaz',
  'Zimmer',
  'Alves',
  'Brennan',
  'Chopra',
  'Dalton',
  'Evans',
  'Fontaine',
  'Gupta',
  'Horvat',
  'Ito',
  'Jovanovic',
  'Kim',
  'Lindqvist',
  'Moreau',
  'Novak',
];
const TITLES = [
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
  'Teams camera not detected',
  'Cannot install the accounting update',
  'Mailbox is full and rejecting mail',
  'Two-factor codes not accepted',
  'Docking station charges but shows no display',
  'Excel crashes when opening large files',
  'New starter needs an account',
  'Shared calendar permissions are wrong',
  'Website contact form returns error 500',
  'Backup job failed overnight',
];
const PRINTER_TITLES = [
  'Printer on floor 3 is jammed',
  'Printer shows offline for the whole team',
  'Cannot add the network printer',
  'Printer prints blank pages',
  'Printer driver install fails',
  'Colour printer streaks every page',
  'Label printer stopped after the update',
  'Printer asks for a PIN that nobody knows',
];
const DETAILS = [
  'It started this morning and happens every time I try.',
  'Restarting did not help, and a colleague sees the same thing.',
  'This blocks the month-end close, so it is fairly urgent for us.',
  'I can share a screenshot if needed.',
  'The problem comes and goes; it was fine yesterday afternoon.',
  'Several people in the office have mentioned it during stand-up.',
  'I tried the steps from the knowledge base article without luck.',
  'The error message says access denied and then the window closes.',
  'It only happens when I am connected through the dock.',
  'Nothing was changed on my side as far as I know.',
  'Our team lead asked me to raise a ticket for this.',
  'Please call me on my extension if you need more details.',
];
const PRINTER_DETAILS = [
  'The printer display shows error 49 and restarts.',
  'Jobs sit in the printer queue and never come out.',
  'The printer was moved to the other room last week.',
  'Paper jams in tray 2 of the printer several times a day.',
];
const PRINTER_ASIDES = [
  'The printer next to my desk has had the same issue since the update.',
  'Printing to the shared printer also fails, if that helps.',
];
const RESOLUTIONS = [
  'Replaced the faulty part.',
  'Reset the account and confirmed with the user.',
  'Updated the driver; working again.',
  'Duplicate of an earlier ticket.',
  'Explained the workaround; user confirmed it works.',
  'Vendor shipped a replacement, installed on site.',
];
const COMMENT_LINES = [
  'Thanks, I will try that now.',
  'Could you send a screenshot of the error?',
  'I have escalated this to the network team.',
  'Still happening after the restart.',
  'Working again, thank you!',
  'We are waiting on the vendor for a replacement part.',
  'I remoted in and reinstalled the driver.',
  'Can you confirm the asset tag on the device?',
  'This is affecting three more people now.',
  'Scheduled a visit for tomorrow morning.',
  'Please try signing out and back in.',
  'The fix has been deployed, let us know if it comes back.',
];
const TOPICS = [
  'Printer',
  'VPN',
  'Password',
  'Email',
  'Laptop',
  'Wi-Fi',
  'Calendar',
  'Accounting',
  'Monitor',
  'Phone',
  'Backup',
  'Two-factor',
  'Shared drive',
  'Teams',
  'Excel',
  'Onboarding',
  'Scanner',
  'Licence',
  'Docking station',
  'CRM',
];
const VARIANTS = [
  'troubleshooting guide',
  'frequently asked questions',
  'setup for new starters',
  'known issues',
  'how to request access',
  'working from home',
  'security checklist',
  'quick fixes',
  'escalation path',
  'best practices',
];
const PARAGRAPHS = [
  '## Symptoms\n\nMost {topic} problems show up as a short error message, a spinner that never ends, or nothing happening at all. Note the exact wording of the message and the time it happened before you call the service desk.',
  '## Before you start\n\nMake sure you are on the office network or connected through the VPN, that your laptop has the latest updates, and that you have restarted it at least once today. Many {topic} issues disappear after a restart.',
  '## Step by step\n\n1. Open the {topic} settings from the start menu.\n2. Check the account shown is your work account.\n3. Remove and add the connection again.\n4. Try once more and note whether the error changes.',
  '## Known issues\n\n- After the monthly update some {topic} settings are reset to their defaults.\n- Older devices may need a firmware update first.\n- Shared devices in meeting rooms use a separate service account.',
  '## When to raise a ticket\n\nIf the steps above do not help, raise a ticket with the category set, the asset tag of your device, and a screenshot. Tickets about {topic} for a whole team are handled with higher priority.',
  '## Security\n\nNever share your password or one-time codes with anyone, including the service desk. We will never ask for them. Report anything suspicious about {topic} straight away.',
  '## Related\n\nSee also the articles on passwords, the VPN and working from home. Our service hours are 8:00 to 18:00 on working days; urgent {topic} outages are handled around the clock.',
];
/** Appears in 0.01% of tickets; and a word no ticket contains. */
const RARE_WORD = 'tachograph';
const ABSENT_WORD = 'xylophone';
/** 200 characters of words every description uses, in an order none has: the worst case for trigram search. */
const LONG_SEARCH = (() => {
  const text =
    'restarting did not help and the printer shows offline again, a colleague sees the same thing since this morning and it blocks the month-end close, so please call me on my extension if you need more details about the error message';
  const s = text.slice(0, 200);
  return s.endsWith(' ') ? `${s.slice(0, 199)}x` : s;
})();

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const arr = (items: readonly string[]) => `(array[${items.map(lit).join(', ')}]::text[])`;
/** One element of a list, chosen by a random number in [0, 1). */
const pick = (items: readonly string[], r: string) => `${arr(items)}[1 + floor(${r} * ${items.length})::int]`;

/** Tickets with 1,000+ comments: where they sit in the id range, and how many comments each gets. */
function heavyTickets(): { id: number; comments: number }[] {
  const plan = [
    { at: 0.995, comments: 2500 },
    { at: 0.9, comments: 1800 },
    { at: 0.7, comments: 1400 },
    { at: 0.5, comments: 1200 },
    { at: 0.3, comments: 1000 },
  ];
  const planned = plan.reduce((sum, p) => sum + p.comments, 0);
  const scale = Math.min(1, (COMMENTS * 0.25) / planned);
  return plan
    .map((p) => ({ id: Math.max(1, Math.floor(TICKETS * p.at)), comments: Math.floor(p.comments * scale) }))
    .filter((h) => h.comments > 0);
}

/** The users the bench signs in as: a busy agent, a typical requester and the heaviest one. */
const AGENT_ID = ADMINS + 1;
const HEAVY_REQUESTER_ID = STAFF + 1;
const TYPICAL_REQUESTER_ID = (() => {
  let id = STAFF + 1 + Math.floor((USERS - STAFF) / 2);
  if (id % 200 === 7) id += 1; // not one of the deleted accounts
  return id;
})();
const emailOf = (id: number) => `${id <= ADMINS ? 'admin' : id <= STAFF ? 'agent' : 'user'}${id}@scale.test`;

function usersSql(passwordHash: string): string {
  const role = `case when g <= ${ADMINS} then 'admin' when g <= ${STAFF} then 'agent' else 'user' end`;
  const created = `now() - interval '1200 days' + (g::float8 / ${USERS}) * interval '100 days'`;
  return `
    insert into users (id, name, email, password_hash, role, email_notifications, token_version, deleted_at, created_at, updated_at)
    overriding system value
    select g,
      ${arr(FIRST)}[1 + g % ${FIRST.length}] || ' ' || ${arr(LAST)}[1 + (g / ${FIRST.length}) % ${LAST.length}],
      ${role} || g || '@scale.test',
      ${lit(passwordHash)},
      (${role})::user_role,
      (case when g % 10 = 0 then 'none' when g % 4 = 0 then 'important' else 'all' end)::notification_preference,
      0,
      case when g > ${STAFF + 1} and g % 200 = 7 then now() - interval '30 days' end,
      ${created}, ${created}
    from generate_series(1, ${USERS}) g`;
}

function ticketsSql(): string {
  const recentFrom = Math.floor(TICKETS * 0.98);
  return `
    insert into tickets (id, title, description, priority, status, resolution_notes, user_id, assigned_agent_id, updated_by_id, version, created_at, updated_at)
    overriding system value
    select g, title, description, priority::ticket_priority, status::ticket_status,
      case when status in ('resolved', 'closed') then resolution end,
      owner, agent,
      case when agent is not null then agent when status <> 'open' then owner end,
      1 + (agent is not null)::int + (status = 'in_progress' or (status in ('resolved', 'closed') and g % 5 <> 0))::int
        + (status in ('resolved', 'closed'))::int + (status = 'closed')::int,
      created,
      case when status = 'open' and agent is null then created
        else least(now(), created + r_dt * case status when 'open' then interval '4 hours' when 'in_progress' then interval '3 days' else interval '12 days' end) end
    from (
      select s.*,
        case when status = 'open' then (case when r_a < 0.2 then agent_pick end)
             when status = 'in_progress' then agent_pick
             else (case when r_a < 0.98 then agent_pick end) end as agent
      from (
        select r.*,
          case when g > ${recentFrom} then
            case when r_s < 0.45 then 'open' when r_s < 0.75 then 'in_progress' when r_s < 0.95 then 'resolved' else 'closed' end
          else
            case when r_s < 0.015 then 'open' when r_s < 0.025 then 'in_progress' when r_s < 0.30 then 'resolved' else 'closed' end
          end as status,
          case when r_p < 0.30 then 'low' when r_p < 0.75 then 'medium' when r_p < 0.93 then 'high' else 'urgent' end as priority,
          ${STAFF + 1} + floor(power(r_o, 2) * ${USERS - STAFF})::int as owner,
          1 + floor(power(r_ag, 1.5) * ${STAFF})::int as agent_pick,
          case when r_pr < 0.08 then ${pick(PRINTER_TITLES, 'r_t')} else ${pick(TITLES, 'r_t')} end as title,
          ${pick(DETAILS, 'r_d1')} || ' ' ||
            case when r_pr < 0.08 then ${pick(PRINTER_DETAILS, 'r_d2')} when r_pr < 0.12 then ${pick(PRINTER_ASIDES, 'r_d2')} else ${pick(DETAILS, 'r_d2')} end
            || case when r_rare < 0.0001 then ' The ${RARE_WORD} sync tool is affected as well.' else '' end
            || ' Reported from workstation WS-' || (1000 + floor(r_ws * 9000)::int) || '.' as description,
          ${pick(RESOLUTIONS, 'r_res')} as resolution,
          least(now(), now() - interval '1095 days' + ((g - 1)::float8 / ${TICKETS}) * interval '1095 days' + r_j * interval '15 minutes') as created
        from (
          select g, random() r_s, random() r_p, random() r_o, random() r_ag, random() r_a, random() r_t, random() r_pr,
                 random() r_d1, random() r_d2, random() r_rare, random() r_ws, random() r_res, random() r_j, random() r_dt
          from generate_series(1, ${TICKETS}) g
          offset 0
        ) r
      ) s
    ) t`;
}

/** All comments in one statement, in the order they were written, as a live system stores them. */
function commentsSql(): string {
  const heavy = heavyTickets();
  const heavyTotal = heavy.reduce((sum, h) => sum + h.comments, 0);
  const bulk = Math.max(0, COMMENTS - heavyTotal);
  const busy = Math.floor(TICKETS / 97);
  const line = (r1: string, r2: string, r3: string) =>
    `${pick(COMMENT_LINES, r1)} || case when ${r2} < 0.3 then ' ' || ${pick(COMMENT_LINES, r3)} else '' end`;
  const heavySelects = heavy.map(
    (h) => `
      select t.id as ticket_id,
        case when g % 3 = 0 then t.user_id else coalesce(t.assigned_agent_id, 1 + g % ${STAFF}) end as author_id,
        ${line('random()', 'random()', 'random()')} as content,
        least(now(), t.created_at + (g::float8 / ${h.comments}) * greatest(t.updated_at - t.created_at, interval '20 days')) as created_at
      from generate_series(1, ${h.comments}) g join tickets t on t.id = ${h.id}`,
  );
  const bulkSelect = `
      select t.id,
        case when c.r_a < 0.45 then t.user_id else coalesce(t.assigned_agent_id, 1 + floor(c.r_ag * ${STAFF})::int) end,
        ${line('c.r_c', 'c.r_c2', 'c.r_c3')},
        least(now(), t.created_at + c.r_t * greatest(t.updated_at - t.created_at, interval '2 hours'))
      from (
        select case when r_busy < 0.3 and ${busy} > 0 then 97 * (1 + floor(r_pick * ${busy})::int) else 1 + floor(r_pick * ${TICKETS})::int end as ticket_id,
          r_a, r_ag, r_c, r_c2, r_c3, r_t
        from (
          select g, random() r_busy, random() r_pick, random() r_a, random() r_ag, random() r_c, random() r_c2, random() r_c3, random() r_t
          from generate_series(1, ${bulk}) g
          offset 0
        ) x
      ) c join tickets t on t.id = c.ticket_id`;
  return `
    insert into ticket_comments (ticket_id, author_id, content, created_at)
    select ticket_id, author_id, content, created_at from (${[...heavySelects, bulkSelect].join('\n      union all')}
    ) all_comments
    order by created_at`;
}

/** A history row per change (created, assigned, status steps) and per comment, in time order. */
function historySql(): string {
  return `
    insert into ticket_history (ticket_id, type, from_value, to_value, actor_id, created_at)
    select ticket_id, type::ticket_history_type, from_value, to_value, actor_id, at from (
      select t.id as ticket_id, e.type, e.from_value, e.to_value, e.actor_id, e.at
      from tickets t
      left join users a on a.id = t.assigned_agent_id
      cross join lateral (values
        ('created', null::text, 'open'::text, t.user_id, t.created_at, true),
        ('assigned', null, a.name, t.assigned_agent_id, t.created_at + (t.updated_at - t.created_at) * 0.1, t.assigned_agent_id is not null),
        ('status', 'open', 'in_progress', coalesce(t.assigned_agent_id, 1), t.created_at + (t.updated_at - t.created_at) * 0.2,
          t.status = 'in_progress' or (t.status in ('resolved', 'closed') and t.id % 5 <> 0)),
        ('status', case when t.id % 5 = 0 then 'open' else 'in_progress' end, 'resolved', coalesce(t.assigned_agent_id, 1),
          case when t.status = 'resolved' then t.updated_at else t.created_at + (t.updated_at - t.created_at) * 0.7 end,
          t.status in ('resolved', 'closed')),
        ('status', 'resolved', 'closed', coalesce(t.assigned_agent_id, 1), t.updated_at, t.status = 'closed')
      ) e(type, from_value, to_value, actor_id, at, present)
      where e.present
      union all
      select ticket_id, 'comment', null, id::text, author_id, created_at from ticket_comments
    ) entries
    order by at`;
}

function articlesSql(): string {
  const topic = `${arr(TOPICS)}[1 + (g - 1) % ${TOPICS.length}]`;
  const variant = `${arr(VARIANTS)}[1 + ((g - 1) / ${TOPICS.length}) % ${VARIANTS.length}]`;
  return `
    insert into articles (title, content, category, keywords, helpful_count, creator_id, created_at, updated_at)
    select title, content, category::article_category, keywords, helpful, creator, created, created + (random() * 30) * interval '1 day'
    from (
      select g,
        topic || ': ' || variant || case when g > ${TOPICS.length * VARIANTS.length} then ' (' || g || ')' else '' end as title,
        '# ' || topic || ': ' || variant || E'\\n\\n' ||
          (select string_agg(replace(p, '{topic}', lower(topic)), E'\\n\\n' order by i) from unnest(${arr(PARAGRAPHS)}) with ordinality u(p, i) where (i + g) % 3 <> 0) as content,
        (array['general', 'technical', 'billing', 'account', 'other'])[1 + g % 5] as category,
        array[lower(topic), split_part(variant, ' ', 1), 'how-to'] as keywords,
        floor(random() * 250)::int as helpful,
        1 + g % ${STAFF} as creator,
        now() - random() * interval '1095 days' as created
      from generate_series(1, ${ARTICLES}) g, lateral (select ${topic} as topic, ${variant} as variant) tv
    ) a`;
}

const SEEDED_TABLES = ['users', 'tickets', 'ticket_comments', 'ticket_history', 'articles'];

interface DatasetFacts {
  hotTicket: { id: number; comments: number };
  ordinaryTicket: { id: number; comments: number };
  requesterTicket: number;
  articleId: number;
  agentAssigned: number;
  typicalRequesterTickets: number;
  heavyRequesterTickets: number;
  sizes: string;
}

const rowsOf = async <T>(db: Db, query: SQL | string): Promise<T[]> => {
  const result = await db.execute(typeof query === 'string' ? sql.raw(query) : query);
  return (result as { rows?: T[] }).rows ?? (result as T[]);
};

async function hasMarker(db: Db): Promise<boolean> {
  const [found] = await rowsOf<{ t: string | null }>(db, `select to_regclass('helpdesk_scale.dataset')::text as t`);
  if (!found?.t) return false;
  const rows = await rowsOf<{ spec: string }>(db, 'select spec from helpdesk_scale.dataset');
  return rows.some((r) => r.spec === SPEC);
}

/** One step of the load, in a transaction of its own (SET LOCAL needs one connection throughout). */
async function step(db: Db, name: string, statements: string[], superuser: boolean): Promise<void> {
  await phase(`seed: ${name}`, () =>
    db.transaction(async (tx) => {
      // The rows are valid by construction; per-row foreign key triggers would only slow the load.
      if (superuser) await tx.execute(sql.raw(`set local session_replication_role = replica`));
      await tx.execute(sql.raw(`set local work_mem = '${KIND === 'postgres' ? '256MB' : '32MB'}'`));
      await tx.execute(sql.raw(`set local maintenance_work_mem = '${KIND === 'postgres' ? '512MB' : '128MB'}'`));
      if (KIND === 'postgres') await tx.execute(sql.raw('set local synchronous_commit = off'));
      await tx.execute(sql.raw('select setseed(0.42)'));
      for (const statement of statements) await tx.execute(sql.raw(statement));
    }),
  );
}

/** The seed's statements run for minutes: on PostgreSQL they get a connection without the app pool's statement timeout. */
async function seedWithoutTimeout(target: DatabaseTarget, appDb: Db): Promise<void> {
  if (target.kind !== 'postgres') return seed(appDb);
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    await seed(drizzlePg({ client, schema }));
  } finally {
    await client.end();
  }
}

async function seed(db: Db): Promise<void> {
  const started = performance.now();
  const [su] = await rowsOf<{ on: string }>(db, `select current_setting('is_superuser') as on`);
  const superuser = su?.on === 'on';
  const passwordHash = await hashPassword(PASSWORD);

  // The secondary indexes exactly as the migrations made them (not those behind a constraint).
  const indexes = await rowsOf<{ name: string; def: string }>(
    db,
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
     from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relname in (${SEEDED_TABLES.map(lit).join(', ')})
       and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
     order by 1`,
  );
  await step(
    db,
    `drop ${indexes.length} secondary indexes`,
    indexes.map((i) => `drop index ${i.name}`),
    superuser,
  );
  await step(db, `${USERS} users`, [usersSql(passwordHash)], superuser);
  await step(db, `${TICKETS} tickets`, [ticketsSql()], superuser);
  // The load runs as a replica when it can, which skips the counting triggers: count once here.
  await step(
    db,
    'ticket counts',
    [
      'delete from ticket_counts',
      'insert into ticket_counts (agent_id, status, priority, n) select coalesce(assigned_agent_id, 0), status, priority, count(*)::int from tickets group by 1, 2, 3',
    ],
    superuser,
  );
  await step(db, `${COMMENTS} comments`, [commentsSql()], superuser);
  await step(db, 'history', [historySql()], superuser);
  await step(db, `${ARTICLES} articles`, [articlesSql()], superuser);
  await step(
    db,
    'sequences',
    ['users', 'tickets'].map((t) => `select setval(pg_get_serial_sequence('${t}', 'id'), (select coalesce(max(id), 1) from ${t}))`),
    superuser,
  );
  for (const index of indexes) await step(db, `index ${index.name}`, [index.def], superuser);
  await phase('vacuum analyze', () => db.execute(sql.raw('vacuum analyze')));
  await db.execute(sql.raw('create schema if not exists helpdesk_scale'));
  await db.execute(
    sql.raw(
      'create table if not exists helpdesk_scale.dataset (spec text primary key, built_at timestamptz not null default now(), build_seconds float8)',
    ),
  );
  await db.execute(
    sql.raw(`insert into helpdesk_scale.dataset (spec, build_seconds) values (${lit(SPEC)}, ${(performance.now() - started) / 1000})`),
  );
}

async function facts(db: Db): Promise<DatasetFacts> {
  const one = async (query: string) => Number(Object.values((await rowsOf<Record<string, unknown>>(db, query))[0] ?? {})[0] ?? 0);
  const hot = heavyTickets()[0]!;
  // An ordinary ticket: the first after 60% of the range with a few comments, as most have.
  const around = Math.floor(TICKETS * 0.6) + 1;
  const ordinaryId =
    (await one(
      `select ticket_id from ticket_comments where ticket_id between ${around} and ${around + 1000} group by ticket_id having count(*) between 2 and 4 order by ticket_id limit 1`,
    )) || around;
  const size = async (t: string) => {
    const [row] = await rowsOf<{ rows: string; size: string }>(
      db,
      `select (select count(*) from ${t})::text as rows, pg_size_pretty(pg_total_relation_size('${t}')) as size`,
    );
    return `${t} ${Number(row!.rows).toLocaleString('en-US')} rows, ${row!.size}`;
  };
  const sizes = [];
  for (const t of SEEDED_TABLES) sizes.push(await size(t));
  return {
    hotTicket: { id: hot.id, comments: await one(`select count(*) from ticket_comments where ticket_id = ${hot.id}`) },
    ordinaryTicket: { id: ordinaryId, comments: await one(`select count(*) from ticket_comments where ticket_id = ${ordinaryId}`) },
    requesterTicket: await one(`select id from tickets where user_id = ${TYPICAL_REQUESTER_ID} order by created_at desc limit 1`),
    articleId: await one(`select min(id) from articles`),
    agentAssigned: await one(`select count(*) from tickets where assigned_agent_id = ${AGENT_ID}`),
    typicalRequesterTickets: await one(`select count(*) from tickets where user_id = ${TYPICAL_REQUESTER_ID}`),
    heavyRequesterTickets: await one(`select count(*) from tickets where user_id = ${HEAVY_REQUESTER_ID}`),
    sizes: `${sizes.join('; ')}; database ${(await rowsOf<{ s: string }>(db, `select pg_size_pretty(pg_database_size(current_database())) as s`))[0]!.s}`,
  };
}

/** Migrations (always: ones added since a kept data set was built apply to it too), then reuse or build. */
async function prepare(place: Place): Promise<{ facts: DatasetFacts; built: boolean; version: string }> {
  let database: Database | undefined;
  try {
    let reuse = false;
    if (await place.exists()) {
      database = await phase('open + migrate (existing data set)', () => openDatabase(place.target));
      reuse = await hasMarker(database.db);
      if (!reuse) {
        console.log(`${place.label} exists but does not hold this data set (${SPEC}): rebuilding it`);
        await database.close();
        database = undefined;
      } else {
        console.log(`reusing ${place.label} (${SPEC})`);
      }
    }
    if (!reuse) {
      await phase('create database', () => place.recreate());
      database = await phase('open + migrate (app migrations)', () => openDatabase(place.target));
      await seedWithoutTimeout(place.target, database.db);
    }
    const found = await phase('data set facts', () => facts(database!.db));
    const [version] = await rowsOf<{ v: string }>(database!.db, `select current_setting('server_version') as v`);
    return { facts: found, built: !reuse, version: version!.v };
  } finally {
    await database?.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The calls.

type Who = 'agent' | 'requester' | 'heavy requester' | 'anonymous' | 'floor';

interface Call {
  name: string;
  who: Who;
  path: string;
  /** A call the server refuses by design (e.g. a page deeper than the bound): timed all the same. */
  status?: number;
  /** Ticket changes per second made through the API while this call is loaded: each one ends every kept answer. */
  writesPerSecond?: number;
}

function calls(f: DatasetFacts, lastPage: number): Call[] {
  const search = (term: string) => `/api/tickets?search=${encodeURIComponent(term)}`;
  const list: Call[] = [
    { name: 'health (no auth, db ping)', who: 'anonymous', path: '/api/health' },
    { name: 'auth only: /auth/verify', who: 'agent', path: '/api/auth/verify' },
    { name: 'agent: list page 1', who: 'agent', path: '/api/tickets' },
    { name: 'agent: status=open', who: 'agent', path: '/api/tickets?status=open' },
    { name: 'agent: priority=urgent', who: 'agent', path: '/api/tickets?priority=urgent' },
    { name: `agent: mine=1 (${f.agentAssigned} assigned)`, who: 'agent', path: '/api/tickets?mine=1' },
    { name: 'agent: search "printer"', who: 'agent', path: search('printer') },
    { name: `agent: search rare "${RARE_WORD}"`, who: 'agent', path: search(RARE_WORD) },
    { name: `agent: search no match "${ABSENT_WORD}"`, who: 'agent', path: search(ABSENT_WORD) },
    { name: 'agent: search 1 char "p"', who: 'agent', path: search('p') },
    { name: `agent: search ${LONG_SEARCH.length} chars`, who: 'agent', path: search(LONG_SEARCH) },
    ...['createdAt', '-createdAt', 'updatedAt', '-updatedAt', 'priority', '-priority'].map((s) => ({
      name: `agent: sort=${s}`,
      who: 'agent' as const,
      path: `/api/tickets?sort=${s}`,
    })),
    { name: 'agent: page=1000 (deepest allowed)', who: 'agent', path: '/api/tickets?page=1000' },
    { name: 'agent: page=5000 (refused, 400)', who: 'agent', path: '/api/tickets?page=5000', status: 400 },
    { name: `agent: last page (${lastPage}, refused, 400)`, who: 'agent', path: `/api/tickets?page=${lastPage}`, status: 400 },
    { name: 'agent: page=9999999', who: 'agent', path: '/api/tickets?page=9999999' },
    { name: 'agent: stats', who: 'agent', path: '/api/tickets/stats' },
    { name: 'agent: stats status=open', who: 'agent', path: '/api/tickets/stats?status=open' },
    { name: 'agent: stats search "printer"', who: 'agent', path: '/api/tickets/stats?search=printer' },
    { name: 'agent: stats mine=1', who: 'agent', path: '/api/tickets/stats?mine=1' },
    { name: `agent: detail (${f.ordinaryTicket.comments} comments)`, who: 'agent', path: `/api/tickets/${f.ordinaryTicket.id}` },
    { name: `agent: detail (${f.hotTicket.comments} comments)`, who: 'agent', path: `/api/tickets/${f.hotTicket.id}` },
    { name: `user: own list (${f.typicalRequesterTickets} tickets)`, who: 'requester', path: '/api/tickets' },
    { name: 'user: own stats', who: 'requester', path: '/api/tickets/stats' },
    { name: 'user: own ticket detail', who: 'requester', path: `/api/tickets/${f.requesterTicket}` },
    { name: `user: own list (${f.heavyRequesterTickets} tickets)`, who: 'heavy requester', path: '/api/tickets' },
    { name: `user: own stats (${f.heavyRequesterTickets} tickets)`, who: 'heavy requester', path: '/api/tickets/stats' },
    { name: 'knowledge: list', who: 'anonymous', path: '/api/knowledge' },
    { name: 'knowledge: search "printer"', who: 'anonymous', path: '/api/knowledge?search=printer' },
    { name: 'knowledge: detail', who: 'anonymous', path: `/api/knowledge/${f.articleId}` },
    // The calls above repeat one question with no write in between, so after the first they read kept
    // answers; these pay for a fresh read after each of a busy team's changes.
    ...[
      { name: 'agent: list page 1', path: '/api/tickets' },
      { name: 'agent: stats', path: '/api/tickets/stats' },
      { name: 'agent: search "printer"', path: search('printer') },
      { name: `agent: detail (${f.ordinaryTicket.comments} comments)`, path: `/api/tickets/${f.ordinaryTicket.id}` },
    ].map(({ name, path }) => ({
      name: `${name}, ${WRITES_PER_SECOND} changes/s`,
      who: 'agent' as const,
      path,
      writesPerSecond: WRITES_PER_SECOND,
    })),
  ];
  return ONLY ? list.filter((c) => c.name.includes(ONLY)) : list;
}

// ---------------------------------------------------------------------------------------------------------------
// Load.

interface Probe {
  status: number;
  body: Buffer;
  ms: number;
  timedOut: boolean;
}

async function probe(url: string, headers: Record<string, string>): Promise<Probe> {
  const started = performance.now();
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(TIMEOUT_S * 1000) });
    const body = Buffer.from(await response.arrayBuffer());
    return { status: response.status, body, ms: performance.now() - started, timedOut: false };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return { status: 0, body: Buffer.alloc(0), ms: TIMEOUT_S * 1000, timedOut: true };
    throw error;
  }
}

interface Run {
  connections: number;
  n: number;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  timeouts: number;
  problems: string[];
}

const CORES = os.cpus().length;

/**
 * One autocannon run. Fast calls run for BENCH_SECONDS; a call too slow for ~20 rounds per connection
 * in that time runs a fixed number of requests instead (autocannon drops requests still in flight at
 * the end of a timed run, which would hide exactly the slow ones).
 */
async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  estimateMs: number,
  seconds = SECONDS,
): Promise<Run> {
  const budget = seconds * 1000;
  const perRequest = estimateMs * Math.max(1, connections / CORES);
  const rounds = Math.floor(budget / Math.max(perRequest, 0.001));
  const mode = rounds >= 20 ? { duration: seconds } : { amount: connections * Math.min(20, Math.max(perRequest < 10_000 ? 2 : 1, rounds)) };
  const latencies: number[] = [];
  const refused = new Map<number, number>();
  let last = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, headers, connections, timeout: TIMEOUT_S, ...mode }, (error, r) =>
      error ? reject(error as Error) : resolve(r),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      latencies.push(responseTime);
      if (status < 200 || status > 299) refused.set(status, (refused.get(status) ?? 0) + 1);
      last = performance.now();
    });
  });
  const completed = latencies.length;
  // A timeout counts at the timeout: at least that long, and it must show in the tail.
  for (let i = 0; i < result.timeouts; i++) latencies.push(TIMEOUT_S * 1000);
  latencies.sort((a, b) => a - b);
  const elapsed = ((last || performance.now()) - started) / 1000;
  const problems = [
    result.timeouts && `${result.timeouts} timeouts (>${TIMEOUT_S} s)`,
    result.errors - result.timeouts > 0 && `${result.errors - result.timeouts} errors`,
    result.non2xx && `non-2xx: ${[...refused].map(([status, n]) => `${n} × ${status}`).join(', ')}`,
  ].filter((p): p is string => Boolean(p));
  return {
    connections,
    n: latencies.length,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    rps: completed / Math.max(elapsed, 0.001),
    timeouts: result.timeouts,
    problems,
  };
}

interface Measured {
  call: Call;
  bytes: number;
  total: string;
  probeMs: number;
  runs: Run[];
  timedOut: boolean;
}

/** What the answer says about its size: the total a list reports, or the comments of a detail. */
function totalOf(body: Buffer): string {
  try {
    const json = JSON.parse(body.toString()) as Record<string, any>;
    if (typeof json.total === 'number') return String(json.total);
    if (typeof json.data?.total === 'number') return String(json.data.total);
    if (json.stats) return `${json.stats.total} (open ${json.stats.open})`;
    if (json.ticket) return `${json.ticket.comments?.length ?? 0} comments, ${json.ticket.history?.length ?? 0} history`;
    return '';
  } catch {
    return '';
  }
}

/** Waits until nothing runs on the database any more (a timed-out request's query keeps running). */
type IdleWait = () => Promise<void>;

function postgresIdle(url: string): { wait: IdleWait; close(): Promise<void> } {
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
function pgliteIdle(baseUrl: string): IdleWait {
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

/** One ticket change through the API (the bench's writer), as an agent would make it. */
type Write = () => Promise<void>;

async function measure(call: Call, url: string, headers: Record<string, string>, idle: IdleWait, write: Write): Promise<Measured> {
  const writer = call.writesPerSecond ? startWriter(write, call.writesPerSecond) : undefined;
  try {
    return await measureCall(call, url, headers, idle);
  } finally {
    await writer?.stop();
  }
}

function startWriter(write: Write, perSecond: number): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(write);
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

async function measureCall(call: Call, url: string, headers: Record<string, string>, idle: IdleWait): Promise<Measured> {
  let first = await probe(url, headers);
  if (!first.timedOut && first.status !== (call.status ?? 200))
    throw new Error(`${call.name}: GET ${url} answered ${first.status}: ${first.body.toString().slice(0, 500)}`);
  // The first request may read from disk; a second one (when affordable) gives the estimate.
  if (!first.timedOut && first.ms < 5_000) first = { ...(await probe(url, headers)), body: first.body };
  const measured: Measured = {
    call,
    bytes: first.body.length,
    total: totalOf(first.body),
    probeMs: first.ms,
    runs: [],
    timedOut: first.timedOut,
  };
  if (first.timedOut) {
    console.log(`  ${call.name}: a single request took more than ${TIMEOUT_S} s; not loaded`);
    await idle();
    return measured;
  }
  if (WARMUP > 0 && first.ms < 1_000) await load(url, headers, Math.max(...CONNECTIONS), first.ms, WARMUP).then(() => idle());
  for (const connections of CONNECTIONS) {
    measured.runs.push(await load(url, headers, connections, first.ms));
    await idle();
  }
  const fmt = measured.runs.map((r) => `c${r.connections} p50 ${ms(r.p50)} p95 ${ms(r.p95)} ms ${r.rps.toFixed(1)}/s n=${r.n}`).join(' | ');
  console.log(`  ${call.name}: ${fmt}`);
  return measured;
}

const ms = (v: number) => (Number.isNaN(v) ? '-' : v < 1 ? v.toFixed(2) : v < 10 ? v.toFixed(1) : v.toFixed(0));

function printTable(results: Measured[]): void {
  const header = ['call'];
  for (const c of CONNECTIONS) header.push(`n@${c}`, `p50@${c} ms`, `p95@${c} ms`, `p99@${c} ms`, `req/s@${c}`);
  header.push('bytes', 'total');
  const rows = results.map((m) => {
    const cells = [m.call.name];
    for (const c of CONNECTIONS) {
      const r = m.runs.find((x) => x.connections === c);
      if (!r) cells.push('-', m.timedOut ? 'timeout' : '-', m.timedOut ? 'timeout' : '-', m.timedOut ? 'timeout' : '-', '-');
      else cells.push(String(r.n), ms(r.p50), ms(r.p95), ms(r.p99), r.rps < 10 ? r.rps.toFixed(2) : r.rps.toFixed(0));
    }
    cells.push(String(m.bytes), m.total);
    return cells;
  });
  console.log(markdownTable(header, rows));
  for (const m of results) {
    for (const r of m.runs) if (r.problems.length) console.log(`! ${m.call.name} @${r.connections}: ${r.problems.join(', ')}`);
    if (m.timedOut) console.log(`! ${m.call.name}: a single request exceeded ${TIMEOUT_S} s (timeout)`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// EXPLAIN: the statements the services issue for a call, captured by a Drizzle logger on a connection
// of the bench's own, then EXPLAIN (ANALYZE, BUFFERS) with the same parameters.

interface Captured {
  query: string;
  params: unknown[];
}

interface Explainer {
  services: Services;
  captured: Captured[];
  explain(statement: Captured): Promise<string>;
  close(): Promise<void>;
}

async function openExplainer(place: Place): Promise<Explainer> {
  const captured: Captured[] = [];
  const logger = { logQuery: (query: string, params: unknown[]) => void captured.push({ query, params }) };
  let db: Db;
  let run: (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
  let close: () => Promise<void>;
  if (place.target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: place.target.url, max: 2 });
    db = drizzlePg({ client: pool, schema, logger });
    run = async (text, params) => (await pool.query(text, params)).rows;
    close = () => pool.end();
  } else {
    const client = await PGlite.create(place.target.dataDir, { extensions: { pg_trgm } });
    db = drizzlePglite({ client, schema, logger });
    run = async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows;
    close = () => client.close();
  }
  const services = createServices({
    db,
    withTransaction: () => Promise.reject(new Error('the scale bench only reads')),
    writesEnded: () => 0,
    tokens: createTokenService(BENCH_JWT_SECRET, 3600),
    mailer: undefined as unknown as Mailer,
    threadKeys: { supportAddress: 'support@helpdesk.local', secret: BENCH_JWT_SECRET },
    logger: createLogger('silent'),
    settings: {
      ...parseSettings({ DATA_DIR: os.tmpdir() }),
      agentSignup: 'closed',
      publicUrl: 'http://localhost',
      redisUrl: undefined,
      attachments: { maxBytes: 1, maxCount: 1, dir: '/nonexistent' },
    },
    attachments: undefined as unknown as AttachmentStore,
  });
  return {
    services,
    captured,
    async explain({ query, params }) {
      const rows = await run(`explain (analyze, buffers) ${query}`, params);
      return rows.map((r) => String(Object.values(r)[0])).join('\n');
    },
    close,
  };
}

/** Runs what the route of `path` runs, through the services, for the signed-in `actor`. */
async function invoke(services: Services, actor: Actor | undefined, path: string): Promise<void> {
  const url = new URL(path, 'http://bench');
  const query = Object.fromEntries(url.searchParams);
  const id = /^\/api\/(?:tickets|knowledge)\/(\d+)$/.exec(url.pathname)?.[1];
  if (url.pathname === '/api/tickets') await services.tickets.list(actor!, parseInput(ticketListQuery, query));
  else if (url.pathname === '/api/tickets/stats') await services.tickets.stats(actor!, parseInput(ticketFiltersQuery, query));
  else if (url.pathname.startsWith('/api/tickets/') && id) await services.tickets.get(actor!, Number(id));
  else if (url.pathname === '/api/knowledge') await services.knowledge.list(parseInput(articleListQuery, query));
  else if (url.pathname.startsWith('/api/knowledge/') && id) await services.knowledge.get(Number(id));
  else if (url.pathname === '/api/auth/verify') await services.accounts.profile(actor!);
}

const executionMs = (plan: string) => Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN);

async function explainCalls(
  place: Place,
  chosen: Measured[],
  tokens: Record<Exclude<Who, 'anonymous' | 'floor'>, string>,
  header: string,
): Promise<string> {
  const explainer = await openExplainer(place);
  const out: string[] = [header];
  const summary: string[][] = [];
  try {
    // Every authenticated request first resolves its session: the same statement each time.
    explainer.captured.length = 0;
    const session = await explainer.services.accounts.resolveSession(tokens.agent);
    const authStatements = [...explainer.captured];
    const actors: Partial<Record<Who, Actor>> = {};
    for (const who of ['agent', 'requester', 'heavy requester'] as const)
      actors[who] = (await explainer.services.accounts.resolveSession(tokens[who]))?.actor;
    if (!session) throw new Error('the agent token does not resolve');
    out.push('\n=== every authenticated request: session lookup (accounts.resolveSession)');
    for (const statement of authStatements) {
      const plan = await explainer.explain(statement);
      summary.push(['(auth) session lookup', statement.query.slice(0, 70), ms(executionMs(plan))]);
      out.push(`-- ${statement.query}\n-- params: ${JSON.stringify(statement.params)}\n${plan}`);
    }
    for (const m of chosen) {
      explainer.captured.length = 0;
      await invoke(explainer.services, actors[m.call.who], m.call.path);
      const statements = [...explainer.captured];
      const p95 = m.runs.at(-1)?.p95;
      out.push(`\n=== ${m.call.name} — GET ${m.call.path.length > 120 ? `${m.call.path.slice(0, 120)}…` : m.call.path}`);
      out.push(
        `measured: p50@1 ${ms(m.runs[0]?.p50 ?? Number.NaN)} ms, p95@${CONNECTIONS.at(-1)} ${m.timedOut ? 'timeout' : `${ms(p95 ?? Number.NaN)} ms`}, ${m.bytes} bytes; ${statements.length} statement(s) besides the session lookup`,
      );
      for (const [i, statement] of statements.entries()) {
        const started = performance.now();
        const plan = await explainer.explain(statement);
        const exec = executionMs(plan);
        summary.push([m.call.name, `#${i + 1} ${statement.query.replace(/\s+/g, ' ').slice(0, 70)}`, ms(exec)]);
        out.push(`\n-- statement ${i + 1} of ${statements.length} (explain took ${ms(performance.now() - started)} ms)`);
        out.push(`-- ${statement.query}`);
        out.push(`-- params: ${JSON.stringify(statement.params).slice(0, 400)}`);
        out.push(plan);
      }
    }
  } finally {
    await explainer.close();
  }
  return [
    out[0]!,
    '\nexecution time per statement (EXPLAIN ANALYZE, warm cache):',
    markdownTable(['call', 'statement', 'exec ms'], summary),
    ...out.slice(1),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------------------------

async function startFloor(body: Buffer, dir: string): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const file = path.join(dir, 'floor-body.json');
  await writeFile(file, body);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'scaleFloor.ts'), file], {
    cwd: path.resolve(here, '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`floor exited with ${code}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://${HOST}:${port}/bare`,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The server's warnings and errors (LOG_LEVEL=warn), counted by message: why a call answered 5xx. */
function summariseLog(output: string): string[] {
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; status?: number; err?: { message?: string; stack?: string } };
      if ((entry.level ?? 0) < 40) continue;
      // The logged error is the failed query; what made it fail is the last "caused by" of its stack.
      const cause = entry.err?.stack?.split('\ncaused by: ').slice(1).at(-1)?.split('\n')[0];
      const what = [
        entry.status && `status ${entry.status}`,
        entry.err?.message?.split('\n')[0]?.slice(0, 140),
        cause && `caused by ${cause.slice(0, 140)}`,
      ];
      const key = [entry.msg ?? '', ...what].filter(Boolean).join(' | ');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    } catch {
      // not a log line
    }
  }
  return [...counts].map(([message, n]) => `${n} × ${message}`);
}

async function login(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`login ${email} answered ${response.status}: ${text}`);
  return (JSON.parse(text) as { token: string }).token;
}

async function main(): Promise<number> {
  const runStarted = performance.now();
  if (KIND === 'postgres') await requirePostgres(ADMIN_URL, 'BENCH_DATABASE_URL');
  const pgliteDir =
    KIND === 'pglite'
      ? KEEP && KEEP !== '1' && KEEP !== 'true'
        ? path.resolve(KEEP)
        : path.join(os.tmpdir(), DATASET_NAME.replace('helpdesk_scale_', 'helpdesk_scale_pglite_'))
      : undefined;
  const place = KIND === 'postgres' ? postgresPlace() : pglitePlace(pgliteDir!);
  console.log(`scale bench: ${place.label} | ${machine()}`);
  console.log(
    `data set: ${TICKETS} tickets, ${USERS} users (${STAFF} staff, ${ADMINS} admins), ${COMMENTS} comments, ${ARTICLES} articles`,
  );

  const { facts: f, built, version } = await prepare(place);
  console.log(`${KIND === 'postgres' ? 'PostgreSQL' : 'PGlite, PostgreSQL'} ${version}; ${f.sizes}`);
  console.log(
    `hot ticket #${f.hotTicket.id} (${f.hotTicket.comments} comments); agent #${AGENT_ID} has ${f.agentAssigned} assigned; requester #${TYPICAL_REQUESTER_ID} ${f.typicalRequesterTickets} tickets; heavy requester #${HEAVY_REQUESTER_ID} ${f.heavyRequesterTickets}`,
  );

  const scratch = await mkdtemp(path.join(os.tmpdir(), 'helpdesk-scale-'));
  let server: ServerProcess | undefined;
  let floor: Awaited<ReturnType<typeof startFloor>> | undefined;
  let pgIdle: ReturnType<typeof postgresIdle> | undefined;
  const onSignal = () => {
    server?.child.kill('SIGKILL');
    floor?.child.kill('SIGKILL');
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const results: Measured[] = [];
  let explainText: string | undefined;
  let serverLog: string[];
  try {
    const port = await freePort();
    server = await phase('start server', () =>
      startServerProcess(
        {
          ...place.serverEnv,
          ...(KIND === 'postgres' && { DATA_DIR: scratch }),
          HOST,
          PORT: String(port),
          SEED_DEMO: 'false',
          LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
          JWT_SECRET: BENCH_JWT_SECRET,
        },
        180_000,
      ),
    );
    const base = server.url;
    const tokens = await phase('sign in', async () => ({
      agent: await login(base, emailOf(AGENT_ID)),
      requester: await login(base, emailOf(TYPICAL_REQUESTER_ID)),
      'heavy requester': await login(base, emailOf(HEAVY_REQUESTER_ID)),
    }));
    const headersOf = (who: Who): Record<string, string> =>
      who === 'anonymous' || who === 'floor' ? {} : { authorization: `Bearer ${tokens[who]}` };
    const idle: IdleWait = KIND === 'postgres' ? (pgIdle = postgresIdle((place.target as { url: string }).url)).wait : pgliteIdle(base);

    const first = await probe(`${base}/api/tickets`, headersOf('agent'));
    if (first.status !== 200) throw new Error(`list answered ${first.status}: ${first.body.toString()}`);
    const listed = JSON.parse(first.body.toString()) as { total: number; limit: number };
    if (listed.total !== TICKETS) throw new Error(`the list reports ${listed.total} tickets, expected ${TICKETS}`);
    const lastPage = Math.ceil(listed.total / listed.limit);

    const list = calls(f, lastPage);
    const cpuBefore = cpuWaitMicros();
    await phase('measure', async () => {
      console.log(
        `\nload: ${CONNECTIONS.join(' and ')} connection(s), ${WARMUP} s warm-up + ${SECONDS} s per run (or a fixed count for slow calls), timeout ${TIMEOUT_S} s`,
      );
      let priority: 'high' | 'low' = 'high';
      const write: Write = async () => {
        priority = priority === 'high' ? 'low' : 'high';
        const response = await fetch(`${base}/api/tickets/${f.ordinaryTicket.id}`, {
          method: 'PUT',
          headers: { ...headersOf('agent'), 'content-type': 'application/json' },
          body: JSON.stringify({ priority }),
        });
        if (!response.ok) throw new Error(`the writer's change answered ${response.status}: ${await response.text()}`);
      };
      for (const call of list) results.push(await measure(call, `${base}${call.path}`, headersOf(call.who), idle, write));
      const listBody = (await probe(`${base}/api/tickets`, headersOf('agent'))).body;
      floor = await startFloor(listBody, scratch);
      results.push(
        await measure({ name: 'bare Koa floor (list bytes)', who: 'floor', path: '/bare' }, floor.url, {}, async () => {}, write),
      );
    });
    const cpuAfter = cpuWaitMicros();
    if (cpuBefore !== undefined && cpuAfter !== undefined) {
      console.log(
        `machine CPU pressure during the measurements: tasks waited ${((cpuAfter - cpuBefore) / 1e6).toFixed(1)} s for a CPU (others share it)`,
      );
    }
    await floor?.stop();
    floor = undefined;
    await pgIdle?.close();
    pgIdle = undefined;
    await server.stop();
    serverLog = summariseLog(server.output());
    server = undefined;

    if (EXPLAIN > 0) {
      const api = results.filter((m) => m.call.who !== 'floor' && m.call.path !== '/api/health');
      const key = (m: Measured) => (m.timedOut ? Infinity : (m.runs.at(-1)?.p95 ?? 0));
      const chosen = [...api].sort((a, b) => key(b) - key(a)).slice(0, EXPLAIN);
      explainText = await phase(`explain ${chosen.length} call(s)`, () =>
        explainCalls(
          place,
          chosen,
          tokens,
          `EXPLAIN (ANALYZE, BUFFERS) of the statements the services issue, ${place.label}, ${KIND === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${version}, ${TICKETS} tickets`,
        ),
      );
      if (EXPLAIN_FILE) {
        await writeFile(EXPLAIN_FILE, `${explainText}\n`);
        console.log(`EXPLAIN output written to ${EXPLAIN_FILE}`);
      } else {
        console.log(`\n${explainText}\n`);
      }
    }
  } finally {
    await floor?.stop();
    await pgIdle?.close().catch(() => undefined);
    await server?.stop();
    await rm(scratch, { recursive: true, force: true });
    if (built && !KEEP) await phase('remove data set', () => place.remove());
    else console.log(`data set kept: ${place.label}`);
  }

  console.log(
    `\n${TICKETS} tickets on ${KIND === 'postgres' ? `PostgreSQL ${version}` : `PGlite (PostgreSQL ${version})`}; server: src/main.ts in its own process; ${machine()}`,
  );
  printTable(results);
  for (const line of serverLog) console.log(`server log: ${line}`);
  console.log(
    `\nphases: ${phases.map((p) => `${p.name} ${p.seconds.toFixed(1)} s`).join('; ')}; total ${((performance.now() - runStarted) / 1000).toFixed(1)} s`,
  );
  const top = Math.max(...CONNECTIONS);
  const atTop = (m: Measured) => m.runs.find((r) => r.connections === top);
  const worstOf = (measured: Measured[]) =>
    measured
      .map((m) => ({ name: m.call.name, p95: m.timedOut ? TIMEOUT_S * 1000 : (atTop(m)?.p95 ?? Number.NaN) }))
      .filter((w) => !Number.isNaN(w.p95))
      .sort((a, b) => b.p95 - a.p95)[0];
  const measuredCalls = results.filter((m) => m.call.who !== 'floor');
  const floorRate = results.find((m) => m.call.who === 'floor');
  const listRate = results.find((m) => m.call.name === 'agent: list page 1');
  const [floorTop, listTop] = [floorRate && atTop(floorRate), listRate && atTop(listRate)];
  if (floorTop && listTop)
    console.log(
      `list page 1 at ${top} connections: ${listTop.rps.toFixed(0)} req/s, ${((listTop.rps / floorTop.rps) * 100).toFixed(1)}% of the bare Koa floor's ${floorTop.rps.toFixed(0)}`,
    );
  const underWrites = worstOf(measuredCalls.filter((m) => m.call.writesPerSecond));
  if (underWrites)
    console.log(`worst p95 while a ticket changes ${WRITES_PER_SECOND} times a second: ${ms(underWrites.p95)} ms (${underWrites.name})`);
  // The issue's measure: every read call repeated as the bench defines it, without the writer's calls.
  const worst = worstOf(measuredCalls.filter((m) => !m.call.writesPerSecond));
  console.log(worst ? `worst p95: ${ms(worst.p95)} ms (${worst.name})` : 'worst p95: - ms (no calls)');
  // Timeouts and errors are results here (listed under the table), not a failed run: the last line stays the summary.
  return 0;
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
