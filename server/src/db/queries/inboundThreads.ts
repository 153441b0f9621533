import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.js';
import { emailMessages, ticketComments, users } from '../schema/index.js';

export type EmailMessageRow = typeof emailMessages.$inferSelect;

/** The thread rows of these Message-IDs (sent or received), in the order the ids were given. */
export async function findThreadMessages(db: Db, messageIds: string[], direction?: 'in' | 'out'): Promise<EmailMessageRow[]> {
  if (messageIds.length === 0) return [];
  const rows = await db
    .select()
    .from(emailMessages)
    .where(and(inArray(emailMessages.messageId, messageIds), direction ? eq(emailMessages.direction, direction) : undefined));
  return messageIds.flatMap((id) => rows.filter((row) => row.messageId === id));
}

/** A received Message-ID joins its ticket's thread; the first ticket it was filed on keeps it. */
export async function recordIncoming(db: Db, values: { messageId: string; ticketId: number; commentId: number | null }) {
  await db
    .insert(emailMessages)
    .values({ ...values, direction: 'in' })
    .onConflictDoNothing({ target: emailMessages.messageId });
}

/** Who wrote a comment, for an entry about it. */
export async function findCommentAuthor(db: Db, commentId: number): Promise<{ id: number; name: string } | undefined> {
  const [row] = await db
    .select({ id: users.id, name: users.name })
    .from(ticketComments)
    .innerJoin(users, eq(users.id, ticketComments.authorId))
    .where(eq(ticketComments.id, commentId));
  return row;
}
