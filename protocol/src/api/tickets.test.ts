import { describe, expect, it } from 'vitest';
import {
  changeTicketQuery,
  DEFAULT_TICKET_QUERY,
  hasTicketFilters,
  ticketQueryParams,
  ticketQueryToUrl,
  type TicketFilters,
  type TicketQuery,
} from './ticketQuery.js';
import { MESSAGES } from '../messages.js';
import { bulkUpdateBody, createTicketBody, ticketFiltersQuery, ticketListQuery, ticketQueryFromUrl, updateTicketBody } from './tickets.js';
import { createViewBody } from './views.js';

const QUERIES: TicketQuery[] = [
  DEFAULT_TICKET_QUERY,
  { ...DEFAULT_TICKET_QUERY, page: 3 },
  {
    ...DEFAULT_TICKET_QUERY,
    status: 'in_progress',
    priority: 'urgent',
    search: 'printer on floor 3 & more',
    sort: { field: 'priority', descending: true },
    page: 2,
    limit: 25,
  },
  { ...DEFAULT_TICKET_QUERY, assignee: 'me', sort: { field: 'createdAt', descending: false }, limit: 100 },
  { ...DEFAULT_TICKET_QUERY, assignee: 'none', sort: { field: 'status', descending: false } },
  { ...DEFAULT_TICKET_QUERY, assignee: 42, sort: { field: 'lastActivityAt', descending: true } },
  { ...DEFAULT_TICKET_QUERY, sort: { field: 'id', descending: true } },
  { ...DEFAULT_TICKET_QUERY, category: 'billing', assignee: 'me', status: 'open' },
  { ...DEFAULT_TICKET_QUERY, sort: { field: 'updatedAt', descending: true } },
];

describe('TicketQuery', () => {
  it.each(QUERIES)('reads back from the page URL what it wrote: %j', (query) => {
    expect(ticketQueryFromUrl(ticketQueryToUrl(query))).toEqual(query);
  });

  it.each(QUERIES)('is what the server parses from the request it makes: %j', (query) => {
    // The server reads an absent `mine` flag as false.
    expect(ticketListQuery.parse(ticketQueryParams(query))).toEqual({ ...query, mine: false });
    const filters: TicketFilters = {
      status: query.status,
      priority: query.priority,
      category: query.category,
      search: query.search,
      assignee: query.assignee,
    };
    expect(ticketFiltersQuery.parse(ticketQueryParams(filters))).toEqual({ ...filters, mine: false });
  });

  it('writes only what differs from the defaults, in the order the lists have always used', () => {
    expect(ticketQueryToUrl(DEFAULT_TICKET_QUERY)).toBe('');
    const url = 'search=printer&status=open&priority=high&sort=-priority&page=2&limit=25';
    const query = ticketQueryFromUrl(`?${url}`);
    expect(query).toEqual({
      status: 'open',
      priority: 'high',
      search: 'printer',
      sort: { field: 'priority', descending: true },
      page: 2,
      limit: 25,
    });
    expect(ticketQueryToUrl(query)).toBe(url);
    expect(ticketQueryParams(DEFAULT_TICKET_QUERY)).toEqual({ sort: '-createdAt', page: '1', limit: '10' });
  });

  it('reads a value the server would refuse, or a page size not offered, as its default', () => {
    expect(ticketQueryFromUrl('status=bogus&priority=&search=%20%20&sort=title&page=0&limit=500&mine=maybe')).toEqual(DEFAULT_TICKET_QUERY);
    expect(ticketQueryFromUrl('status=open&page=x')).toEqual({ ...DEFAULT_TICKET_QUERY, status: 'open' });
    expect(ticketQueryFromUrl('limit=7', [10, 25]).limit).toBe(10);
    expect(ticketQueryFromUrl('limit=7').limit).toBe(7);
    expect(ticketQueryFromUrl('search=%20printer%20').search).toBe('printer');
  });

  it('goes back to page 1 on any change but to the page itself', () => {
    const onPage3 = { ...DEFAULT_TICKET_QUERY, page: 3 };
    expect(changeTicketQuery(onPage3, { status: 'open' })).toEqual({ ...DEFAULT_TICKET_QUERY, status: 'open' });
    expect(changeTicketQuery(onPage3, { limit: 25 })).toEqual({ ...DEFAULT_TICKET_QUERY, limit: 25 });
    expect(changeTicketQuery(onPage3, { page: 4 })).toEqual({ ...DEFAULT_TICKET_QUERY, page: 4 });
  });

  it('has filters when any filter is set, whatever the sort and page', () => {
    const sortedOnPage2: TicketQuery = { ...DEFAULT_TICKET_QUERY, page: 2, sort: { field: 'priority', descending: false } };
    expect(hasTicketFilters(sortedOnPage2)).toBe(false);
    expect(hasTicketFilters({ search: 'x' })).toBe(true);
    expect(hasTicketFilters({ mine: true })).toBe(true);
    expect(hasTicketFilters({ assignee: 'none' })).toBe(true);
    expect(hasTicketFilters({ category: 'other' })).toBe(true);
  });

  it('reads an old `mine=1` link as assignee=me and refuses an assignee that is not me, none or an id', () => {
    expect(ticketQueryFromUrl('mine=1')).toEqual({ ...DEFAULT_TICKET_QUERY, assignee: 'me' });
    expect(ticketQueryToUrl(ticketQueryFromUrl('mine=1'))).toBe('assignee=me');
    expect(ticketFiltersQuery.safeParse({ assignee: 'someone' }).success).toBe(false);
    expect(ticketFiltersQuery.safeParse({ assignee: '0' }).success).toBe(false);
    expect(ticketFiltersQuery.parse({ assignee: '7' }).assignee).toBe(7);
  });
});

describe('a ticket category', () => {
  const ticket = { title: 'Invoice is wrong', description: 'Charged twice this month.' };
  const refused = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

  it('is general unless given, and one of the categories with the articles’ message', () => {
    expect(createTicketBody.parse(ticket).category).toBe('general');
    expect(createTicketBody.parse({ ...ticket, category: 'billing' }).category).toBe('billing');
    for (const category of ['food', 'Billing', 3, null]) {
      expect(refused(createTicketBody.safeParse({ ...ticket, category }))).toBe(MESSAGES.validation.categoryInvalid);
      expect(refused(updateTicketBody.safeParse({ category }))).toBe(MESSAGES.validation.categoryInvalid);
      expect(refused(ticketFiltersQuery.safeParse({ category }))).toBe(MESSAGES.validation.categoryInvalid);
      expect(refused(createViewBody.safeParse({ name: 'x', filters: { category } }))).toBe(MESSAGES.validation.categoryInvalid);
    }
    expect(ticketQueryFromUrl('category=food')).toEqual(DEFAULT_TICKET_QUERY);
  });

  it('is a bulk change of its own', () => {
    expect(bulkUpdateBody.parse({ ids: [1], changes: { category: 'account' } }).changes).toEqual({ category: 'account' });
    expect(refused(bulkUpdateBody.safeParse({ ids: [1], changes: {} }))).toBe(
      'Choose at least one change: status, priority, category, assignedAgentId, addTags or removeTags',
    );
  });
});
