import type { Category, ReportQuery } from '@helpdesk/protocol';
import { notificationsKey } from './notificationCache';

/** A page of the knowledge base as its key holds it (api/knowledge.ts sends it). */
export interface ArticleListParams {
  search?: string;
  category?: Category | '';
  page?: number;
  limit?: number;
}

/** The reports the page reads (docs/api.md#reports); the CSV download is not cached. */
export type ReportName = 'summary' | 'timeseries' | 'backlog' | 'breakdown' | 'agents';

/**
 * Every cached query's key but the tickets', which live with their writers in ticketCache.ts. Socket
 * events address cached data through these prefixes, so a key lives here once and nowhere else.
 */
export const queryKeys = {
  knowledge: {
    all: ['knowledge'] as const,
    lists: ['knowledge', 'list'] as const,
    list: (params: ArticleListParams) => ['knowledge', 'list', params] as const,
    details: ['knowledge', 'detail'] as const,
    detail: (id: number) => ['knowledge', 'detail', id] as const,
  },
  users: {
    profile: ['users', 'profile'] as const,
    staff: ['users', 'staff'] as const,
    staffDirectory: ['users', 'staff-directory'] as const,
  },
  notifications: notificationsKey,
  apiTokens: ['api-tokens'] as const,
  csat: {
    link: (token: string) => ['csat', 'link', token] as const,
    ticket: (ticketId: number) => ['csat', 'ticket', ticketId] as const,
  },
  config: ['config'] as const,
  sla: {
    calendars: ['sla', 'calendars'] as const,
    policies: ['sla', 'policies'] as const,
  },
  webhooks: {
    all: ['webhooks'] as const,
    list: ['webhooks', 'list'] as const,
    deliveries: (id: number) => ['webhooks', 'deliveries', id] as const,
  },
  email: {
    settings: ['email', 'settings'] as const,
    inbound: ['email', 'inbound'] as const,
  },
  desk: {
    tags: ['desk', 'tags'] as const,
    requesterTickets: (userId: number) => ['desk', 'requester', userId] as const,
  },
  /** The Reports page's reads; live changes refetch them all under `all` (features/reports/useLiveReports.ts). */
  reports: {
    all: ['reports'] as const,
    report: (name: ReportName, query: ReportQuery) => ['reports', name, query] as const,
  },
  queue: {
    views: ['queue', 'views'] as const,
    viewCounts: ['queue', 'views', 'counts'] as const,
    canned: ['queue', 'canned'] as const,
  },
};
