import type { ArticleListParams } from './knowledge';
import type { TicketFilterParams, TicketListParams } from './tickets';

/**
 * Every cached query's key. Socket events address cached data through these prefixes, so a key
 * lives here once and nowhere else.
 */
export const queryKeys = {
  tickets: {
    all: ['tickets'] as const,
    lists: ['tickets', 'list'] as const,
    list: (params: TicketListParams) => ['tickets', 'list', params] as const,
    stats: ['tickets', 'stats'] as const,
    statsFor: (params: TicketFilterParams) => ['tickets', 'stats', params] as const,
    details: ['tickets', 'detail'] as const,
    detail: (id: number) => ['tickets', 'detail', id] as const,
  },
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
  },
  config: ['config'] as const,
};
