import { eq } from 'drizzle-orm';
import { isStaff, wantsNotice, type TicketNotice } from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { ticketComments, tickets, users } from '../db/schema/index.js';
import type { EventBus } from '../events/bus.js';
import { staffCommentMail, staffNoticeMail, statusChangedMail } from './templates.js';
import type { Mailer } from './transport.js';

/** Emails a ticket's owner about changes others made, as their preference asks (docs/api.md#email). */
export function subscribeTicketNotifications({ db, bus, mailer, publicUrl }: { db: Db; bus: EventBus; mailer: Mailer; publicUrl: string }) {
  const ownerOf = async (ticketId: number) => {
    const [row] = await db
      .select({
        id: tickets.id,
        title: tickets.title,
        ownerName: users.name,
        email: users.email,
        preference: users.emailNotifications,
        deletedAt: users.deletedAt,
      })
      .from(tickets)
      .innerJoin(users, eq(users.id, tickets.userId))
      .where(eq(tickets.id, ticketId));
    return row && !row.deletedAt ? row : undefined;
  };

  const recipient = async (ticketId: number, notice: TicketNotice) => {
    const row = await ownerOf(ticketId);
    if (!row || !wantsNotice(row.preference, notice)) return undefined;
    return { to: row.email, name: row.ownerName, ticket: { id: row.id, title: row.title }, ticketUrl: `${publicUrl}/ticket/${row.id}` };
  };

  const unsubscribers = [
    // Handed to the mailer before the lookups, so mailer.idle() (shutdown, tests) waits for them too:
    // once it resolves, every notice of a change already answered was sent or found unwanted.
    bus.subscribe('ticket.updated', ({ ticketId, ownerId, actor, statusChange }) => {
      if (!statusChange || actor.id === ownerId) return;
      mailer.sendLater(async () => {
        const target = await recipient(ticketId, { kind: 'status', to: statusChange.to });
        return target && statusChangedMail({ ...target, from: statusChange.from, status: statusChange.to, by: actor.name });
      });
    }),
    bus.subscribe('comment.added', ({ ticketId, ownerId, commentId, actor, comment }) => {
      if (!isStaff(actor) || actor.id === ownerId || comment.internal) return;
      mailer.sendLater(async () => {
        const target = await recipient(ticketId, { kind: 'staff-comment' });
        if (!target) return undefined;
        const [comment] = await db.select({ content: ticketComments.content }).from(ticketComments).where(eq(ticketComments.id, commentId));
        return comment && staffCommentMail({ ...target, by: actor.name, content: comment.content });
      });
    }),
    // Mentions and assignments reach staff by email too, when their preference is `important` or `all`.
    bus.subscribe('notification.created', ({ userId, notification }) => {
      if (notification.type === 'reply') return;
      const kind = notification.type;
      mailer.sendLater(async () => {
        const [row] = await db
          .select({
            email: users.email,
            name: users.name,
            preference: users.emailNotifications,
            deletedAt: users.deletedAt,
            title: tickets.title,
          })
          .from(users)
          .innerJoin(tickets, eq(tickets.id, notification.ticketId))
          .where(eq(users.id, userId));
        if (!row || row.deletedAt || !wantsNotice(row.preference, { kind })) return undefined;
        return staffNoticeMail({
          to: row.email,
          name: row.name,
          ticket: { id: notification.ticketId, title: row.title },
          ticketUrl: `${publicUrl}/ticket/${notification.ticketId}`,
          kind,
          by: notification.by.name,
          excerpt: notification.excerpt,
        });
      });
    }),
  ];
  return () => unsubscribers.forEach((off) => off());
}
