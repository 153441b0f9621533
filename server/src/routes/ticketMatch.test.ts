import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  PRIORITIES,
  ticketMatchesFilters,
  ticketQueryParams,
  type Priority,
  type Ticket,
  type TicketFilters,
  type TicketStatus,
  type View,
} from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';

/**
 * The protocol's "does this ticket match these filters" against the SQL that answers the same
 * question (the list, and the saved views' counts), over a data set chosen to tell them apart:
 * every status, priority and assignee, case and non-ASCII letters, punctuation of several scripts,
 * word starts and middles, words split between title and description, and a word longer than the
 * index's 100-character pieces. If either side changes alone, this fails.
 */
describe('the shared ticket predicate agrees with the SQL', () => {
  let t: TestServer;
  let agent: Account, colleague: Account, owner: Account;
  let tickets: Ticket[];

  const TEXTS: [string, string][] = [
    ['Printer jams', 'On floor 3, every morning'],
    ['PRINTER on fire', 'Smoke everywhere'],
    ['İstanbul office VPN', 'The ΟΔΟΣ street branch drops'],
    ['50% discount code', 'a_b fails, path C:\\temp'],
    ['Straße sign-in', 'ÄRGER with the portal'],
    ['Paper jams', 'on the second floor'],
    ['Mailbox full', 'Quota reached; mail bounces'],
    ['Σ report', 'Weekly σ numbers are wrong'],
    ['Wi\u2011Fi\u2014down \u201cagain\u201d', 'naïve 3×4 café\u2026 and\u00a0more'],
    ['Log dump attached', `${'x'.repeat(150)}y end`],
  ];
  const STATUSES: (TicketStatus | 'in-progress' | undefined)[] = [undefined, 'open', 'in_progress', 'in-progress', 'resolved', 'closed'];
  const SEARCHES = [
    'printer',
    'PRINTER',
    'jams on',
    'istanbul',
    'İSTANBUL',
    'οδοσ',
    'σ',
    '50%',
    '%',
    'a_b',
    '_',
    '\\temp',
    'straße',
    'är',
    'quota reached; mail',
    'not anywhere',
    'prin',
    'rinter',
    'fi down',
    'again',
    '3×4',
    'naï more',
    'x'.repeat(120),
    `${'x'.repeat(100)}xy`,
    `${'x'.repeat(50)}y`,
    // The search syntax: filters typed in the text, read the same way on both sides.
    'status:open printer',
    'priority:HIGH jams',
    'tag:alpha',
    'assignee:none printer',
    'tag:beta status:closed',
    'status:bogus printer',
    'colour:red',
    'category:billing',
  ];
  const TAGS = [undefined, 'alpha', 'beta'] as const;
  const CATEGORY_FILTERS = [undefined, ...CATEGORIES] as const;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ agent, owner } = await createCast(t));
    colleague = await insertUser(t, { role: 'agent', name: 'Colleague' });
    const assignees = [null, agent.user.id, colleague.user.id];
    const statuses: TicketStatus[] = ['open', 'in_progress', 'resolved', 'closed'];
    // 50 tickets: each text under several statuses, priorities and assignees.
    for (let i = 0; i < 50; i++) {
      const [title, description] = TEXTS[i % TEXTS.length]!;
      const created = await createTicket(t.api, owner.token, {
        title,
        description,
        priority: PRIORITIES[(i * 3) % 4]!,
        category: CATEGORIES[(i * 2) % CATEGORIES.length]!,
      });
      const status = statuses[Math.floor(i / 3) % 4]!;
      const assignedAgentId = assignees[(i * 7) % 3] ?? null;
      if (status !== 'open' || assignedAgentId !== null) {
        const res = await t.api.put(`/tickets/${created.id}`, { status, assignedAgentId }, { token: agent.token });
        expect(res.status).toBe(200);
      }
      const tags = [...(i % 3 === 0 ? ['alpha'] : []), ...(i % 4 === 1 ? ['beta'] : [])];
      if (tags.length > 0) expect((await t.api.put(`/tickets/${created.id}`, { tags }, { token: agent.token })).status).toBe(200);
    }
    const all = await t.api.get('/tickets?limit=100', { token: agent.token });
    tickets = all.body.data;
    expect(tickets).toHaveLength(50);
  });
  afterAll(() => ifSetUp(t)?.close());

  const predicateIds = (filters: TicketFilters, viewerId: number) =>
    tickets
      .filter((ticket) => ticketMatchesFilters(ticket, filters, viewerId))
      .map((ticket) => ticket.id)
      .sort((a, b) => a - b);
  const sqlIds = async (filters: TicketFilters) => {
    const res = await t.api.get(`/tickets?${new URLSearchParams({ ...ticketQueryParams(filters), limit: '100' }).toString()}`, {
      token: agent.token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as Ticket[]).map((ticket) => ticket.id).sort((a, b) => a - b);
  };

  /** Every status × priority × assignee, each search under each assignee, and seeded mixes of all four. */
  const combinations = (): TicketFilters[] => {
    const assignees = [undefined, 'me', 'none', colleague.user.id] as const;
    const priorities: (Priority | undefined)[] = [undefined, ...PRIORITIES];
    const out: TicketFilters[] = [];
    for (const status of STATUSES)
      for (const priority of priorities) for (const assignee of assignees) out.push({ status: status as TicketStatus, priority, assignee });
    for (const search of SEARCHES) for (const assignee of assignees) out.push({ search, assignee });
    for (const tag of TAGS) for (const status of STATUSES) out.push({ tag, status: status as TicketStatus });
    for (const category of CATEGORY_FILTERS) for (const assignee of assignees) out.push({ category, assignee, status: 'open' });
    let seed = 21;
    const pick = <T>(items: readonly T[]): T => items[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % items.length]!;
    for (let i = 0; i < 60; i++)
      out.push({
        status: pick(STATUSES) as TicketStatus,
        priority: pick(priorities),
        assignee: pick(assignees),
        search: pick(SEARCHES),
        tag: pick(TAGS),
        category: pick(CATEGORY_FILTERS),
      });
    return out;
  };

  it('selects the same tickets as the list query, for every filter', async () => {
    const disagreements: string[] = [];
    for (const filters of combinations()) {
      const [expected, actual] = [await sqlIds(filters), predicateIds(filters, agent.user.id)];
      if (JSON.stringify(expected) !== JSON.stringify(actual))
        disagreements.push(`${JSON.stringify(filters)}: SQL ${expected.join(',')} / predicate ${actual.join(',')}`);
    }
    expect(disagreements).toEqual([]);
    // The data set is varied enough to matter: most searches match something, not everything.
    const matched = SEARCHES.map((search) => predicateIds({ search }, agent.user.id).length);
    expect(matched.filter((n) => n > 0 && n < tickets.length).length).toBeGreaterThan(SEARCHES.length / 2);
  });

  it('counts each saved view as GET /views/counts does, filter-only and searched alike', async () => {
    const viewFilters: TicketFilters[] = [
      { status: 'in-progress' as TicketStatus },
      { status: 'open', assignee: 'me' },
      { priority: 'urgent', assignee: 'none' },
      { assignee: colleague.user.id, status: 'resolved' },
      { search: 'printer' },
      { search: 'jams on', assignee: 'me' },
      { search: 'σ', status: 'closed' },
      { search: '50%', priority: 'high', assignee: 'none' },
      { tag: 'alpha' },
      { tag: 'beta', status: 'open' },
      { search: 'tag:alpha printer' },
      { category: 'billing' },
      { category: 'technical', status: 'open', assignee: 'none' },
      { category: 'account', tag: 'alpha' },
      { category: 'general', search: 'printer' },
      { search: 'category:other' },
    ];
    const views: View[] = [];
    for (const [i, filters] of viewFilters.entries()) {
      const res = await t.api.post('/views', { name: `Match ${i}`, filters }, { token: agent.token });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      views.push(res.body.view);
    }
    const all = (await t.api.get('/views', { token: agent.token })).body.views as View[];
    const counts = (await t.api.get('/views/counts', { token: agent.token })).body.counts as Record<string, number>;
    // The built-in views are in the comparison too.
    expect(all.length).toBeGreaterThan(views.length);
    for (const view of all) expect([view.name, counts[view.id]]).toEqual([view.name, predicateIds(view.filters, agent.user.id).length]);
  });
});
