/**
 * The scale bench's data set: where it lives (a PostgreSQL database or a PGlite directory), the
 * set-based SQL that fills it, and the facts the questions are drawn from.
 *
 * The database goes through the app's own migrations (openDatabase, as the server opens it), then is
 * filled with set-based SQL (generate_series, INSERT … SELECT) through the same driver: the secondary
 * indexes the migrations created are read from the catalog, dropped for the load and recreated from
 * their own definitions afterwards, then VACUUM ANALYZE. A marker table in its own schema
 * (helpdesk_scale) records what was built, so a later run on the same database reuses it (migrations
 * added since still apply).
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase, type Database, type Db, type DatabaseTarget } from '../src/db/client.js';
import * as schema from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/passwords.js';
import {
  ADMIN_URL,
  ADMINS,
  AGENT_ACCOUNTS,
  ARTICLES,
  COMMENTS,
  DATASET_NAME,
  KIND,
  PASSWORD,
  phase,
  SPEC,
  STAFF,
  TICKETS,
  USER_ACCOUNTS,
  USERS,
  WARM,
} from './scaleSettings.js';
import {
  COMMENT_LINES,
  FIRST,
  LAST,
  PARAGRAPHS,
  PRINTER_ASIDES,
  PRINTER_DETAILS,
  PRINTER_TITLES,
  RESOLUTIONS,
  TOPICS,
  VARIANTS,
} from './scaleTexts.js';
import { CODES, FUNCTION_WORD_COUNT, RARE_WORD, VOCABULARY } from './scaleVocabulary.js';

// ---------------------------------------------------------------------------------------------------------------
// Where the data set lives.

export interface Place {
  label: string;
  target: DatabaseTarget;
  /** The server process's settings for this database. */
  serverEnv: Record<string, string>;
  exists(): Promise<boolean>;
  /** Removes whatever is there and leaves an empty database. */
  recreate(): Promise<void>;
  remove(): Promise<void>;
  /**
   * Reads the data set's files into the operating system's cache, as a server that has been running
   * has them: a run right after a build or a reboot otherwise measures the disk (the same questions
   * went from 66 ms p95 warm to 1.7 s, 70 % refused, cold). Answers the bytes read.
   */
  warm(): Promise<number>;
}

/** One statement on the data sets' server (BENCH_DATABASE_URL), outside any data set. */
export async function adminQuery(query: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await client.query(query, params);
  } finally {
    await client.end();
  }
}

export function postgresPlace(): Place {
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
    async warm() {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        // pg_prewarm ships with PostgreSQL (contrib); 'read' goes through the OS cache, not shared_buffers.
        await client.query('create extension if not exists pg_prewarm');
        const { rows } = await client.query<{ bytes: string }>(
          `select coalesce(sum(pg_prewarm(c.oid, 'read')), 0) * current_setting('block_size')::bigint as bytes
           from pg_class c where c.relkind in ('r', 'i', 't', 'm') and c.relpersistence = 'p'`,
        );
        return Number(rows[0]!.bytes);
      } finally {
        await client.end();
      }
    },
  };
}

export function pglitePlace(dataDir: string): Place {
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
    warm: () => readAll(dir),
  };
}

/** Reads every file under `dir` to the end, keeping nothing: the bytes read. */
async function readAll(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    for await (const chunk of createReadStream(path.join(entry.parentPath, entry.name))) bytes += (chunk as Buffer).length;
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------------------------
// Who is who.

/** Tickets with 1,000+ comments: where they sit in the id range, and how many comments each gets. */
export function heavyTickets(): { id: number; comments: number }[] {
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

const isDeleted = (id: number) => id > STAFF + 1 && id % 200 === 7;
export const emailOf = (id: number) => `${id <= ADMINS ? 'admin' : id <= STAFF ? 'agent' : 'user'}${id}@scale.test`;
/** The account's name as usersSql writes it (SQL arrays count from 1). */
export const nameOf = (id: number) => `${FIRST[id % FIRST.length]} ${LAST[Math.floor(id / FIRST.length) % LAST.length]}`;

/** The agents the questions are asked by: spread over the staff, from the busiest (low ids) to the quietest. */
export const AGENT_IDS: number[] = (() => {
  const agents = STAFF - ADMINS;
  const n = Math.min(AGENT_ACCOUNTS, agents);
  return [...new Set(Array.from({ length: n }, (_, i) => ADMINS + 1 + Math.floor((i * agents) / n)))];
})();

/** The requesters: spread over every account that may sign in, the heaviest requester first. */
export const USER_IDS: number[] = (() => {
  const users = USERS - STAFF;
  const n = Math.min(USER_ACCOUNTS, users);
  const ids = Array.from({ length: n }, (_, i) => STAFF + 1 + Math.floor((i * users) / n)).map((id) => (isDeleted(id) ? id + 1 : id));
  return [...new Set(ids)].filter((id) => id <= USERS);
})();

// ---------------------------------------------------------------------------------------------------------------
// The generator. Everything is one SQL statement per table, run through the app's driver.

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const arr = (items: readonly string[]) => `(array[${items.map(lit).join(', ')}]::text[])`;
/** One element of a list, chosen by a random number in [0, 1). */
const pick = (items: readonly string[], r: string) => `${arr(items)}[1 + floor(${r} * ${items.length})::int]`;

/** The vocabulary, once per statement: `cross join vocabulary` gives each row `words` and `codes`. */
const VOCABULARY_CTE = `vocabulary as materialized (select ${arr(VOCABULARY)} as words, ${arr(CODES)} as codes)`;
/** A word of the vocabulary, rank r with P ~ 1/r (random() is drawn per call, so per word). */
const zipfWord = () => `words[least(${VOCABULARY.length}, floor(power(${VOCABULARY.length + 1}, random()))::int)]`;
/** A word that is not a function word, with the same long tail: what a saved view searches for. */
const CONTENT_WORDS = VOCABULARY.length - FUNCTION_WORD_COUNT;
const contentWord = () => `words[${FUNCTION_WORD_COUNT} + least(${CONTENT_WORDS}, floor(power(${CONTENT_WORDS + 1}, random()))::int)]`;
const words = (n: number, word = zipfWord) => `concat_ws(' ', ${Array.from({ length: n }, word).join(', ')})`;
const maybeWords = (n: number, share: number, word = zipfWord) => `case when random() < ${share} then ${words(n, word)} end`;
const code = () => `codes[1 + floor(random() * ${CODES.length})::int]`;

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

/**
 * Titles of 3–7 words and descriptions of 20–44 words from the vocabulary (P(rank r) ~ 1/r), so a
 * search may hit 20 % of the tickets or a few hundred; a third name a code; 8 % are printer tickets
 * and 4 % more mention a printer (the ~12 % of earlier data sets), and 0.01 % the rare word.
 */
/**
 * The tags of the data set and the share of tickets carrying each: common ones a list finds walking its
 * order, a rare one (under RARE_TAG_TICKETS at 1M tickets) read off the GIN index. Drawn from a hash of
 * the ticket id, not from random(), so the rest of the data set is what it was before tags.
 */
export const TAGS: readonly { tag: string; share: number }[] = [
  { tag: 'billing', share: 0.2 },
  { tag: 'vpn', share: 0.05 },
  { tag: 'vip', share: 0.01 },
  { tag: 'legal-hold', share: 0.0005 },
];
const tagsOf = (id: string) =>
  `array_remove(array[${TAGS.map(({ tag, share }, i) => `case when (hashint8(${id}::bigint * ${TAGS.length} + ${i}) & 16383) < ${Math.round(share * 16384)} then ${lit(tag)} end`).join(', ')}]::text[], null)`;

/**
 * Tickets' categories where the schema has them (migration 0036), by a hash of the id so the random
 * stream of the other columns stays as it was: most are `general`, as tickets opened without a pick.
 */
export const CATEGORY_SHARES: readonly { category: string; share: number }[] = [
  { category: 'technical', share: 0.25 },
  { category: 'billing', share: 0.12 },
  { category: 'account', share: 0.1 },
  { category: 'other', share: 0.03 },
];
const categoryOf = (id: string) => {
  let upTo = 0;
  const cases = CATEGORY_SHARES.map(({ category, share }) => {
    upTo += share;
    return `when (hashint8(${id}::bigint * 7 + 3) & 16383) < ${Math.round(upTo * 16384)} then ${lit(category)}`;
  });
  return `(case ${cases.join(' ')} else 'general' end)::article_category`;
};

function ticketsSql(withCategory: boolean): string {
  const recentFrom = Math.floor(TICKETS * 0.98);
  const title = `concat_ws(' ', ${words(3, contentWord)}, ${maybeWords(2, 0.5, contentWord)}, ${maybeWords(2, 0.3, contentWord)})`;
  return `
    insert into tickets (id, title, description, priority, status, resolution_notes, user_id, assigned_agent_id, updated_by_id, version,
      created_at, updated_at, last_activity_at, last_activity_by_id, tags${withCategory ? ', category' : ''})
    overriding system value
    with ${VOCABULARY_CTE}
    select g, title, description, priority::ticket_priority, status::ticket_status,
      case when status in ('resolved', 'closed') then resolution end,
      owner, agent, updated_by,
      1 + (agent is not null)::int + (status = 'in_progress' or (status in ('resolved', 'closed') and g % 5 <> 0))::int
        + (status in ('resolved', 'closed'))::int + (status = 'closed')::int,
      created, updated, updated, coalesce(updated_by, owner), ${tagsOf('g')}${withCategory ? `, ${categoryOf('g')}` : ''}
    from (
      select a.*, case when agent is not null then agent when status <> 'open' then owner end as updated_by,
        case when status = 'open' and agent is null then created
          else least(now(), created + r_dt * case status when 'open' then interval '4 hours' when 'in_progress' then interval '3 days' else interval '12 days' end) end
          as updated
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
            case when r_pr < 0.08 then ${pick(PRINTER_TITLES, 'r_t')}
              else overlay(t.title placing upper(left(t.title, 1)) from 1 for 1) end as title,
            ${words(20)} || coalesce(' ' || ${maybeWords(12, 0.5)}, '') || coalesce(' ' || ${maybeWords(12, 0.2)}, '') || '.' ||
              case when r_pr < 0.08 then ' ' || ${pick(PRINTER_DETAILS, 'r_d2')} when r_pr < 0.12 then ' ' || ${pick(PRINTER_ASIDES, 'r_d2')} else '' end
              || case when r_code < 0.35 then ' Error ' || ${code()} || '.' else '' end
              || case when r_rare < 0.0001 then ' The ${RARE_WORD} sync tool is affected as well.' else '' end
              || ' Reported from workstation WS-' || (1000 + floor(r_ws * 9000)::int) || '.' as description,
            ${pick(RESOLUTIONS, 'r_res')} as resolution,
            least(now(), now() - interval '1095 days' + ((g - 1)::float8 / ${TICKETS}) * interval '1095 days' + r_j * interval '15 minutes') as created
          from (
            select g, random() r_s, random() r_p, random() r_o, random() r_ag, random() r_a, random() r_t, random() r_pr,
                   random() r_d2, random() r_code, random() r_rare, random() r_ws, random() r_res, random() r_j, random() r_dt
            from generate_series(1, ${TICKETS}) g
            offset 0
          ) r
          cross join vocabulary
          -- Correlated with the row, so drawn per ticket rather than once.
          cross join lateral (select ${title} as title where r.g > 0) t
        ) s
      ) a
    ) t`;
}
/**
 * Service levels as a team using them for years would have them: one round-the-clock policy on every
 * ticket; a sixth of the tickets in progress waiting on the customer (clock paused); the running
 * ones' deadline spread from two days overdue to three days ahead, so about a third is breached and
 * some are in their warning half hour; the done ones met, or breached for one in eight. The next mark
 * of a running ticket is its warning or its deadline, as the clock sets it; every one passed is marked,
 * so the scanner finds only what comes due while the bench runs.
 */
function slaSql(): string[] {
  const targets = JSON.stringify(
    Object.fromEntries(
      ['low', 'medium', 'high', 'urgent'].map((p, i) => [
        p,
        { firstResponseMinutes: [480, 240, 60, 30][i], resolutionMinutes: [4320, 2880, 1440, 480][i] },
      ]),
    ),
  );
  const fraction = (k: number) => `((hashint8(id::bigint * 7 + ${k}) & 65535)::float8 / 65536)`;
  return [
    `insert into sla_policies (id, name, position, calendar_id, requester_domains, targets, warn_before_minutes, active)
     overriding system value values (1, 'Everyone', 1, null, '{}', ${lit(targets)}::jsonb, 30, true)`,
    `update tickets set status = 'pending' where status = 'in_progress' and ${fraction(1)} < 1.0 / 6`,
    `update tickets t set
       sla_policy_id = 1,
       sla_first_responded_at = case when s.running and t.status = 'open' then null else t.created_at + interval '40 minutes' end,
       sla_running_since = case when s.running then t.created_at end,
       sla_response_due_at = case when s.running and t.status = 'open' then s.due end,
       sla_resolution_due_at = case when s.running and t.status <> 'open' then s.due end,
       sla_response_warn_at = case when s.running and t.status = 'open' then s.due - interval '30 minutes' end,
       sla_resolution_warn_at = case when s.running and t.status <> 'open' then s.due - interval '30 minutes' end,
       sla_response_warned_at = case when s.running and t.status = 'open' and s.due - interval '30 minutes' <= now() then s.due - interval '30 minutes' end,
       sla_resolution_warned_at = case when s.running and t.status <> 'open' and s.due - interval '30 minutes' <= now() then s.due - interval '30 minutes' end,
       sla_response_breached_at = case when s.running and t.status = 'open' and s.due <= now() then s.due end,
       sla_resolution_breached_at = case
         when s.running and t.status <> 'open' and s.due <= now() then s.due
         when t.status in ('resolved', 'closed') and s.late then t.updated_at end,
       sla_next_mark_at = case when s.running and s.due > now() then
         case when s.due - interval '30 minutes' > now() then s.due - interval '30 minutes' else s.due end end,
       sla_due_at = case when s.running then s.due end,
       sla_state = case
         when t.status in ('resolved', 'closed') then case when s.late then 'breached' else 'met' end
         when t.status = 'pending' then 'paused'
         when s.due <= now() then 'breached'
         when s.due - interval '30 minutes' <= now() then 'warning'
         else 'ok' end
     from (
       select id, status in ('open', 'in_progress') as running,
         now() - interval '2 days' + ${fraction(2)} * interval '5 days' as due,
         ${fraction(3)} < 0.125 as late
       from tickets
     ) s
     where s.id = t.id`,
  ];
}

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

/** What the app writes as a team works: an "assigned" notification per assignment, a "reply" per comment to the owner. */
function notificationsSql(): string {
  return `
    insert into notifications (user_id, type, ticket_id, by_id, excerpt, created_at, read_at)
    select user_id, type::notification_type, ticket_id, by_id, excerpt, at,
      case when at < now() - interval '14 days' or r < 0.6 then at + interval '1 hour' end
    from (
      select t.assigned_agent_id as user_id, 'assigned' as type, t.id as ticket_id, 1 + t.id % ${ADMINS} as by_id,
        left(t.title, 140) as excerpt, t.created_at + (t.updated_at - t.created_at) * 0.1 as at, random() as r
      from tickets t where t.assigned_agent_id is not null
      union all
      select t.user_id, 'reply', c.ticket_id, c.author_id, left(c.content, 140), c.created_at, random()
      from ticket_comments c join tickets t on t.id = c.ticket_id
      where c.author_id <> t.user_id
    ) n
    order by at`;
}

/** Each agent has opened most tickets assigned to them since their last change: what "unread" compares with. */
function readsSql(): string {
  return `
    insert into ticket_reads (user_id, ticket_id, read_at)
    select assigned_agent_id, id, last_activity_at from tickets
    where assigned_agent_id is not null and random() < 0.9
    order by 1, 2`;
}

/**
 * Eight saved views per staff member, as a dashboard has them: six by filters only (read from the
 * counters) and two with a search, whose words are drawn from the vocabulary's long tail.
 */
function viewsSql(): string {
  const views = [
    ['My open', `'{"assignee":"me","status":"open"}'::jsonb`],
    ['Unassigned', `'{"assignee":"none"}'::jsonb`],
    ['Urgent open', `'{"status":"open","priority":"urgent"}'::jsonb`],
    ['In progress', `'{"status":"in_progress"}'::jsonb`],
    ['High priority', `'{"priority":"high"}'::jsonb`],
    ['Mine', `'{"assignee":"me"}'::jsonb`],
    ['Searched', `jsonb_build_object('search', ${contentWord()})`],
    ['Searched open', `jsonb_build_object('search', ${contentWord()}, 'status', 'open')`],
  ];
  return `
    insert into saved_views (owner_id, name, filters, sort, shared, created_at)
    with ${VOCABULARY_CTE}
    select g, v.name, v.filters, null, false, now() - interval '30 days'
    from generate_series(1, ${STAFF}) g cross join vocabulary
    cross join lateral (values ${views.map(([name, filters]) => `(${lit(name!)}, ${filters})`).join(', ')}) v(name, filters)
    order by g`;
}

const SEEDED_TABLES = [
  'users',
  'tickets',
  'ticket_words',
  'ticket_tags',
  'ticket_sla_states',
  'ticket_comments',
  'ticket_history',
  'articles',
  'notifications',
  'ticket_reads',
  'saved_views',
];

export const rowsOf = async <T>(db: Db, query: SQL | string): Promise<T[]> => {
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
async function withoutTimeout<T>(target: DatabaseTarget, appDb: Db, fn: (db: Db) => Promise<T>): Promise<T> {
  if (target.kind !== 'postgres') return fn(appDb);
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    return await fn(drizzlePg({ client, schema }));
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
  const [schemaHas] = await rowsOf<{ category: boolean }>(
    db,
    `select exists (select 1 from information_schema.columns where table_schema = 'public' and table_name = 'tickets' and column_name = 'category') as category`,
  );
  await step(db, `${TICKETS} tickets`, [ticketsSql(schemaHas?.category === true)], superuser);
  await step(db, 'service levels', slaSql(), superuser);
  // The load runs as a replica when it can, which skips the counting triggers: count once here.
  const counters = await countersSql(db);
  await step(db, 'ticket counts', counters.tickets, superuser);
  if (counters.words.length > 0) await step(db, 'ticket words', counters.words, superuser);
  await step(db, `${COMMENTS} comments`, [commentsSql()], superuser);
  const { comments: commentCounters } = await countersSql(db);
  if (commentCounters.length > 0) {
    await step(db, 'comment counters', commentCounters, superuser);
    // The counter update rewrote every ticket row: compact the table while its indexes are dropped.
    await phase('vacuum full tickets', () => db.execute(sql.raw('vacuum full tickets')));
  }
  await step(db, 'history', [historySql()], superuser);
  // The reports' figures, rebuilt from the rows as the migration that added them does (0037).
  const [reports] = await rowsOf<{ rebuild: boolean }>(
    db,
    `select exists (select 1 from pg_proc where proname = 'report_rebuild') as rebuild`,
  );
  if (reports?.rebuild) await step(db, 'report figures', ['select report_rebuild()'], superuser);
  await step(db, 'notifications', [notificationsSql()], superuser);
  await step(db, 'ticket reads', [readsSql()], superuser);
  await step(db, 'saved views', [viewsSql()], superuser);
  await step(db, `${ARTICLES} articles`, [articlesSql()], superuser);
  await step(
    db,
    'sequences',
    ['users', 'tickets', 'sla_policies'].map(
      (t) => `select setval(pg_get_serial_sequence('${t}', 'id'), (select coalesce(max(id), 1) from ${t}))`,
    ),
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

/**
 * The values triggers keep (skipped by a replica-role load), computed once from the rows, in the form
 * the migrations in this build keep them: the ticket counters by assignee, status, priority and SLA state (with
 * an all-tickets row, agent_id -1, where the counting trigger keeps one), each ticket's words, and the
 * public comment count per ticket where the schema has that column, each ticket's tags as rows and its SLA state as a row.
 */
async function countersSql(db: Db): Promise<{ tickets: string[]; comments: string[]; words: string[] }> {
  const [found] = await rowsOf<{
    comment_count: boolean;
    all_row: boolean;
    sla_state: boolean;
    tag_all_row: boolean;
    words: boolean;
    words_created: boolean;
    tag_rows: boolean;
    category_counts: boolean;
    sla_rows: boolean;
  }>(
    db,
    `select to_regclass('public.ticket_words') is not null as words,
       to_regclass('public.ticket_category_counts') is not null as category_counts,
       to_regclass('public.ticket_tags') is not null as tag_rows,
       to_regclass('public.ticket_sla_states') is not null as sla_rows,
       exists (select 1 from information_schema.columns where table_schema = 'public' and table_name = 'ticket_words' and column_name = 'created_at') as words_created,
       exists (select 1 from information_schema.columns where table_schema = 'public' and table_name = 'tickets' and column_name = 'comment_count') as comment_count,
       exists (select 1 from pg_proc where proname = 'ticket_counts_track' and prosrc like '%(-1)%') as all_row,
       exists (select 1 from pg_proc where proname = 'tag_counts_track' and prosrc like '%(-1)%') as tag_all_row,
       exists (select 1 from information_schema.columns where table_schema = 'public' and table_name = 'ticket_counts' and column_name = 'sla_state') as sla_state`,
  );
  // By SLA state too where the counters keep it (migration 0021).
  const counts = (agent: string) =>
    found?.sla_state
      ? `insert into ticket_counts (agent_id, status, priority, sla_state, n)
         select ${agent}, status, priority, coalesce(sla_state, ''), count(*)::int from tickets group by 1, 2, 3, 4`
      : `insert into ticket_counts (agent_id, status, priority, n) select ${agent}, status, priority, count(*)::int from tickets group by 1, 2, 3`;
  // Tags: the totals, and the counts by assignee (0 unassigned), status and priority (migration 0014).
  const tagCounts = [
    'delete from tag_counts',
    'delete from ticket_tag_counts',
    'insert into tag_counts (tag, n) select t, count(*)::int from tickets, unnest(tags) t group by 1',
    `insert into ticket_tag_counts (tag, agent_id, status, priority, n)
     select t, coalesce(assigned_agent_id, 0), status, priority, count(*)::int from tickets, unnest(tags) t group by 1, 2, 3, 4`,
    // The every-ticket rows (-1), where the tag trigger keeps them (migration 0026).
    ...(found?.tag_all_row
      ? [
          `insert into ticket_tag_counts (tag, agent_id, status, priority, n)
           select tag, -1, status, priority, sum(n)::int from ticket_tag_counts group by 1, 3, 4`,
        ]
      : []),
    // Each ticket's tags in creation order, where the schema keeps them (migration 0031).
    ...(found?.tag_rows
      ? [
          'delete from ticket_tags',
          `insert into ticket_tags (tag, created_at, ticket_id, status, priority, agent_id)
           select t, created_at, id, status, priority, coalesce(assigned_agent_id, 0) from tickets, unnest(tags) t`,
        ]
      : []),
  ];
  // By category too, every ticket's rows (-1) included, where the schema keeps them (migration 0036).
  const categoryCounts = found?.category_counts
    ? [
        'delete from ticket_category_counts',
        `insert into ticket_category_counts (category, agent_id, status, priority, sla_state, n)
         select category, v.agent_id, status, priority, coalesce(sla_state, ''), count(*)::int
         from tickets, lateral (values (coalesce(assigned_agent_id, 0)), (-1)) v(agent_id) group by 1, 2, 3, 4, 5`,
      ]
    : [];
  // Each ticket's SLA state as a row of its own, where the schema keeps them (migration 0040).
  const slaRows = found?.sla_rows
    ? [
        'delete from ticket_sla_states',
        `insert into ticket_sla_states (ticket_id, state, created_at, due_at, next_mark_at, status, priority, agent_id)
         select id, sla_state, created_at, sla_due_at, sla_next_mark_at, status, priority, coalesce(assigned_agent_id, 0)
         from tickets where sla_state is not null`,
      ]
    : [];
  return {
    tickets: [
      'delete from ticket_counts',
      counts('coalesce(assigned_agent_id, 0)'),
      ...(found?.all_row ? [counts('-1')] : []),
      ...categoryCounts,
      ...tagCounts,
      ...slaRows,
    ],
    // Each ticket's words, where the schema keeps them (migration 0029).
    words: found?.words
      ? [
          'delete from ticket_words',
          'delete from ticket_vocabulary',
          'insert into ticket_vocabulary (word) select distinct w from tickets, unnest(tsvector_to_array(search_words)) w',
          // With each ticket's creation time where the rows carry it (migration 0030).
          `insert into ticket_words (word, status, priority, agent_id, ticket_id${found.words_created ? ', created_at' : ''})
           select w, status, priority, coalesce(assigned_agent_id, 0), id${found.words_created ? ', created_at' : ''}
           from tickets, unnest(tsvector_to_array(search_words)) w`,
        ]
      : [],
    comments: found?.comment_count
      ? [
          `update tickets t set comment_count = c.n
           from (select ticket_id, count(*)::int as n from ticket_comments where not internal group by 1) c where c.ticket_id = t.id`,
        ]
      : [],
  };
}

export interface DatasetFacts {
  /** The tickets with the longest threads, longest first. */
  heavy: { id: number; comments: number }[];
  /** One ticket of each requester the questions are asked by (none for one who has none). */
  ownTicket: Map<number, number>;
  /** Tickets of the busiest and the quietest asking agent, and of the heaviest and a typical requester. */
  busiestAgent: { id: number; assigned: number };
  heaviestRequester: { id: number; tickets: number };
  /** Tickets the writer changes (not closed, so an agent may change their priority) and their priority now. */
  writable: { id: number; priority: string }[];
  sizes: string;
}

async function facts(db: Db): Promise<DatasetFacts> {
  const one = async (query: string) => Number(Object.values((await rowsOf<Record<string, unknown>>(db, query))[0] ?? {})[0] ?? 0);
  const heavy = [];
  for (const h of heavyTickets())
    heavy.push({ id: h.id, comments: await one(`select count(*) from ticket_comments where ticket_id = ${h.id}`) });
  heavy.sort((a, b) => b.comments - a.comments);
  const own = await rowsOf<{ user_id: number; id: number }>(
    db,
    `select distinct on (user_id) user_id, id from tickets where user_id in (${USER_IDS.join(', ')}) order by user_id, created_at desc`,
  );
  const size = async (t: string) => {
    const [row] = await rowsOf<{ rows: string; size: string }>(
      db,
      `select (select count(*) from ${t})::text as rows, pg_size_pretty(pg_total_relation_size('${t}')) as size`,
    );
    return `${t} ${Number(row!.rows).toLocaleString('en-US')} rows, ${row!.size}`;
  };
  const sizes = [];
  for (const t of SEEDED_TABLES) sizes.push(await size(t));
  const busiest = AGENT_IDS[0]!;
  const heaviest = USER_IDS[0]!;
  return {
    heavy,
    ownTicket: new Map(own.map((r) => [r.user_id, r.id])),
    busiestAgent: { id: busiest, assigned: await one(`select count(*) from tickets where assigned_agent_id = ${busiest}`) },
    heaviestRequester: { id: heaviest, tickets: await one(`select count(*) from tickets where user_id = ${heaviest}`) },
    writable: await rowsOf<{ id: number; priority: string }>(
      db,
      `select id, priority::text as priority from tickets where status <> 'closed' order by random() limit 2000`,
    ),
    sizes: `${sizes.join('; ')}; database ${(await rowsOf<{ s: string }>(db, `select pg_size_pretty(pg_database_size(current_database())) as s`))[0]!.s}`,
  };
}

/** Migrations (always: ones added since a kept data set was built apply to it too), then reuse or build. */
export async function prepare(place: Place): Promise<{ facts: DatasetFacts; built: boolean; version: string }> {
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
      await withoutTimeout(place.target, database.db, seed);
    }
    const found = await phase('data set facts', () => withoutTimeout(place.target, database!.db, facts));
    if (WARM) {
      // A server without pg_prewarm (or the right to add it) is measured as its cache stands, and says so.
      const warmed = await phase('read the data set into the OS cache', () => place.warm()).then(
        (bytes) => `read ${(bytes / 2 ** 30).toFixed(1)} GB of the data set into the OS cache (BENCH_WARM=0: measured cold)`,
        (error: unknown) => `! could not read the data set into the OS cache (${String(error)}): measured as the cache stands`,
      );
      console.log(warmed);
    }
    const [version] = await rowsOf<{ v: string }>(database!.db, `select current_setting('server_version') as v`);
    return { facts: found, built: !reuse, version: version!.v };
  } finally {
    await database?.close();
  }
}
