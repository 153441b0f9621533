import type { Priority, SlaState, SlaTarget, TicketSla, TicketStatus } from '@helpdesk/protocol';
import type { BusinessCalendar } from './businessTime.js';
import { deadlinesOf, pauseClock, recordResponse, resumeClock, startClock, type SlaClock } from './clock.js';

/** A policy as a ticket's clock needs it: its targets and the calendar they count in (null: 24/7). */
export interface AppliedPolicy {
  id: number;
  targets: Record<Priority, SlaTarget>;
  warnBeforeMinutes: number;
  calendar: BusinessCalendar | null;
}

/** The SLA columns of a ticket (migration 0016), as the row holds them. */
export interface SlaColumns {
  slaPolicyId: number | null;
  slaUsedMs: number;
  slaRunningSince: Date | null;
  slaFirstRespondedAt: Date | null;
  slaResponseUsedMs: number | null;
  slaResponseDueAt: Date | null;
  slaResolutionDueAt: Date | null;
  slaResponseWarnAt: Date | null;
  slaResolutionWarnAt: Date | null;
  slaResponseWarnedAt: Date | null;
  slaResponseBreachedAt: Date | null;
  slaResolutionWarnedAt: Date | null;
  slaResolutionBreachedAt: Date | null;
  slaNextMarkAt: Date | null;
  slaDueAt: Date | null;
  slaState: SlaState | null;
}

/** What happened to the ticket, besides reaching `status` and `priority`. */
/** A ticket no policy has applied to yet: no time used, no deadline, no mark. */
export const NO_SLA: SlaColumns = {
  slaPolicyId: null,
  slaUsedMs: 0,
  slaRunningSince: null,
  slaFirstRespondedAt: null,
  slaResponseUsedMs: null,
  slaResponseDueAt: null,
  slaResolutionDueAt: null,
  slaResponseWarnAt: null,
  slaResolutionWarnAt: null,
  slaResponseWarnedAt: null,
  slaResponseBreachedAt: null,
  slaResolutionWarnedAt: null,
  slaResolutionBreachedAt: null,
  slaNextMarkAt: null,
  slaDueAt: null,
  slaState: null,
};

export interface SlaHappening {
  /** A new ticket: its clock starts. */
  start?: boolean;
  /** The first public staff reply (later ones change nothing). */
  respond?: boolean;
}

/** Running while the team owes the next step; pending waits on the customer; resolved and closed are done. */
/** Where a ticket's clock stands in this status: only a running clock has open deadlines. */
export const phaseOf = (status: TicketStatus): 'running' | 'pending' | 'done' =>
  status === 'pending' ? 'pending' : status === 'resolved' || status === 'closed' ? 'done' : 'running';

const earliest = (...times: (Date | null)[]): Date | null =>
  times.reduce<Date | null>((min, at) => (at !== null && (min === null || at.getTime() < min.getTime()) ? at : min), null);

const clockOf = (row: SlaColumns): SlaClock => ({
  usedMs: row.slaUsedMs,
  runningSince: row.slaRunningSince,
  firstRespondedAt: row.slaFirstRespondedAt,
  responseUsedMs: row.slaResponseUsedMs,
});

/**
 * The state staff see, from the stored marks alone (never from the clock on the wall), so the list's
 * `sla=` filter, its index and every copy of the ticket agree until the scanner marks the next step.
 * The scanner's SQL (db/queries/slaTickets.ts) spells the same rule.
 */
export function slaStateOf(row: Omit<SlaColumns, 'slaState' | 'slaNextMarkAt' | 'slaDueAt'>, status: TicketStatus): SlaState | null {
  if (row.slaPolicyId === null) return null;
  if (row.slaResponseBreachedAt !== null || row.slaResolutionBreachedAt !== null) return 'breached';
  const phase = phaseOf(status);
  if (phase === 'done') return 'met';
  if (phase === 'pending') return 'paused';
  const warned = (row.slaResponseWarnedAt !== null && row.slaFirstRespondedAt === null) || row.slaResolutionWarnedAt !== null;
  return warned ? 'warning' : 'ok';
}

/**
 * A ticket's SLA columns after a change: the clock follows the status (running, paused while pending,
 * stopped once resolved or closed; a reopen runs on from the time used), the first public staff reply
 * is recorded, and the deadlines are derived again from the policy and the priority the ticket now has.
 *
 * A stopped or met clock has no deadline left, except one that already passed: it is kept so the
 * scanner still marks the breach that happened before the stop (the scanner alone marks). A warning
 * mark is cleared when its deadline moved later than now (a re-target); a breach stays a breach.
 * A policy with no target for the priority keeps timing the clock but gives no state (`sla` null).
 */
export function nextSlaColumns(
  row: SlaColumns,
  ticket: { status: TicketStatus; priority: Priority },
  policy: AppliedPolicy | null,
  happening: SlaHappening,
  now: Date,
): SlaColumns {
  const calendar = policy?.calendar ?? null;
  let clock = happening.start ? startClock(now) : clockOf(row);
  if (happening.respond) clock = recordResponse(clock, now, calendar);
  clock = phaseOf(ticket.status) === 'running' ? resumeClock(clock, now) : pauseClock(clock, now, calendar);
  const stored = {
    slaUsedMs: Math.round(clock.usedMs),
    slaRunningSince: clock.runningSince,
    slaFirstRespondedAt: clock.firstRespondedAt,
    slaResponseUsedMs: clock.responseUsedMs === null ? null : Math.round(clock.responseUsedMs),
  };
  if (policy === null) return { ...NO_SLA, ...stored };
  const target = policy.targets[ticket.priority];
  const targets = { ...target, warnBeforeMinutes: policy.warnBeforeMinutes };
  const computed = deadlinesOf(clock, targets, calendar);
  const passed = (at: Date | null) => (at !== null && at.getTime() <= now.getTime() ? at : null);
  // Only a target the policy still has keeps a passed deadline; no warning at all with warnBeforeMinutes 0.
  const keep = (next: Date | null, old: Date | null, minutes: number | null, warning = false) => {
    if (minutes === null || (warning && policy.warnBeforeMinutes === 0)) return null;
    return next ?? passed(old);
  };
  const responseDue = keep(computed.firstResponseDueAt, row.slaResponseDueAt, target.firstResponseMinutes);
  const resolutionDue = keep(computed.resolutionDueAt, row.slaResolutionDueAt, target.resolutionMinutes);
  const responseWarn = keep(computed.firstResponseWarnAt, row.slaResponseWarnAt, target.firstResponseMinutes, true);
  const resolutionWarn = keep(computed.resolutionWarnAt, row.slaResolutionWarnAt, target.resolutionMinutes, true);
  const stillWarned = (mark: Date | null, warnAt: Date | null) =>
    mark !== null && warnAt !== null && warnAt.getTime() <= now.getTime() ? mark : null;
  const marks = {
    slaResponseWarnedAt: stillWarned(row.slaResponseWarnedAt, responseWarn),
    slaResolutionWarnedAt: stillWarned(row.slaResolutionWarnedAt, resolutionWarn),
    slaResponseBreachedAt: row.slaResponseBreachedAt,
    slaResolutionBreachedAt: row.slaResolutionBreachedAt,
  };
  const columns = {
    ...stored,
    ...marks,
    slaPolicyId: policy.id,
    slaResponseDueAt: responseDue,
    slaResolutionDueAt: resolutionDue,
    slaResponseWarnAt: responseWarn,
    slaResolutionWarnAt: resolutionWarn,
  };
  // No target for this priority and no breach from an earlier one: nothing to meet, so no service level.
  const targeted = target.firstResponseMinutes !== null || target.resolutionMinutes !== null;
  const breached = marks.slaResponseBreachedAt !== null || marks.slaResolutionBreachedAt !== null;
  return {
    ...columns,
    slaNextMarkAt: earliest(
      marks.slaResponseWarnedAt === null ? responseWarn : null,
      marks.slaResolutionWarnedAt === null ? resolutionWarn : null,
      marks.slaResponseBreachedAt === null ? responseDue : null,
      marks.slaResolutionBreachedAt === null ? resolutionDue : null,
    ),
    // What sort=slaDueAt orders by: the running clock's open deadlines only.
    slaDueAt: clock.runningSince ? earliest(computed.firstResponseDueAt, computed.resolutionDueAt) : null,
    slaState: targeted || breached ? slaStateOf(columns, ticket.status) : null,
  };
}

/** The SLA columns of a row, picked out of it. */
export const slaColumnsOf = (row: SlaColumns): SlaColumns => ({
  slaPolicyId: row.slaPolicyId,
  slaUsedMs: row.slaUsedMs,
  slaRunningSince: row.slaRunningSince,
  slaFirstRespondedAt: row.slaFirstRespondedAt,
  slaResponseUsedMs: row.slaResponseUsedMs,
  slaResponseDueAt: row.slaResponseDueAt,
  slaResolutionDueAt: row.slaResolutionDueAt,
  slaResponseWarnAt: row.slaResponseWarnAt,
  slaResolutionWarnAt: row.slaResolutionWarnAt,
  slaResponseWarnedAt: row.slaResponseWarnedAt,
  slaResponseBreachedAt: row.slaResponseBreachedAt,
  slaResolutionWarnedAt: row.slaResolutionWarnedAt,
  slaResolutionBreachedAt: row.slaResolutionBreachedAt,
  slaNextMarkAt: row.slaNextMarkAt,
  slaDueAt: row.slaDueAt,
  slaState: row.slaState,
});

/** `Ticket.sla` as staff receive it; null when no policy covers the ticket, or its policy sets no target for it. */
export function presentSla(
  row: Pick<SlaColumns, 'slaPolicyId' | 'slaResponseDueAt' | 'slaResolutionDueAt' | 'slaFirstRespondedAt' | 'slaState'>,
): TicketSla | null {
  if (row.slaPolicyId === null || row.slaState === null) return null;
  return {
    policyId: row.slaPolicyId,
    firstResponseDueAt: row.slaResponseDueAt?.toISOString() ?? null,
    resolutionDueAt: row.slaResolutionDueAt?.toISOString() ?? null,
    firstRespondedAt: row.slaFirstRespondedAt?.toISOString() ?? null,
    state: row.slaState,
  };
}
