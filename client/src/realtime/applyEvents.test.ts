import type { Article, ArticleListResponse, ArticleResponse, Comment, Ticket, TicketListResponse, TicketResponse } from '@helpdesk/protocol';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../api/queryKeys';
import { applyCommentAdded, applyHelpfulCount, applyTicketChanged } from './applyEvents';
import { wantsLiveUpdates } from './useRealtime';

const ticket = (id: number, overrides: Partial<Ticket> = {}): Ticket => ({
  id,
  title: `Ticket ${id}`,
  description: 'Something is broken here',
  priority: 'medium',
  status: 'open',
  resolutionNotes: null,
  user: { id: 7, name: 'Olive' },
  assignedAgent: null,
  updatedBy: null,
  commentCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
const page = (rows: Ticket[], total = rows.length): TicketListResponse => ({ success: true, tickets: rows, data: rows, total, page: 1, limit: 10 });
const comment = (id: number, ticketId: number): Comment => ({ id, ticketId, content: 'On it', author: { id: 2, name: 'Agent', role: 'agent' }, createdAt: '2026-01-02T00:00:00.000Z' });
const by = { id: 2, name: 'Agent' };

function cacheWith(rows: Ticket[]) {
  const client = new QueryClient();
  client.setQueryData(queryKeys.tickets.list({ page: 1 }), page(rows, 12));
  client.setQueryData<TicketResponse>(queryKeys.tickets.detail(1), { success: true, ticket: { ...rows[0]!, comments: [], history: [] } });
  return client;
}

describe('socket events written into the query cache', () => {
  it('ticket-changed updates the row and the open ticket at once and marks them for re-fetch', () => {
    const client = cacheWith([ticket(1), ticket(2)]);
    applyTicketChanged(client, { action: 'updated', ticket: ticket(1, { status: 'in_progress' }), by });
    const list = client.getQueryData<TicketListResponse>(queryKeys.tickets.list({ page: 1 }));
    expect(list?.data.map((t) => t.status)).toEqual(['in_progress', 'open']);
    expect(list?.tickets).toEqual(list?.data);
    expect(client.getQueryData<TicketResponse>(queryKeys.tickets.detail(1))?.ticket.status).toBe('in_progress');
    expect(client.getQueryState(queryKeys.tickets.list({ page: 1 }))?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.tickets.detail(1))?.isInvalidated).toBe(true);
  });

  it('ticket-changed "deleted" removes the row, lowers the total and drops the open ticket', () => {
    const client = cacheWith([ticket(1), ticket(2)]);
    applyTicketChanged(client, { action: 'deleted', ticket: { id: 1 }, by });
    const list = client.getQueryData<TicketListResponse>(queryKeys.tickets.list({ page: 1 }));
    expect(list?.data.map((t) => t.id)).toEqual([2]);
    expect(list?.total).toBe(11);
    expect(client.getQueryData(queryKeys.tickets.detail(1))).toBeUndefined();
  });

  it('ticket-changed "created" marks lists and counts for re-fetch (its place in a page is the server\'s call)', () => {
    const client = cacheWith([ticket(1)]);
    client.setQueryData(queryKeys.tickets.statsFor({}), { success: true, stats: { total: 1 } });
    applyTicketChanged(client, { action: 'created', ticket: ticket(3), by });
    expect(client.getQueryState(queryKeys.tickets.list({ page: 1 }))?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.tickets.statsFor({}))?.isInvalidated).toBe(true);
  });

  it('comment-added appends once to the open ticket and counts it on the row', () => {
    const client = cacheWith([ticket(1)]);
    applyCommentAdded(client, { ticketId: 1, comment: comment(5, 1) });
    applyCommentAdded(client, { ticketId: 1, comment: comment(5, 1) });
    expect(client.getQueryData<TicketResponse>(queryKeys.tickets.detail(1))?.ticket.comments.map((c) => c.id)).toEqual([5]);
    expect(client.getQueryData<TicketListResponse>(queryKeys.tickets.list({ page: 1 }))?.data[0]?.commentCount).toBe(2);
  });

  it('helpful-count sets the count on article cards and the open article', () => {
    const client = new QueryClient();
    const article = (id: number): Article => ({ id, title: 'VPN', content: 'Install the VPN client first.', category: 'technical', keywords: [], helpfulCount: 1, creator: null, createdAt: '', updatedAt: '' });
    client.setQueryData<ArticleListResponse>(queryKeys.knowledge.list({}), { success: true, data: { articles: [article(1), article(2)], total: 2 } });
    client.setQueryData<ArticleResponse>(queryKeys.knowledge.detail(1), { success: true, article: article(1) });
    applyHelpfulCount(client, { articleId: 1, helpfulCount: 9 });
    expect(client.getQueryData<ArticleListResponse>(queryKeys.knowledge.list({}))?.data.articles.map((a) => a.helpfulCount)).toEqual([9, 1]);
    expect(client.getQueryData<ArticleResponse>(queryKeys.knowledge.detail(1))?.article.helpfulCount).toBe(9);
  });
});

describe('when a socket is worth opening', () => {
  it.each([
    ['token', '/login', true],
    [null, '/login', false],
    [null, '/knowledge', true],
    [null, '/knowledge/4', true],
    [null, '/knowledgebase', false],
  ] as const)('token %s on %s → %s', (token, path, expected) => {
    expect(wantsLiveUpdates(token, path)).toBe(expected);
  });
});
