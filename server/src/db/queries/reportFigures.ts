import { and, desc, eq, getTableColumns, inArray, isNotNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../client.js';
import {
  csatSurveys,
  reportBacklog,
  reportDurations,
  reportState,
  reportTotals,
  slaPolicies,
  ticketMetrics,
  tickets,
} from '../schema/index.js';
import type { BacklogRow, DurationRow, TotalsRow } from '../../reports/figureRows.js';
import type { MetricsRow, TicketFigures } from '../../reports/reconcile.js';

const wholeSeconds = (from: SQLWrapper, to: SQLWrapper) => sql<number>`floor(extract(epoch from ${to} - ${from}))::int`;
/** Whether the ticket's policy sets this target for the ticket's priority (a deleted policy still holds its targets). */
const setsTarget = (kind: 'firstResponseMinutes' | 'resolutionMinutes') =>
  sql<boolean>`(${slaPolicies.targets} -> ${tickets.priority}::text ->> ${kind}) is not null`;

/**
 * The tickets as the change left them, with what the reports hold for each (their metrics rows) and,
 * for a survey answer, the newest answered survey: one query, the tickets locked in id order so two
 * writers reconcile one ticket one after the other. Durations are counted here, in the database's
 * precision, as report_rebuild() counts them.
 */
export async function ticketsToReconcile(
  tx: Db,
  ids: number[],
  withSurvey: boolean,
): Promise<{ ticket: TicketFigures; held: MetricsRow | null }[]> {
  if (ids.length === 0) return [];
  const survey = tx
    .select({ rating: csatSurveys.rating, answeredAt: csatSurveys.answeredAt })
    .from(csatSurveys)
    .where(and(eq(csatSurveys.ticketId, tickets.id), isNotNull(csatSurveys.answeredAt)))
    .orderBy(desc(csatSurveys.id))
    .limit(1)
    .as('survey');
  const now = sql`now()`;
  const query = tx
    .select({
      id: tickets.id,
      createdAt: tickets.createdAt,
      status: tickets.status,
      priority: tickets.priority,
      category: tickets.category,
      assigneeId: sql<number>`coalesce(${tickets.assignedAgentId}, 0)`,
      policyId: tickets.slaPolicyId,
      responseTarget: setsTarget('firstResponseMinutes'),
      resolutionTarget: setsTarget('resolutionMinutes'),
      slaUsedMs: tickets.slaUsedMs,
      firstRespondedAt: tickets.slaFirstRespondedAt,
      responseUsedMs: tickets.slaResponseUsedMs,
      responseDueAt: tickets.slaResponseDueAt,
      resolutionDueAt: tickets.slaResolutionDueAt,
      responseBreachedAt: tickets.slaResponseBreachedAt,
      resolutionBreachedAt: tickets.slaResolutionBreachedAt,
      now: now.mapWith(tickets.createdAt),
      secondsSinceCreated: wholeSeconds(tickets.createdAt, now),
      firstResponseSeconds: wholeSeconds(tickets.createdAt, tickets.slaFirstRespondedAt),
      held: ticketMetrics,
      ...(withSurvey && { surveyRating: survey.rating, surveyAnsweredAt: survey.answeredAt }),
    })
    .from(tickets)
    .leftJoin(ticketMetrics, eq(ticketMetrics.ticketId, tickets.id))
    .leftJoin(slaPolicies, eq(slaPolicies.id, tickets.slaPolicyId));
  const joined = withSurvey ? query.leftJoinLateral(survey, sql`true`) : query;
  const rows = await joined.where(inArray(tickets.id, ids)).orderBy(tickets.id).for('no key update', { of: tickets });
  return rows.map(({ held, policyId, surveyRating, surveyAnsweredAt, ...row }) => ({
    ticket: {
      ...row,
      underPolicy: policyId !== null,
      survey: surveyRating && surveyAnsweredAt ? { rating: surveyRating, answeredAt: surveyAnsweredAt } : null,
    },
    held,
  }));
}

/** `excluded.<column>` for every column but the key: an upsert that writes the row as given. */
const replaceAll = Object.fromEntries(
  Object.entries(getTableColumns(ticketMetrics))
    .filter(([key]) => key !== 'ticketId')
    .map(([key, column]) => [key, sql.raw(`excluded.${column.name}`)]),
);
/** `<column> + excluded.<column>`: an upsert that adds the row's figures to what is there. */
const plusExcluded = (column: AnyPgColumn): SQL => sql`${column} + ${sql.raw(`excluded.${column.name}`)}`;
const KEY_COLUMNS = new Set(['assigneeId', 'priority', 'category', 'span', 'at']);
const addTotals = Object.fromEntries(
  Object.entries(getTableColumns(reportTotals))
    .filter(([key]) => !KEY_COLUMNS.has(key))
    .map(([key, column]) => [key, plusExcluded(column)]),
);

/** Writes the reconciled metrics rows and the figures' deltas: one upsert per table, rows in key order. */
export async function writeFigures(
  tx: Db,
  metrics: MetricsRow[],
  rows: { totals: TotalsRow[]; durations: DurationRow[]; backlog: BacklogRow[] },
): Promise<void> {
  if (metrics.length > 0) {
    const sorted = [...metrics].sort((a, b) => a.ticketId - b.ticketId);
    await tx.insert(ticketMetrics).values(sorted).onConflictDoUpdate({ target: ticketMetrics.ticketId, set: replaceAll });
  }
  if (rows.totals.length > 0) {
    await tx
      .insert(reportTotals)
      .values(rows.totals)
      .onConflictDoUpdate({
        target: [reportTotals.assigneeId, reportTotals.priority, reportTotals.category, reportTotals.span, reportTotals.at],
        set: addTotals,
      });
  }
  if (rows.durations.length > 0) {
    const d = reportDurations;
    await tx
      .insert(d)
      .values(rows.durations)
      .onConflictDoUpdate({
        target: [d.assigneeId, d.priority, d.category, d.span, d.at, d.kind, d.bucket],
        set: { n: plusExcluded(d.n) },
      });
  }
  if (rows.backlog.length > 0) {
    const b = reportBacklog;
    await tx
      .insert(b)
      .values(rows.backlog)
      .onConflictDoUpdate({ target: [b.assigneeId, b.priority, b.category, b.createdHour, b.status], set: { n: plusExcluded(b.n) } });
  }
}

/**
 * Tells every process's kept figures that an hour long past changed (reports/figureCache.ts): one
 * counter, moved in the transaction that changed the hour, read with every read of the figures.
 */
export async function moveFigureGeneration(tx: Db): Promise<void> {
  await tx.update(reportState).set({ generation: sql`${reportState.generation} + 1` });
}
