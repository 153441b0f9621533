import type { Comment, HistoryEntry, TicketDetail } from '@helpdesk/protocol';

/** One line of a ticket's thread: a message, or a change standing between messages. */
export type ThreadItem = { kind: 'comment'; at: string; comment: Comment } | { kind: 'change'; at: string; entry: HistoryEntry };

/**
 * The thread as it reads, oldest first (docs/product.md#ticket-page): comments and the ticket's
 * changes in time order. "Comment added" entries are left out (the comment itself stands there).
 * Comments and history are paged apart; while either has older entries not yet loaded, nothing
 * older than its oldest loaded entry is shown, so no change or message appears out of its place.
 */
export function threadItems(ticket: Pick<TicketDetail, 'comments' | 'history' | 'hasOlderComments' | 'hasOlderHistory'>): ThreadItem[] {
  const cutoffs = [
    ticket.hasOlderComments ? ticket.comments[0]?.createdAt : undefined,
    ticket.hasOlderHistory ? ticket.history[0]?.createdAt : undefined,
  ].filter((at): at is string => at !== undefined);
  const from = cutoffs.sort().at(-1);
  const items: ThreadItem[] = [
    ...ticket.comments.map((comment): ThreadItem => ({ kind: 'comment', at: comment.createdAt, comment })),
    ...ticket.history
      .filter((entry) => entry.type !== 'comment')
      .map((entry): ThreadItem => ({ kind: 'change', at: entry.createdAt, entry })),
  ];
  // A change and the comment sent with it share their time: the change goes first, as it was applied first.
  const rank = (item: ThreadItem) => (item.kind === 'change' ? 0 : 1);
  return items
    .filter((item) => from === undefined || item.at >= from)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : rank(a) - rank(b) || idOf(a) - idOf(b)));
}

const idOf = (item: ThreadItem) => (item.kind === 'comment' ? item.comment.id : item.entry.id);

/** More to load: older comments or older history. */
export const hasOlderThread = (ticket: Pick<TicketDetail, 'hasOlderComments' | 'hasOlderHistory'>) =>
  Boolean(ticket.hasOlderComments || ticket.hasOlderHistory);

/**
 * The heading's count: every comment this reader may see, whatever is loaded. Staff also see
 * internal notes, counted by `noteCount` when the server sends it.
 */
export const threadCount = (ticket: Pick<TicketDetail, 'commentCount'> & { noteCount?: number }, staff: boolean) =>
  ticket.commentCount + (staff ? (ticket.noteCount ?? 0) : 0);
