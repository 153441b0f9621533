import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import { ACTIVE_STATUSES, type SlaState, type TicketStatus } from '@helpdesk/protocol';
import type { AppliedPolicy, SlaColumns } from '../../sla/ticketSla.js';
import type { Db } from '../client.js';
import { executedRows } from '../rows.js';
import { livePolicies } from './sla.js';
import { slaCalendars, slaPolicies, tickets, ticketSlaStates, users } from '../schema/index.js';

/** A policy with what choosing it needs (order, domains, active) and what its clock needs. */
export type LoadedPolicy = AppliedPolicy & { position: number; requesterDomains: string[]; active: boolean };

/**
 * Every policy with its calendar: at most LIMITS.sla.policies rows, read when a ticket's clock changes.
 * A deleted one is not among them: a ticket it timed runs under none if its clock moves again.
 */
export async function loadPolicies(db: Db): Promise<LoadedPolicy[]> {
  const rows = await db
    .select({ policy: slaPolicies, calendar: slaCalendars })
    .from(slaPolicies)
    .leftJoin(slaCalendars, eq(slaCalendars.id, slaPolicies.calendarId))
    .where(livePolicies)
    .orderBy(asc(slaPolicies.position), asc(slaPolicies.id));
  return rows.map(({ policy, calendar }) => ({
    id: policy.id,
    position: policy.position,
    requesterDomains: policy.requesterDomains,
    active: policy.active,
    targets: policy.targets,
    warnBeforeMinutes: policy.warnBeforeMinutes,
    calendar: calendar && { timeZone: calendar.timeZone, hours: calendar.hours, holidays: calendar.holidays },
  }));
}

/** The owners' email addresses, which choose a ticket's policy by domain. */
export async function ownerEmails(db: Db, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.id, [...new Set(userIds)]));
  return new Map(rows.map((row) => [row.id, row.email]));
}

const COLUMN_TYPES: Record<keyof SlaColumns, string> = {
  slaPolicyId: 'integer',
  slaUsedMs: 'bigint',
  slaRunningSince: 'timestamptz',
  slaFirstRespondedAt: 'timestamptz',
  slaResponseUsedMs: 'bigint',
  slaResponseDueAt: 'timestamptz',
  slaResolutionDueAt: 'timestamptz',
  slaResponseWarnAt: 'timestamptz',
  slaResolutionWarnAt: 'timestamptz',
  slaResponseWarnedAt: 'timestamptz',
  slaResponseBreachedAt: 'timestamptz',
  slaResolutionWarnedAt: 'timestamptz',
  slaResolutionBreachedAt: 'timestamptz',
  slaNextMarkAt: 'timestamptz',
  slaDueAt: 'timestamptz',
  slaState: 'text',
};
const COLUMNS = Object.keys(COLUMN_TYPES) as (keyof SlaColumns)[];
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Writes the SLA columns of many tickets in one statement (a bulk change, a re-applied policy, a first
 * reply). Not a change of the ticket as its owner knows it: the version stays.
 */
export async function writeSlaColumns(db: Db, entries: { id: number; columns: SlaColumns }[]): Promise<void> {
  if (entries.length === 0) return;
  const records = entries.map(({ id, columns }) => {
    const record: Record<string, string | number | null> = { id };
    for (const name of COLUMNS) {
      const value = columns[name];
      record[snake(name)] = value instanceof Date ? value.toISOString() : value;
    }
    return record;
  });
  const definition = ['id integer', ...COLUMNS.map((name) => `${snake(name)} ${COLUMN_TYPES[name]}`)].join(', ');
  const assignments = COLUMNS.map((name) => `${snake(name)} = v.${snake(name)}`).join(', ');
  await db.execute(
    sql`update ${tickets} set ${sql.raw(assignments)} from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as v(${sql.raw(definition)}) where ${tickets.id} = v.id`,
  );
}

/** The next tickets still being worked, in id order after `afterId`: what a policy re-applies to. */
export function activeTicketsAfter(db: Db, afterId: number, limit: number) {
  return (
    db
      .select({ ticket: tickets, email: users.email })
      .from(tickets)
      .innerJoin(users, eq(users.id, tickets.userId))
      .where(and(gt(tickets.id, afterId), inArray(tickets.status, [...ACTIVE_STATUSES])))
      .orderBy(asc(tickets.id))
      .limit(limit)
      // Held until the batch's transaction ends: a status change racing the re-apply waits, never lost.
      .for('update', { of: tickets })
  );
}

/** Admins who can be notified: who hears of a deadline on an unassigned ticket. */
export const activeAdminIds = (db: Db) =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), isNull(users.deletedAt)))
    .then((rows) => rows.map((row) => row.id));

/** One ticket the scanner claimed: which marks came due on it, and what announcing them needs. */
export interface DueTicket {
  id: number;
  userId: number;
  ownerName: string;
  assignedAgentId: number | null;
  title: string;
  status: TicketStatus;
  responseWarned: boolean;
  responseBreached: boolean;
  resolutionWarned: boolean;
  resolutionBreached: boolean;
  slaFirstRespondedAt: Date | null;
}

/** A claimed ticket once marked: its version and clock as they are now. */
export interface MarkedTicket {
  id: number;
  version: number;
  slaPolicyId: number | null;
  slaResponseDueAt: Date | null;
  slaResolutionDueAt: Date | null;
  slaFirstRespondedAt: Date | null;
  slaState: SlaState | null;
}

const dateOf = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

/**
 * Whether any mark is due by `now`: asked before a pass opens a transaction, so an idle pass writes
 * nothing (its UPDATE, reporting no row only through a WITH, would count as a write to tickets).
 */
export async function anyMarkDue(db: Db, now: Date): Promise<boolean> {
  const rows = await db.select({ id: ticketSlaStates.ticketId }).from(ticketSlaStates).where(lte(ticketSlaStates.nextMarkAt, now)).limit(1);
  return rows.length > 0;
}

/** Which of a ticket's four marks (response warning and breach, resolution's) are due by `at` and unmade. */
const dueMarks = (at: string) => sql`
  (t.sla_response_warned_at is null and t.sla_response_warn_at <= ${at}::timestamptz) as rw,
  (t.sla_response_breached_at is null and t.sla_response_due_at <= ${at}::timestamptz) as rb,
  (t.sla_resolution_warned_at is null and t.sla_resolution_warn_at <= ${at}::timestamptz) as sw,
  (t.sla_resolution_breached_at is null and t.sla_resolution_due_at <= ${at}::timestamptz) as sb`;

/**
 * The scanner's claim: up to `limit` tickets with a warning or deadline due by `now`, found off
 * ticket_sla_states' next-mark index and locked there and in tickets until the transaction ends
 * (rows another scan or a writer holds are skipped, so two workers never claim the same ticket, and
 * a writer, which locks a ticket and then its SLA row, never deadlocks with a scan, which locks them
 * the other way round). The ticket is held as its marking UPDATE will hold it (`no key update`):
 * against every writer, not against a new row naming it, whose key check (a comment, a read mark as a
 * detail is opened) would otherwise wait for the batch. The limit is taken among the SLA rows alone,
 * before tickets are joined: the next mark's statistics rarely know how many are due (a pass marks
 * them all and they are due again hours later), and on an estimate of a few hundred the planner
 * joined every due ticket, sorted them and kept `limit`: each batch read all those left, 82 ms for a
 * batch of 500 of 10,000 at a million tickets against 8 ms this way.
 */
export async function claimDueTickets(db: Db, now: Date, limit: number): Promise<DueTicket[]> {
  const at = now.toISOString();
  // The SLA rows are read in the next mark's order, stopping at the limit. On the same stale estimate
  // the planner read every due row through a bitmap and sorted them all, each batch: 11 ms of the
  // claim with 8,000 due at a million tickets against 3.5 ms in index order, and a pass over n due
  // rows read about n²/(2 · limit) of them. For this statement only (a SET LOCAL lasts the transaction).
  await db.execute(sql`set local enable_bitmapscan = off`);
  const rows = await executedRows(
    db,
    sql`
    with due as materialized (
      select s.ticket_id from ticket_sla_states s
      where s.next_mark_at <= ${at}::timestamptz
      order by s.next_mark_at
      limit ${limit}
      for update skip locked
    )
    select t.id, t.user_id, t.assigned_agent_id, t.title, t.status, t.sla_first_responded_at, ${dueMarks(at)},
      (select u.name from users u where u.id = t.user_id) as owner_name
    from due
    join tickets t on t.id = due.ticket_id
    for no key update of t skip locked
  `,
  );
  await db.execute(sql`set local enable_bitmapscan to default`);
  return rows.map((row) => ({
    id: Number(row.id),
    userId: Number(row.user_id),
    ownerName: typeof row.owner_name === 'string' ? row.owner_name : '',
    assignedAgentId: row.assigned_agent_id === null ? null : Number(row.assigned_agent_id),
    title: String(row.title),
    status: row.status as TicketStatus,
    responseWarned: row.rw === true,
    responseBreached: row.rb === true,
    resolutionWarned: row.sw === true,
    resolutionBreached: row.sb === true,
    slaFirstRespondedAt: dateOf(row.sla_first_responded_at),
  }));
}

/**
 * Makes the due marks on claimed tickets, their next mark and their state, in one UPDATE. The tickets
 * are held since the claim, so the marks due are the ones it found. The counters' trigger on tickets
 * locks the shared count rows until the commit, which is why this is the batch's last statement: a
 * second worker's batch waits on those rows only for what follows it, not for the timeline's and the
 * notices' inserts (bench:sla). It names no indexed column of tickets, so on a page with room it adds
 * no index entry (HOT); the triggers write ticket_sla_states. The state rule is sla/ticketSla.ts's
 * slaStateOf.
 */
export async function markClaimedTickets(db: Db, now: Date, ids: number[]): Promise<MarkedTicket[]> {
  if (ids.length === 0) return [];
  const at = now.toISOString();
  const rows = await executedRows(
    db,
    sql`
    with due as (
      select t.id, ${dueMarks(at)} from tickets t where t.id = any(${`{${ids.join(',')}}`}::int[])
    )
    update tickets t set
      sla_response_warned_at = case when due.rw then ${at}::timestamptz else t.sla_response_warned_at end,
      sla_response_breached_at = case when due.rb then ${at}::timestamptz else t.sla_response_breached_at end,
      sla_resolution_warned_at = case when due.sw then ${at}::timestamptz else t.sla_resolution_warned_at end,
      sla_resolution_breached_at = case when due.sb then ${at}::timestamptz else t.sla_resolution_breached_at end,
      sla_next_mark_at = least(
        case when not due.rw and t.sla_response_warned_at is null then t.sla_response_warn_at end,
        case when not due.sw and t.sla_resolution_warned_at is null then t.sla_resolution_warn_at end,
        case when not due.rb and t.sla_response_breached_at is null then t.sla_response_due_at end,
        case when not due.sb and t.sla_resolution_breached_at is null then t.sla_resolution_due_at end
      ),
      sla_state = case
        when t.sla_policy_id is null then null
        when due.rb or due.sb or t.sla_response_breached_at is not null or t.sla_resolution_breached_at is not null then 'breached'
        when t.status in ('resolved', 'closed') then 'met'
        when t.status = 'pending' then 'paused'
        when ((due.rw or t.sla_response_warned_at is not null) and t.sla_first_responded_at is null)
          or due.sw or t.sla_resolution_warned_at is not null then 'warning'
        else 'ok'
      end
    from due
    where t.id = due.id
    returning t.id, t.version, t.sla_policy_id, t.sla_response_due_at, t.sla_resolution_due_at, t.sla_first_responded_at, t.sla_state
  `,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    version: Number(row.version),
    slaPolicyId: row.sla_policy_id === null ? null : Number(row.sla_policy_id),
    slaResponseDueAt: dateOf(row.sla_response_due_at),
    slaResolutionDueAt: dateOf(row.sla_resolution_due_at),
    slaFirstRespondedAt: dateOf(row.sla_first_responded_at),
    slaState: (row.sla_state ?? null) as SlaState | null,
  }));
}

export interface NewSlaEntry {
  ticketId: number;
  actorId: number;
  from: string;
  to: string;
}

/** The scanner's timeline entries in one insert (arrays, not one parameter per value), staff only. */
export async function insertSlaHistory(
  db: Db,
  entries: NewSlaEntry[],
): Promise<{ id: number; ticketId: number; from: string; to: string; createdAt: Date }[]> {
  if (entries.length === 0) return [];
  // One JSON parameter, however many entries: a parameter per value would pass PostgreSQL's limit.
  const records = entries.map((e) => ({ ticket_id: e.ticketId, from_value: e.from, to_value: e.to, actor_id: e.actorId }));
  const rows = await executedRows(
    db,
    sql`
    insert into ticket_history (ticket_id, type, from_value, to_value, actor_id, internal)
    select e.ticket_id, 'sla', e.from_value, e.to_value, e.actor_id, true
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as e(ticket_id integer, from_value text, to_value text, actor_id integer)
    returning id, ticket_id, from_value, to_value, created_at
  `,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    ticketId: Number(row.ticket_id),
    from: String(row.from_value),
    to: String(row.to_value),
    createdAt: new Date(row.created_at as string),
  }));
}

export interface NewSlaNotification {
  /** Null: every admin's, stored once. */
  userId: number | null;
  type: 'sla_warning' | 'sla_breached';
  ticketId: number;
  byId: number;
  excerpt: string;
}

/** The scanner's notifications in one insert. */
export async function insertSlaNotifications(
  db: Db,
  entries: NewSlaNotification[],
): Promise<
  {
    id: number;
    userId: number | null;
    ticketId: number;
    type: 'sla_warning' | 'sla_breached';
    byId: number;
    excerpt: string;
    createdAt: Date;
  }[]
> {
  if (entries.length === 0) return [];
  const records = entries.map((e) => ({ user_id: e.userId, type: e.type, ticket_id: e.ticketId, by_id: e.byId, excerpt: e.excerpt }));
  const rows = await executedRows(
    db,
    sql`
    insert into notifications (user_id, type, ticket_id, by_id, excerpt)
    select e.user_id, e.type::notification_type, e.ticket_id, e.by_id, e.excerpt
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as e(user_id integer, type text, ticket_id integer, by_id integer, excerpt text)
    returning id, user_id, ticket_id, type, by_id, excerpt, created_at
  `,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    userId: row.user_id === null ? null : Number(row.user_id),
    ticketId: Number(row.ticket_id),
    type: row.type as 'sla_warning' | 'sla_breached',
    byId: Number(row.by_id),
    excerpt: String(row.excerpt),
    createdAt: new Date(row.created_at as string),
  }));
}
