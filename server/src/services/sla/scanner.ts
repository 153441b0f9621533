import { MESSAGES, type HistoryEntry, type SlaMark, type SlaTargetKind } from '@helpdesk/protocol';
import type { Database, Db, ExclusiveLock } from '../../db/client.js';
import {
  activeAdminIds,
  anyMarkDue,
  claimDueTickets,
  insertSlaHistory,
  insertSlaNotifications,
  markClaimedTickets,
  type DueTicket,
  type NewSlaEntry,
  type NewSlaNotification,
} from '../../db/queries/slaTickets.js';
import { shrinkingBatch, warnOnShrink } from '../../db/shrinkingBatch.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import type { Logger } from '../../lib/logger.js';
import { excerptOf } from '../notifications.js';
import { presentSla } from '../../sla/ticketSla.js';

/** The advisory lock that lets one process at a time scan (the IMAP intake holds 727_002). */
const SLA_SCAN_LOCK_KEY = 727_003;
/**
 * Tickets marked per transaction; a pass goes on until none is left due. Each statement must stay
 * under the server's one-second statement timeout on a loaded machine. At a million tickets a
 * statement updating 1,000 rows took 0.35-0.6 s (each of the table's indexes takes a new entry per
 * row), so the batch of 2,500 this once was ran past the timeout with two workers and every pass
 * failed on it (bench:sla at scale). Batches of 500 mark as fast there, and leave room for load;
 * on a machine where even they do not, a pass goes on in smaller ones (shrinkingBatch).
 */
const SCAN_BATCH = 500;
/**
 * Batches marked at once on a database with a connection pool. `skip locked` hands each its own rows,
 * so two overlap the statement work of one with the round trips and commit of the other: a pass over
 * 10,000 due tickets took about two thirds of the time on two cores (bench:sla). An embedded database
 * has one connection, where a second worker would only queue.
 */
const SCAN_WORKERS = 2;

export interface ScanTuning {
  workers?: number;
  batch?: number;
}

export interface SlaScanner {
  /** One pass now, whoever holds the lock: how many tickets it marked (tests and the bench call it). */
  scanOnce(now?: Date, tuning?: ScanTuning): Promise<number>;
  stop(): Promise<void>;
}

/** What one marked ticket's pass says, per target: the mark to announce, if any. */
function marksOf(ticket: DueTicket): { target: SlaTargetKind; mark: SlaMark }[] {
  const done = ticket.status === 'resolved' || ticket.status === 'closed';
  const marks: { target: SlaTargetKind; mark: SlaMark }[] = [];
  // A breach found in the same pass as its warning is announced alone: the warning came too late to help.
  // A warning for a target already met (a reply, a resolution before the scan) is recorded silently.
  if (ticket.responseBreached) marks.push({ target: 'first_response', mark: 'breached' });
  else if (ticket.responseWarned && ticket.slaFirstRespondedAt === null) marks.push({ target: 'first_response', mark: 'warning' });
  if (ticket.resolutionBreached) marks.push({ target: 'resolution', mark: 'breached' });
  else if (ticket.resolutionWarned && !done) marks.push({ target: 'resolution', mark: 'warning' });
  return marks;
}

/**
 * Marks the warnings and breaches that came due, in one transaction per batch: the due tickets claimed
 * (locked), their `sla` timeline entries (one insert), the notifications to the assignee or, for an
 * unassigned ticket, to every admin (one insert), then the marks and states (one UPDATE, last: see
 * markClaimedTickets); after the commit, `sla-changed` to staff and each notification to its
 * recipient. A mark is made once: the claim only takes unmarked due times, and skips rows another
 * scan holds.
 */
export function createSlaScan({
  db,
  withTransaction,
  logger,
  singleConnection = false,
}: {
  db: Db;
  withTransaction: UnitOfWork;
  logger: Logger;
  singleConnection?: boolean;
}) {
  const markBatch = (now: Date, batch: number) =>
    withTransaction(async (tx, emit) => {
      const tickets = await claimDueTickets(tx, now, batch);
      if (tickets.length === 0) return 0;
      const announced = tickets.map((ticket) => ({ ticket, marks: marksOf(ticket) }));
      const entries: NewSlaEntry[] = announced.flatMap(({ ticket, marks }) =>
        marks.map(({ target, mark }) => ({ ticketId: ticket.id, actorId: ticket.userId, from: target, to: mark })),
      );
      const history = await insertSlaHistory(tx, entries);
      const admins = announced.some(({ ticket, marks }) => marks.length > 0 && ticket.assignedAgentId === null)
        ? await activeAdminIds(tx)
        : [];
      // An unassigned ticket's notice is every admin's, stored once (null recipient) and sent to each.
      const requests: NewSlaNotification[] = announced.flatMap(({ ticket, marks }) =>
        marks.map(({ target, mark }) => ({
          userId: ticket.assignedAgentId,
          type: mark === 'breached' ? ('sla_breached' as const) : ('sla_warning' as const),
          ticketId: ticket.id,
          // The person waiting is who the notice is about.
          byId: ticket.userId,
          excerpt: excerptOf(MESSAGES.sla.notificationExcerpt(target, mark, ticket.title)),
        })),
      );
      const notifications = await insertSlaNotifications(tx, requests);
      const marked = await markClaimedTickets(
        tx,
        now,
        tickets.map((ticket) => ticket.id),
      );

      const byTicket = new Map(tickets.map((ticket) => [ticket.id, ticket]));
      const entriesOf = new Map<number, HistoryEntry[]>();
      for (const row of history) {
        const ticket = byTicket.get(row.ticketId);
        if (!ticket) continue;
        const list = entriesOf.get(row.ticketId) ?? [];
        list.push({
          id: row.id,
          ticketId: row.ticketId,
          type: 'sla',
          from: row.from,
          to: row.to,
          actor: { id: ticket.userId, name: ticket.ownerName },
          createdAt: row.createdAt.toISOString(),
        });
        entriesOf.set(row.ticketId, list);
      }
      for (const ticket of marked) {
        const claimed = byTicket.get(ticket.id);
        if (!claimed) continue;
        emit('sla.changed', {
          ticketId: ticket.id,
          ownerId: claimed.userId,
          sla: presentSla(ticket),
          version: ticket.version,
          history: entriesOf.get(ticket.id) ?? [],
        });
      }
      for (const row of notifications) {
        const owner = byTicket.get(row.ticketId);
        const notification = {
          id: row.id,
          type: row.type,
          ticketId: row.ticketId,
          by: { id: row.byId, name: owner?.ownerName ?? '' },
          excerpt: row.excerpt,
          createdAt: row.createdAt.toISOString(),
          readAt: null,
        };
        const userIds = row.userId === null ? admins : [row.userId];
        if (userIds.length > 0) emit('notification.created', { userIds, notification });
      }
      return tickets.length;
    });

  /**
   * Marks batch after batch until one comes back short: then nothing due is left unlocked. A batch
   * the statement timeout cancels is asked again smaller (shrinkingBatch).
   */
  const worker = async (now: Date, batch: number): Promise<number> => {
    const batches = shrinkingBatch(batch, {
      onShrink: warnOnShrink(logger, 'SLA scan'),
    });
    let total = 0;
    for (;;) {
      const marked = await batches.run((size) => markBatch(now, size));
      total += marked;
      if (marked < batches.size) return total;
    }
  };

  /** `tuning` is for bench:sla (one worker against two in the same run) and tests (small batches). */
  return async function scanOnce(now: Date = new Date(), tuning: ScanTuning = {}): Promise<number> {
    const { workers = singleConnection ? 1 : SCAN_WORKERS, batch = SCAN_BATCH } = tuning;
    if (!(await anyMarkDue(db, now))) return 0;
    const counts = await Promise.all(Array.from({ length: workers }, () => worker(now, batch)));
    return counts.reduce((sum, count) => sum + count, 0);
  };
}

/**
 * The scanner (docs/decisions.md#service-levels): every `intervalMs` the process holding the scan's
 * advisory lock runs a pass; the others keep asking for the lock, so one takes over within an interval
 * of the holder's end. A failing pass is logged and tried again at the next tick.
 */
export function startSlaScanner(
  database: Pick<Database, 'tryExclusive'>,
  scanOnce: SlaScanner['scanOnce'],
  intervalMs: number,
  logger: Logger,
): SlaScanner {
  let lock: ExclusiveLock | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const tick = async () => {
    // The database let the lock go with its connection: another process may scan now, or this one again.
    if (lock?.lost) {
      await lock.release();
      lock = undefined;
    }
    if (!lock) lock = await database.tryExclusive(SLA_SCAN_LOCK_KEY);
    if (!lock || stopped) return;
    const marked = await scanOnce();
    if (marked > 0) logger.info({ marked }, 'SLA scan marked tickets');
  };
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = tick()
      .catch((error: unknown) => logger.warn({ err: error }, 'SLA scan failed'))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();

  return {
    scanOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await lock?.release();
      lock = undefined;
    },
  };
}
