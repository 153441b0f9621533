import { count, eq } from 'drizzle-orm';
import { TICKET_STATUSES, type TicketStatus } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { emailOutbox } from '../schema/index.js';
import { countedStats } from './tickets.js';

/** Every status with its tickets, from the maintained counters the count cards read (never the tickets). */
export async function ticketsByStatus(db: Db): Promise<Record<TicketStatus, number>> {
  const stats = await countedStats(db, {});
  return Object.fromEntries(TICKET_STATUSES.map((status) => [status, stats[status]])) as Record<TicketStatus, number>;
}

/** Mails the outbox still holds to send, off its partial index of queued rows. */
export async function queuedMailCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(emailOutbox).where(eq(emailOutbox.status, 'queued'));
  return row?.n ?? 0;
}
