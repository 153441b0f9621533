import { BACKLOG_STATUSES, type CsatRating, type TicketStatus } from '@helpdesk/protocol';
import type { ticketMetrics } from '../db/schema/index.js';
import { durationBucket } from './durationBuckets.js';

/** What the report tables hold for one ticket (migration 0037). */
export type MetricsRow = typeof ticketMetrics.$inferSelect;

/** The keys a figure is counted under: assignee 0 = unassigned. */
export interface FigureKeys {
  assigneeId: number;
  priority: string;
  category: string;
}

/** The counters of report_totals, as drizzle names them. */
export type TotalCounter =
  | 'created'
  | 'resolved'
  | 'reopened'
  | 'assigned'
  | 'firstResponses'
  | 'resolutions'
  | 'slaResponseMet'
  | 'slaResponseMissed'
  | 'slaResolutionMet'
  | 'slaResolutionMissed'
  | 'csatGood'
  | 'csatNeutral'
  | 'csatBad';

export const DURATION_KIND = { firstResponse: 1, resolution: 2 } as const;

export interface TotalDelta {
  keys: FigureKeys;
  at: Date;
  counter: TotalCounter;
  delta: number;
}
export interface DurationDelta {
  keys: FigureKeys;
  at: Date;
  kind: number;
  bucket: number;
  delta: number;
}
export interface BacklogDelta {
  keys: FigureKeys;
  createdAt: Date;
  status: string;
  delta: number;
}
export interface FigureDeltas {
  totals: TotalDelta[];
  durations: DurationDelta[];
  backlog: BacklogDelta[];
}

/** A ticket as it is after the change, with what the database worked out for it (db/queries/reportFigures.ts). */
export interface TicketFigures {
  id: number;
  createdAt: Date;
  status: TicketStatus;
  priority: string;
  category: string;
  assigneeId: number;
  underPolicy: boolean;
  /** Whether its policy sets a first-response and a resolution target for its priority. */
  responseTarget: boolean;
  resolutionTarget: boolean;
  slaUsedMs: number;
  firstRespondedAt: Date | null;
  responseUsedMs: number | null;
  responseDueAt: Date | null;
  resolutionDueAt: Date | null;
  responseBreachedAt: Date | null;
  resolutionBreachedAt: Date | null;
  /** The transaction's time: when this change happened. */
  now: Date;
  /** Whole seconds from creation to now, and to the first response (counted by the database). */
  secondsSinceCreated: number;
  firstResponseSeconds: number | null;
  /** The newest answered survey, when the change was an answer. */
  survey?: { rating: CsatRating; answeredAt: Date } | null;
}

export const isBacklogStatus = (status: string): status is (typeof BACKLOG_STATUSES)[number] =>
  (BACKLOG_STATUSES as readonly string[]).includes(status);

/**
 * A target is decided by the first response or resolution under a policy, at that moment: met unless
 * the scanner had marked it breached before, or it came after its deadline (a stopped clock clears a
 * deadline not yet passed, so none left means met). A breach mark alone decides nothing: the scanner
 * marks thousands of tickets a pass, and the reports stay out of its way (docs/api.md#reports).
 */
const metInTime = (at: Date, dueAt: Date | null, breachedAt: Date | null): boolean =>
  (breachedAt === null || breachedAt > at) && (dueAt === null || at <= dueAt);

/**
 * Only a target the ticket has is decided: one its policy sets for its priority, or one breached
 * before a re-target took it away (a breach stays a breach). No target is neither met nor missed.
 */
const hasTarget = (t: TicketFigures, target: boolean, breachedAt: Date | null): boolean => t.underPolicy && (target || breachedAt !== null);

const CSAT_COUNTER: Record<CsatRating, TotalCounter> = { good: 'csatGood', neutral: 'csatNeutral', bad: 'csatBad' };
const seconds = (ms: number | null): number | null => (ms === null ? null : Math.round(ms / 1000));

/**
 * What the reports must add for a ticket so they hold what it is now, against what they held
 * (`held`, its metrics row; null when they never counted it), and the metrics row that records it.
 * The rules are docs/decisions.md#reports-written-with-the-change; report_rebuild() (as of migration 0043)
 * counts the same from the history.
 */
export function reconcile(t: TicketFigures, held: MetricsRow | null): { metrics: MetricsRow; deltas: FigureDeltas } {
  const keys: FigureKeys = { assigneeId: t.assigneeId, priority: t.priority, category: t.category };
  const deltas: FigureDeltas = { totals: [], durations: [], backlog: [] };
  const count = (counter: TotalCounter, at: Date, delta = 1, under = keys) => deltas.totals.push({ keys: under, at, counter, delta });
  const next: MetricsRow = held
    ? { ...held }
    : {
        ticketId: t.id,
        createdAt: t.createdAt,
        status: t.status,
        priority: t.priority as MetricsRow['priority'],
        category: t.category as MetricsRow['category'],
        assigneeId: 0,
        firstResponseAt: null,
        firstResponseSeconds: null,
        firstResponseBusinessSeconds: null,
        resolvedAt: null,
        resolutionSeconds: null,
        resolutionBusinessSeconds: null,
        reopens: 0,
        slaResponseMet: null,
        slaResolutionMet: null,
        csatRating: null,
        csatAt: null,
        csatPriority: null,
        csatCategory: null,
        csatAssigneeId: null,
      };
  if (!held) count('created', t.createdAt);

  const wasActive = held ? isBacklogStatus(held.status) : true;
  const active = isBacklogStatus(t.status);
  if (wasActive && !active) {
    count('resolved', t.now);
    count('resolutions', t.now);
    deltas.durations.push({
      keys,
      at: t.now,
      kind: DURATION_KIND.resolution,
      bucket: durationBucket(t.secondsSinceCreated),
      delta: 1,
    });
    next.resolvedAt = t.now;
    next.resolutionSeconds = t.secondsSinceCreated;
    next.resolutionBusinessSeconds = t.underPolicy ? seconds(t.slaUsedMs) : null;
    if (next.slaResolutionMet === null && hasTarget(t, t.resolutionTarget, t.resolutionBreachedAt)) {
      next.slaResolutionMet = metInTime(t.now, t.resolutionDueAt, t.resolutionBreachedAt);
      count(next.slaResolutionMet ? 'slaResolutionMet' : 'slaResolutionMissed', t.now);
    }
    // Resolved unanswered: a first response already overdue is missed now, whether or not a reply
    // ever comes; one not yet due stays undecided (a reply meets it, nothing else does).
    if (
      t.firstRespondedAt === null &&
      next.slaResponseMet === null &&
      hasTarget(t, t.responseTarget, t.responseBreachedAt) &&
      !metInTime(t.now, t.responseDueAt, t.responseBreachedAt)
    ) {
      next.slaResponseMet = false;
      count('slaResponseMissed', t.now);
    }
  } else if (!wasActive && active) {
    count('reopened', t.now);
    next.reopens += 1;
  }
  if (t.assigneeId !== 0 && t.assigneeId !== (held?.assigneeId ?? 0)) count('assigned', t.now);

  if (t.firstRespondedAt !== null && next.firstResponseAt === null) {
    const at = t.firstRespondedAt;
    const took = t.firstResponseSeconds ?? 0;
    count('firstResponses', at);
    deltas.durations.push({ keys, at, kind: DURATION_KIND.firstResponse, bucket: durationBucket(took), delta: 1 });
    next.firstResponseAt = at;
    next.firstResponseSeconds = took;
    next.firstResponseBusinessSeconds = t.underPolicy ? seconds(t.responseUsedMs) : null;
    if (next.slaResponseMet === null && hasTarget(t, t.responseTarget, t.responseBreachedAt)) {
      next.slaResponseMet = metInTime(at, t.responseDueAt, t.responseBreachedAt);
      count(next.slaResponseMet ? 'slaResponseMet' : 'slaResponseMissed', at);
    }
  }

  // The backlog moves when the status or a key changed; an unchanged one sums to nothing.
  if (held && isBacklogStatus(held.status)) {
    const was = { assigneeId: held.assigneeId, priority: held.priority, category: held.category };
    deltas.backlog.push({ keys: was, createdAt: held.createdAt, status: held.status, delta: -1 });
  }
  if (active) deltas.backlog.push({ keys, createdAt: t.createdAt, status: t.status, delta: 1 });

  if (t.survey) {
    const { rating, answeredAt } = t.survey;
    if (next.csatRating === null || next.csatAt === null) {
      count(CSAT_COUNTER[rating], answeredAt);
      Object.assign(next, {
        csatRating: rating,
        csatAt: answeredAt,
        csatPriority: t.priority,
        csatCategory: t.category,
        csatAssigneeId: t.assigneeId,
      });
    } else if (next.csatRating !== rating) {
      // A changed answer moves the count it made, at the hour and under the keys it was made.
      const under = { assigneeId: next.csatAssigneeId ?? 0, priority: next.csatPriority ?? '', category: next.csatCategory ?? '' };
      count(CSAT_COUNTER[next.csatRating], next.csatAt, -1, under);
      count(CSAT_COUNTER[rating], next.csatAt, 1, under);
      next.csatRating = rating;
    }
  }

  Object.assign(next, { status: t.status, priority: t.priority, category: t.category, assigneeId: t.assigneeId });
  return { metrics: next, deltas };
}
