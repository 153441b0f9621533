import type { Comment, HistoryEntry, Ticket, TicketDetail, TicketStats, User } from '@helpdesk/protocol';
import { configure } from '@testing-library/react';
import { testUser } from './renderApp';

/** Test data for the ticket screens' component tests (imported by tests only). */
export const owner = testUser();
export const agent: User = testUser({ id: 2, name: 'Agent Smith', email: 'agent@example.com', role: 'agent' });
export const admin: User = testUser({ id: 3, name: 'Root Admin', email: 'admin@example.com', role: 'admin' });

export const verified = (user: User) => ({ 'GET /auth/verify': { body: { success: true, user } } });

export const aTicket = (overrides: Partial<Ticket> = {}): Ticket => ({
  id: 7,
  title: 'Printer is on fire',
  description: 'Smoke comes out of the printer on floor 3.',
  priority: 'medium',
  category: 'general',
  status: 'open',
  resolutionNotes: null,
  user: { id: owner.id, name: owner.name },
  assignedAgent: null,
  updatedBy: null,
  commentCount: 0,
  answered: false,
  version: 1,
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
  lastActivityAt: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

export const aComment = (overrides: Partial<Comment> = {}): Comment => ({
  id: 1,
  ticketId: 7,
  content: 'Have you tried turning it off and on again?',
  author: { id: agent.id, name: agent.name, role: 'agent' },
  internal: false,
  createdAt: '2026-03-01T10:00:00.000Z',
  attachments: [],
  ...overrides,
});

export const aHistoryEntry = (overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  id: 1,
  ticketId: 7,
  type: 'created',
  from: null,
  to: 'open',
  actor: { id: owner.id, name: owner.name },
  createdAt: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

export const aDetail = (overrides: Partial<TicketDetail> = {}): TicketDetail => ({
  ...aTicket(),
  comments: [],
  history: [aHistoryEntry()],
  attachments: [],
  ...overrides,
});

export const detailBody = (ticket: TicketDetail) => ({ body: { success: true, ticket } });

export const listBody = (tickets: Ticket[], total = tickets.length, page = 1, limit = 10) => ({
  body: { success: true, tickets, data: tickets, total, page, limit },
});

export const statsBody = (stats: Partial<TicketStats> = {}) => ({
  body: { success: true, stats: { total: 0, open: 0, in_progress: 0, pending: 0, resolved: 0, closed: 0, urgent: 0, ...stats } },
});

export const failure = (status: number, message = 'Something went wrong on our side. Please try again later.') => ({
  status,
  body: { success: false, message },
});

/** Pages are lazy chunks; on a busy two-core machine the first render can take over a second. */
export const allowForLazyPages = () => configure({ asyncUtilTimeout: 5000 });
