import { boolean, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { categoryEnum } from './articles.js';
import { csatRatingEnum } from './csat.js';
import { priorityEnum, ticketStatusEnum, tickets } from './tickets.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * What the report tables hold for each ticket (migration 0037, docs/decisions.md#reports-written-with-the-change):
 * the keys and status it is counted under there, its durations and SLA outcomes, and the answer it
 * counted, so the next change of the ticket writes only the difference. assignee_id 0 = unassigned.
 */
export const ticketMetrics = pgTable('ticket_metrics', {
  ticketId: integer('ticket_id')
    .primaryKey()
    .references(() => tickets.id, { onDelete: 'cascade' }),
  createdAt: at('created_at').notNull(),
  status: ticketStatusEnum('status').notNull(),
  priority: priorityEnum('priority').notNull(),
  category: categoryEnum('category').notNull(),
  assigneeId: integer('assignee_id').notNull().default(0),
  firstResponseAt: at('first_response_at'),
  firstResponseSeconds: integer('first_response_seconds'),
  firstResponseBusinessSeconds: integer('first_response_business_seconds'),
  resolvedAt: at('resolved_at'),
  resolutionSeconds: integer('resolution_seconds'),
  resolutionBusinessSeconds: integer('resolution_business_seconds'),
  reopens: integer('reopens').notNull().default(0),
  /** null: not decided yet (no policy, or neither met nor missed so far). */
  slaResponseMet: boolean('sla_response_met'),
  slaResolutionMet: boolean('sla_resolution_met'),
  csatRating: csatRatingEnum('csat_rating'),
  /** The hour and keys the answer was counted at, so a changed answer moves exactly that count. */
  csatAt: at('csat_at'),
  csatPriority: priorityEnum('csat_priority'),
  csatCategory: categoryEnum('csat_category'),
  csatAssigneeId: integer('csat_assignee_id'),
});

/**
 * The grouping key every report table shares: assignee_id -1 = every assignee, 0 = unassigned;
 * priority and category '' = all. Every figure is written to 6 combinations of "the ticket's
 * value or all" (reports/figureRows.ts#groupingSets).
 */
const groupKey = {
  assigneeId: integer('assignee_id').notNull(),
  priority: text('priority').notNull(),
  category: text('category').notNull(),
};

/** span 1 = the UTC hour starting at `at`, 24 = the UTC day, 168 = the UTC week from Monday (migration 0042), 720 = the UTC calendar month (0038). */
const spanKey = {
  span: smallint('span').notNull(),
  at: at('at').notNull(),
};

const counter = (name: string) => integer(name).notNull().default(0);

/** Hourly and daily totals per grouping set (docs/api.md#reports). */
export const reportTotals = pgTable(
  'report_totals',
  {
    ...groupKey,
    ...spanKey,
    created: counter('created'),
    resolved: counter('resolved'),
    reopened: counter('reopened'),
    assigned: counter('assigned'),
    firstResponses: counter('first_responses'),
    resolutions: counter('resolutions'),
    slaResponseMet: counter('sla_response_met'),
    slaResponseMissed: counter('sla_response_missed'),
    slaResolutionMet: counter('sla_resolution_met'),
    slaResolutionMissed: counter('sla_resolution_missed'),
    csatGood: counter('csat_good'),
    csatNeutral: counter('csat_neutral'),
    csatBad: counter('csat_bad'),
  },
  (t) => [primaryKey({ columns: [t.assigneeId, t.priority, t.category, t.span, t.at] })],
);

/** Histograms of wall seconds (kind 1 first response, 2 resolution) in the buckets of reports/durationBuckets.ts. */
export const reportDurations = pgTable(
  'report_durations',
  {
    ...groupKey,
    ...spanKey,
    kind: smallint('kind').notNull(),
    bucket: smallint('bucket').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.assigneeId, t.priority, t.category, t.span, t.at, t.kind, t.bucket] })],
);

/** Tickets not resolved or closed now, by the UTC hour they were created and their status. */
export const reportBacklog = pgTable(
  'report_backlog',
  {
    ...groupKey,
    createdHour: at('created_hour').notNull(),
    status: text('status').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.assigneeId, t.priority, t.category, t.createdHour, t.status] })],
);

/**
 * One row: moved by report_rebuild() and by any change that counts a figure in an hour long past (a
 * changed survey answer). Read with every read of the figures, so rows kept in memory from before it
 * moved are dropped (reports/figureCache.ts).
 */
export const reportState = pgTable('report_state', {
  generation: integer('generation').notNull(),
});
