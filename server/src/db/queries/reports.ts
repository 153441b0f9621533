import { CATEGORIES, PRIORITIES } from '@helpdesk/protocol';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.js';
import { executedRows } from '../rows.js';

/**
 * One grouping set of the report tables (migration 0037): assignee -1 = all, 0 = unassigned;
 * priority and category '' = all. `by` reads each value of one key instead of its "all" row:
 * every priority, every category, or every agent (assignee > 0).
 */
export interface ReportGroup {
  assigneeId: number;
  priority: string;
  category: string;
  by?: 'assignee' | 'priority' | 'category';
  /** With `by: 'assignee'` and every assignee: the agents with figures (reportAssignees). */
  assignees?: number[];
}

/** The counts one point (and key, with `by`) sums to. */
export interface Totals {
  created: number;
  resolved: number;
  reopened: number;
  assigned: number;
  firstResponses: number;
  resolutions: number;
  slaResponseMet: number;
  slaResponseMissed: number;
  slaResolutionMet: number;
  slaResolutionMissed: number;
  csatGood: number;
  csatNeutral: number;
  csatBad: number;
}

/** report_totals' counters, in the order their slots take (figureStretches). */
export const TOTAL_COUNTERS: readonly [keyof Totals, string][] = [
  ['created', 'created'],
  ['resolved', 'resolved'],
  ['reopened', 'reopened'],
  ['assigned', 'assigned'],
  ['firstResponses', 'first_responses'],
  ['resolutions', 'resolutions'],
  ['slaResponseMet', 'sla_response_met'],
  ['slaResponseMissed', 'sla_response_missed'],
  ['slaResolutionMet', 'sla_resolution_met'],
  ['slaResolutionMissed', 'sla_resolution_missed'],
  ['csatGood', 'csat_good'],
  ['csatNeutral', 'csat_neutral'],
  ['csatBad', 'csat_bad'],
];

const arrayLiteral = (values: (string | number)[]) => `{${values.map((v) => (typeof v === 'number' ? v : `"${v}"`)).join(',')}}`;

/**
 * The grouping set's condition on table `r`, and the key it groups by ('' without `by`). An assignee
 * (or every agent, `by: 'assignee'`) beside a priority or category has no set of its own
 * (reports/figureRows.ts#groupingSets): it reads that person's finest rows, few per hour.
 */
function groupOf({ assigneeId, priority, category, by, assignees = [] }: ReportGroup): { where: SQL; key: SQL } {
  const person = by === 'assignee' || assigneeId !== -1;
  const finest = person && (priority !== '' || category !== '' || by === 'priority' || by === 'category');
  // Every agent as a list too: `assignee_id > 0` walked every agent's rows, finest ones included, per segment.
  const assignee =
    by === 'assignee' && assigneeId === -1
      ? sql`r.assignee_id = any(${arrayLiteral(assignees)}::int[])`
      : sql`r.assignee_id = ${assigneeId}`;
  // Every value as a list, not `<> ''`: the key's later columns (span, at) then bound each value's
  // index range, where `<> ''` walked the person's whole subtree once per segment.
  const text = (column: 'priority' | 'category', value: string) =>
    value === '' && (by === column || finest)
      ? sql`${sql.raw(`r.${column}`)} = any(${arrayLiteral(column === 'priority' ? [...PRIORITIES] : [...CATEGORIES])}::text[])`
      : sql`${sql.raw(`r.${column}`)} = ${value}`;
  const key = by === undefined ? sql`''` : by === 'assignee' ? sql`r.assignee_id::text` : sql.raw(`r.${by}`);
  return { where: sql`${assignee} and ${text('priority', priority)} and ${text('category', category)}`, key };
}

/** A stretch of report rows of one span: `at` in [lo, hi). */
export interface Stretch {
  span: number;
  lo: Date;
  hi: Date;
}
/**
 * A stretch's histogram rows under one key, packed as int32 pairs (slot, n) in the order of their
 * slots: slot = hour in the stretch (0 but for hour rows) * `slots` + kind * `buckets` + bucket.
 * Packed by the database, since a year's rows as row objects took longer to parse than to read.
 */
export interface StretchFigures {
  stretch: number;
  key: string;
  /** (slot, n) pairs: the slot packs the hour within the stretch and what is counted (FigureLayout). */
  pairs: Int32Array;
}

/**
 * How a stretch's figures are packed: slot = hour × `slots` + kind × `buckets` + bucket, a
 * histogram's buckets under its kind (1 and up) and the totals' counters under kind 0, bucket =
 * the counter's place in TOTAL_COUNTERS.
 */
export interface FigureLayout {
  slots: number;
  buckets: number;
}

/**
 * The figures of each stretch under `group`, report_durations' histogram rows and report_totals'
 * counters (those not zero), each stretch read off the primary keys' ranges by a lateral subquery,
 * with the generation the same snapshot holds (reports/figureCache.ts): a rebuild, or a change that
 * moves a count of an hour long past, moves it.
 */
export async function figureStretches(
  db: Db,
  group: ReportGroup,
  stretches: Stretch[],
  layout: FigureLayout,
): Promise<{ generation: number; figures: StretchFigures[] }> {
  const { where, key } = groupOf(group);
  const spans = arrayLiteral(stretches.map((s) => s.span));
  const los = arrayLiteral(stretches.map((s) => s.lo.toISOString()));
  const his = arrayLiteral(stretches.map((s) => s.hi.toISOString()));
  const hour = sql`extract(epoch from r.at - u.lo)::int / 3600 * ${layout.slots}::int`;
  const slot = sql`(${hour} + r.kind * ${layout.buckets}::int + r.bucket)::int`;
  const counters = sql.raw(`array[${TOTAL_COUNTERS.map(([, column]) => `r.${column}`).join(', ')}]`);
  const inStretch = sql`${where} and r.span = u.span and r.at >= u.lo and r.at < u.hi`;
  // The generation comes as a row of its own (stretch null).
  const rows = await executedRows(
    db,
    sql`select null::int as stretch, null::text as key, null::bytea as pairs, generation from report_state
      union all
      select u.i::int, f.key, f.pairs, null
      from unnest(${spans}::smallint[], ${los}::timestamptz[], ${his}::timestamptz[]) with ordinality u(span, lo, hi, i)
      cross join lateral (
        select p.key, string_agg(int4send(p.slot) || int4send(p.n), ''::bytea order by p.slot) as pairs from (
          select ${key} as key, ${slot} as slot, r.n
          from report_durations r where ${inStretch}
          union all
          select ${key}, (${hour} + c.i::int - 1)::int, c.n
          from report_totals r cross join lateral unnest(${counters}) with ordinality c(n, i)
          where ${inStretch} and c.n <> 0
        ) p
        group by 1
      ) f`,
  );
  const state = rows.find((row) => row.stretch === null);
  if (state === undefined) throw new Error('report_state holds no row');
  return {
    generation: state.generation as number,
    figures: rows
      .filter((row) => row !== state)
      .map((row) => ({ stretch: (row.stretch as number) - 1, key: row.key as string, pairs: int32Pairs(row.pairs as Uint8Array) })),
  };
}

/** Big-endian int32s (int4send) as numbers. */
function int32Pairs(bytes: Uint8Array): Int32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = new Int32Array(bytes.byteLength / 4);
  for (let i = 0; i < values.length; i++) values[i] = view.getInt32(i * 4);
  return values;
}

/**
 * The tickets not resolved or closed now and created after the oldest of `ageBounds` (creation times,
 * oldest last), by status and age bucket: the number of bounds they were created at or before. Only
 * the last few weeks of creation hours are read off the key's range; the older ones are what the
 * ticket counters hold beyond them (backlogNow), where reading them all took thousands of rows.
 */
export async function sumRecentBacklog(
  db: Db,
  group: ReportGroup,
  ageBounds: Date[],
): Promise<{ status: string; age: number; n: number }[]> {
  const { where } = groupOf(group);
  const oldest = ageBounds.at(-1);
  if (oldest === undefined) return [];
  const age = sql.join(
    ageBounds.map((bound) => sql`(r.created_hour <= ${bound.toISOString()}::timestamptz)::int`),
    sql` + `,
  );
  const rows = await executedRows(
    db,
    sql`select r.status, ${age} as age, sum(r.n)::int as n
      from report_backlog r where ${where} and r.created_hour > ${oldest.toISOString()}::timestamptz and r.n <> 0
      group by 1, 2`,
  );
  return rows as unknown as { status: string; age: number; n: number }[];
}

/**
 * The tickets not resolved or closed now under the filters, per key with `by` (priority or category)
 * or, with `perStatus`, per status,
 * off the ticket counters kept with every write (ticket_counts, ticket_category_counts; same -1 / 0
 * assignee rows): a few dozen rows, where report_backlog's creation hours are thousands.
 */
export async function backlogNow(
  db: Db,
  { assigneeId, priority, category, by }: ReportGroup,
  perStatus = false,
): Promise<{ key: string; n: number }[]> {
  const byCategory = category !== '' || by === 'category';
  const conditions = [sql`agent_id = ${assigneeId}`, sql`status in ('open', 'in_progress', 'pending')`];
  if (priority !== '') conditions.push(sql`priority = ${priority}`);
  if (category !== '') conditions.push(sql`category = ${category}`);
  const key = perStatus ? sql`status::text` : by === 'priority' ? sql`priority::text` : by === 'category' ? sql`category::text` : sql`''`;
  const rows = await executedRows(
    db,
    sql`select ${key} as key, coalesce(sum(n), 0)::int as n from ${sql.raw(byCategory ? 'ticket_category_counts' : 'ticket_counts')}
      where ${sql.join(conditions, sql` and `)} group by 1`,
  );
  return rows as unknown as { key: string; n: number }[];
}

/**
 * Everyone with figures as an assignee, read off report_totals' key one value at a time (a loose index
 * scan: a few hundred descents where a scan of the key would pass millions of rows).
 */
export async function reportAssignees(db: Db): Promise<number[]> {
  const rows = await executedRows(
    db,
    sql`with recursive a(id) as (
        select min(assignee_id) from report_totals where assignee_id > 0
        union all
        select (select min(r.assignee_id) from report_totals r where r.assignee_id > a.id) from a where a.id is not null
      )
      select id from a where id is not null`,
  );
  return rows.map((row) => row.id as number);
}

/** Staff accounts now (agents and admins not deleted), with the names of any other ids asked for. */
export async function reportAgents(db: Db, otherIds: number[]): Promise<{ id: number; name: string; staff: boolean }[]> {
  const rows = await executedRows(
    db,
    sql`select id, name, (role in ('agent', 'admin') and deleted_at is null) as staff from users
      where (role in ('agent', 'admin') and deleted_at is null) or id = any(${arrayLiteral(otherIds)}::int[])
      order by name, id`,
  );
  return rows as unknown as { id: number; name: string; staff: boolean }[];
}

/** One ticket of the CSV export, with its figures and newest answer. */
export interface CsvTicket {
  cursor: string;
  id: number;
  title: string;
  status: string;
  priority: string;
  category: string;
  requester: string;
  assignee: string | null;
  createdAt: Date;
  firstResponseAt: Date | null;
  resolvedAt: Date | null;
  firstResponseSeconds: number | null;
  resolutionSeconds: number | null;
  slaResponseMet: boolean | null;
  slaResolutionMet: boolean | null;
  csatRating: string | null;
  csatComment: string | null;
}

/**
 * The next batch of tickets created in [lo, hi) under the filters, in creation order after `after`
 * (the last batch's cursor: its creation time as the database writes it, and id), off the tickets'
 * creation-order indexes.
 */
export async function csvTicketBatch(
  db: Db,
  group: ReportGroup,
  range: { lo: Date; hi: Date },
  after: { cursor: string; id: number } | null,
  limit: number,
): Promise<CsvTicket[]> {
  const filters = [
    sql`t.created_at >= ${range.lo.toISOString()}::timestamptz and t.created_at < ${range.hi.toISOString()}::timestamptz`,
    group.assigneeId === -1 ? undefined : sql`coalesce(t.assigned_agent_id, 0) = ${group.assigneeId}`,
    group.priority === '' ? undefined : sql`t.priority = ${group.priority}`,
    group.category === '' ? undefined : sql`t.category = ${group.category}`,
    after === null ? undefined : sql`(t.created_at, t.id) > (${after.cursor}::timestamptz, ${after.id})`,
  ].filter((f): f is SQL => f !== undefined);
  const rows = await executedRows(
    db,
    sql`select t.created_at::text as cursor, t.id, t.title, t.status::text as status, t.priority::text as priority,
        t.category::text as category, u.name as requester, a.name as assignee, t.created_at as "createdAt",
        m.first_response_at as "firstResponseAt", m.resolved_at as "resolvedAt",
        m.first_response_seconds as "firstResponseSeconds", m.resolution_seconds as "resolutionSeconds",
        m.sla_response_met as "slaResponseMet", m.sla_resolution_met as "slaResolutionMet",
        m.csat_rating::text as "csatRating", s.comment as "csatComment"
      from tickets t
      join users u on u.id = t.user_id
      left join users a on a.id = t.assigned_agent_id
      left join ticket_metrics m on m.ticket_id = t.id
      left join lateral (
        select comment from csat_surveys cs where cs.ticket_id = t.id and cs.answered_at is not null order by cs.id desc limit 1
      ) s on true
      where ${sql.join(filters, sql` and `)}
      order by t.created_at, t.id
      limit ${limit}`,
  );
  return rows.map((row) => ({
    ...(row as unknown as CsvTicket),
    createdAt: new Date(row.createdAt as string | Date),
    firstResponseAt: dateOf(row.firstResponseAt),
    resolvedAt: dateOf(row.resolvedAt),
  }));
}

/** A raw statement's timestamp: a Date from node-postgres and PGlite, a string should a driver answer one. */
const dateOf = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string | Date));
