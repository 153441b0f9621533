import type { Db } from '../db/client.js';
import { moveFigureGeneration, ticketsToReconcile, writeFigures } from '../db/queries/reportFigures.js';
import type { HeldEvent } from '../events/bus.js';
import { landsInSettled } from './figureCache.js';
import { figureRows } from './figureRows.js';
import { isBacklogStatus, reconcile, type FigureDeltas, type MetricsRow } from './reconcile.js';

/**
 * The events that change what a ticket counts for in the reports. Not the SLA's own (`sla.changed`):
 * a first reply comes with its comment, and a mark or a re-applied policy moves no figure
 * (reconcile.ts#metInTime), while the scanner and a re-apply emit them for thousands of tickets.
 */
const TICKET_EVENTS = new Set<HeldEvent['name']>(['ticket.created', 'ticket.updated', 'comment.added', 'csat.received']);

const sameValue = (a: unknown, b: unknown): boolean => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b);
/** A ticket whose metrics row would be written back unchanged is left alone. */
const sameMetrics = (held: MetricsRow, next: MetricsRow): boolean =>
  (Object.keys(next) as (keyof MetricsRow)[]).every((key) => sameValue(held[key], next[key]));

/**
 * The reports' figures, written in the transaction of the change that makes them (a BeforeCommit hook,
 * docs/decisions.md#reports-written-with-the-change): the tickets the events name are read once with
 * what the reports hold for them, reconciled, and the differences added in one upsert per table.
 */
export async function recordFigures(tx: Db, events: readonly HeldEvent[]): Promise<void> {
  const ids = new Set<number>();
  const created = new Set<number>();
  let withSurvey = false;
  const deltas: FigureDeltas = { totals: [], durations: [], backlog: [] };
  for (const event of events) {
    const ticketId = 'ticketId' in event.payload ? event.payload.ticketId : undefined;
    if (TICKET_EVENTS.has(event.name) && ticketId !== undefined) ids.add(ticketId);
    if (event.name === 'ticket.created') created.add(event.payload.ticketId);
    if (event.name === 'csat.received') withSurvey = true;
  }
  for (const event of events) {
    if (event.name !== 'ticket.deleted') continue;
    const { previous } = event.payload;
    ids.delete(previous.id);
    // Its metrics row went with it (cascade); the backlog it was counted in is the one it leaves.
    if (created.has(previous.id) || !isBacklogStatus(previous.status)) continue;
    const keys = { assigneeId: previous.assignedAgent?.id ?? 0, priority: previous.priority, category: previous.category };
    deltas.backlog.push({ keys, createdAt: new Date(previous.createdAt), status: previous.status, delta: -1 });
  }
  const metrics: MetricsRow[] = [];
  for (const { ticket, held } of await ticketsToReconcile(
    tx,
    [...ids].sort((a, b) => a - b),
    withSurvey,
  )) {
    const result = reconcile(ticket, held);
    if (!held || !sameMetrics(held, result.metrics)) metrics.push(result.metrics);
    deltas.totals.push(...result.deltas.totals);
    deltas.durations.push(...result.deltas.durations);
    deltas.backlog.push(...result.deltas.backlog);
  }
  await writeFigures(tx, metrics, figureRows(deltas));
  // A changed survey answer moves the count it made hours or days ago (a ticket never counted, its creation).
  const now = Date.now();
  const settled = ({ at }: { at: Date }) => landsInSettled(at, now);
  if (deltas.totals.some(settled) || deltas.durations.some(settled)) await moveFigureGeneration(tx);
}
