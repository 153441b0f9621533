import { count, eq, sql } from 'drizzle-orm';
import { TICKET_STATUSES, type TicketStatus } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { emailOutbox, ticketCounts } from '../schema/index.js';

/** Every status with its tickets, from the maintained counters' every-ticket rows (agent -1): a few dozen rows, never the tickets. */
export async function ticketsByStatus(db: Db): Promise<Record<TicketStatus, number>> {
  const rows = await db
    .select({ status: ticketCounts.status, n: sql<number>`coalesce(sum(${ticketCounts.n}), 0)::int` })
    .from(ticketCounts)
    .where(eq(ticketCounts.agentId, -1))
    .groupBy(ticketCounts.status);
  const counts = Object.fromEntries(TICKET_STATUSES.map((status) => [status, 0])) as Record<TicketStatus, number>;
  for (const { status, n } of rows) counts[status] = n;
  return counts;
}

/** Mails the outbox still holds to send, off its partial index of queued rows. */
export async function queuedMailCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(emailOutbox).where(eq(emailOutbox.status, 'queued'));
  return row?.n ?? 0;
}
