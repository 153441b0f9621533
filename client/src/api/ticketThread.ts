import { isStaff, LIMITS, type Comment, type EmailStatus, type HistoryEntry, type Ticket, type TicketResponse } from '@helpdesk/protocol';

/**
 * A ticket's comments and timeline as the open page holds them: the latest entries, oldest first, as
 * the server sends them (docs/api.md#ticket-endpoints). Whatever arrives live goes in its place in that order,
 * and the window keeps its size, so a live page shows the entries a fresh load would.
 */

interface Entry {
  id: number;
  createdAt: string;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The server's order: oldest first, ties by id. */
const inServerOrder = (a: Entry, b: Entry) => compareText(a.createdAt, b.createdAt) || a.id - b.id;

interface Window<T> {
  items: T[];
  hasOlder: boolean;
}

/**
 * The window after `incoming` arrives, or undefined when nothing in it changes. An entry already held
 * changes nothing; one older than the oldest held, while older ones exist, falls outside the window.
 * A window of the server's page size stays that size, as a fresh load would show it. One the reader
 * widened by loading older entries only grows: what they paged back to stays on screen while the
 * ticket changes under them.
 */
export function intoWindow<T extends Entry>(held: Window<T>, incoming: T[]): Window<T> | undefined {
  const oldest = held.items[0];
  const inside = incoming.filter(
    (entry) => !held.items.some((h) => h.id === entry.id) && !(held.hasOlder && oldest && inServerOrder(entry, oldest) < 0),
  );
  if (inside.length === 0) return undefined;
  const all = [...held.items, ...inside].sort(inServerOrder);
  const widened = held.items.length > LIMITS.ticketThread.page;
  const dropped = widened ? 0 : Math.max(0, all.length - LIMITS.ticketThread.page);
  return { items: all.slice(dropped), hasOlder: held.hasOlder || dropped > 0 };
}

export function withHistory(detail: TicketResponse, entries: HistoryEntry[]): TicketResponse {
  const { ticket } = detail;
  const next = intoWindow({ items: ticket.history, hasOlder: ticket.hasOlderHistory ?? false }, entries);
  return next ? { ...detail, ticket: { ...ticket, history: next.items, hasOlderHistory: next.hasOlder } } : detail;
}

/**
 * The comment in its place. `commentCount` counts the whole conversation with the owner (notes never):
 * the server's count after this comment when the event says it, else one more for a comment this copy
 * did not hold, whether or not it still fits the window.
 */
export function withComment(detail: TicketResponse, comment: Comment, countAfter?: number): TicketResponse {
  const { ticket } = detail;
  const held = ticket.comments.some((c) => c.id === comment.id);
  const commentCount =
    countAfter !== undefined ? Math.max(ticket.commentCount, countAfter) : ticket.commentCount + (held || comment.internal ? 0 : 1);
  // Staff's heading also counts notes (`noteCount`, sent to staff only): a note this copy did not hold is one more.
  const notes = ticket.noteCount;
  const noteCount = notes !== undefined && comment.internal && !held ? notes + 1 : notes;
  const next = intoWindow({ items: ticket.comments, hasOlder: ticket.hasOlderComments ?? false }, [comment]);
  if (!next && commentCount === ticket.commentCount && noteCount === notes && (ticket.answered || !answeredBy(comment).answered))
    return detail;
  return {
    ...detail,
    ticket: {
      ...ticket,
      commentCount,
      ...(noteCount !== undefined && { noteCount }),
      ...answeredBy(comment),
      ...(next && { comments: next.items, hasOlderComments: next.hasOlder }),
    },
  };
}

/** A staff reply answers the ticket, as the server's `answered` says on the next read; a note never shows. */
export const answeredBy = (comment: Comment): Partial<Ticket> => (!comment.internal && isStaff(comment.author) ? { answered: true } : {});

/** An older page of comments goes in front of the ones held; the window grows by it. */
export function withOlderComments(detail: TicketResponse, older: Comment[], hasMore: boolean): TicketResponse {
  const fresh = older.filter((c) => !detail.ticket.comments.some((held) => held.id === c.id));
  return { ...detail, ticket: { ...detail.ticket, comments: [...fresh, ...detail.ticket.comments], hasOlderComments: hasMore } };
}

/**
 * A staff reply's mail changed state (the email-status event). `queued` is where every mail starts, so
 * it never replaces a state the comment already shows: a late `queued` cannot undo `sent`.
 */
export function withEmailStatus(detail: TicketResponse, commentId: number, status: EmailStatus): TicketResponse {
  const held = detail.ticket.comments.find((c) => c.id === commentId);
  if (!held || held.emailStatus === status || (status === 'queued' && held.emailStatus)) return detail;
  const comments = detail.ticket.comments.map((c) => (c.id === commentId ? { ...c, emailStatus: status } : c));
  return { ...detail, ticket: { ...detail.ticket, comments } };
}

/** An older page of history goes in front of the entries held, as older comments do. */
export function withOlderHistory(detail: TicketResponse, older: HistoryEntry[], hasMore: boolean): TicketResponse {
  const fresh = older.filter((h) => !detail.ticket.history.some((held) => held.id === h.id));
  return { ...detail, ticket: { ...detail.ticket, history: [...fresh, ...detail.ticket.history], hasOlderHistory: hasMore } };
}
