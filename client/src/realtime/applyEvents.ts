import type { Article, ArticleListResponse, ArticleResponse, CommentAddedEvent, HelpfulCountEvent, Ticket, TicketChangedEvent, TicketListResponse, TicketResponse } from '@helpdesk/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../api/queryKeys';

/**
 * Socket events written into the query cache (ARCHITECTURE "An event"). What the event carries is
 * applied at once, so the open ticket, the rows and the cards change without a round trip; what it
 * cannot carry (counts under filters, a new row's place in a sorted page, the history timeline) is
 * re-fetched for the queries on screen.
 */
export function applyTicketChanged(client: QueryClient, event: TicketChangedEvent): void {
  const { id } = event.ticket;
  if (event.action === 'deleted') {
    client.setQueriesData<TicketListResponse>({ queryKey: queryKeys.tickets.lists }, (list) => list && withRows(list, list.data.filter((t) => t.id !== id)));
    client.removeQueries({ queryKey: queryKeys.tickets.detail(id) });
  } else {
    const ticket = event.ticket;
    replaceTicketInLists(client, ticket);
    patchTicketDetail(client, ticket);
    void client.invalidateQueries({ queryKey: queryKeys.tickets.detail(id) });
  }
  void client.invalidateQueries({ queryKey: queryKeys.tickets.lists });
  void client.invalidateQueries({ queryKey: queryKeys.tickets.stats });
}

export function applyCommentAdded(client: QueryClient, { ticketId, comment }: CommentAddedEvent): void {
  client.setQueryData<TicketResponse>(queryKeys.tickets.detail(ticketId), (detail) => {
    if (!detail || detail.ticket.comments.some((c) => c.id === comment.id)) return detail;
    const comments = [...detail.ticket.comments, comment];
    return { ...detail, ticket: { ...detail.ticket, comments, commentCount: comments.length } };
  });
  client.setQueriesData<TicketListResponse>({ queryKey: queryKeys.tickets.lists }, (list) =>
    list && withRows(list, list.data.map((t) => (t.id === ticketId ? { ...t, commentCount: t.commentCount + 1 } : t))),
  );
  void client.invalidateQueries({ queryKey: queryKeys.tickets.detail(ticketId) });
}

export function applyHelpfulCount(client: QueryClient, { articleId, helpfulCount }: HelpfulCountEvent): void {
  const update = (article: Article) => (article.id === articleId ? { ...article, helpfulCount } : article);
  client.setQueriesData<ArticleListResponse>({ queryKey: queryKeys.knowledge.lists }, (list) =>
    list && { ...list, data: { ...list.data, articles: list.data.articles.map(update) } },
  );
  client.setQueryData<ArticleResponse>(queryKeys.knowledge.detail(articleId), (detail) => detail && { ...detail, article: update(detail.article) });
}

/** A changed ticket takes its row's place in every cached page that shows it. */
export function replaceTicketInLists(client: QueryClient, ticket: Ticket): void {
  client.setQueriesData<TicketListResponse>({ queryKey: queryKeys.tickets.lists }, (list) => list && withRows(list, list.data.map((t) => (t.id === ticket.id ? ticket : t))));
}

/** A changed ticket's fields take their place in the open ticket, keeping its comments and history. */
export function patchTicketDetail(client: QueryClient, ticket: Ticket): void {
  client.setQueryData<TicketResponse>(queryKeys.tickets.detail(ticket.id), (detail) => detail && { ...detail, ticket: { ...detail.ticket, ...ticket } });
}

/** Both envelope arrays carry the same page (CONTRACT §4); a removed row leaves the total too. */
function withRows(list: TicketListResponse, rows: Ticket[]): TicketListResponse {
  return { ...list, tickets: rows, data: rows, total: Math.max(0, list.total - (list.data.length - rows.length)) };
}
