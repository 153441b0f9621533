import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { LIMITS, MESSAGES, type TicketStats } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, signUp, type Account } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { ifSetUp } from '../../test/hooks.js';

/** A small deterministic generator, so a failing sequence can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe('maintained counts, bounded lists and paged threads', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account, other: Account;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent, owner, other } = await createCast(t));
  });
  afterAll(async () => ifSetUp(t)?.close());

  /** The cards as count(*) computes them, straight from the tickets. */
  async function directStats(where: string): Promise<TicketStats> {
    const result = await t.server.database.db.execute(
      sql.raw(`select count(*)::int as total,
        count(*) filter (where status = 'open')::int as open, count(*) filter (where status = 'in_progress')::int as in_progress,
        count(*) filter (where status = 'pending')::int as pending, count(*) filter (where status = 'resolved')::int as resolved, count(*) filter (where status = 'closed')::int as closed,
        count(*) filter (where priority = 'urgent')::int as urgent from tickets where ${where}`),
    );
    const [row] = (result as { rows: TicketStats[] }).rows;
    if (!row) throw new Error('count(*) returned no row');
    return row;
  }

  async function expectCountsExact(agents: Account[], users: Account[]) {
    const cases: [Account, string, string][] = [[admin, '', 'true']];
    for (const status of ['open', 'in_progress', 'pending', 'resolved', 'closed'])
      cases.push([admin, `status=${status}`, `status = '${status}'`]);
    for (const priority of ['low', 'urgent']) cases.push([admin, `priority=${priority}`, `priority = '${priority}'`]);
    cases.push([admin, 'status=open&priority=high', `status = 'open' and priority = 'high'`]);
    // A category reads its own counters (migration 0036), alone and beside the other filters.
    for (const category of ['general', 'billing']) cases.push([admin, `category=${category}`, `category = '${category}'`]);
    cases.push([
      admin,
      'category=technical&status=open&priority=urgent',
      `category = 'technical' and status = 'open' and priority = 'urgent'`,
    ]);
    cases.push([admin, 'assignee=none&category=billing', `assigned_agent_id is null and category = 'billing'`]);
    cases.push([admin, 'search=category:billing', `category = 'billing'`]);
    cases.push([admin, 'search=printer&category=general', `search_words @@ 'printer:*'::tsquery and category = 'general'`]);
    cases.push([admin, 'search=PRINTER', `search_words @@ 'printer:*'::tsquery`]);
    cases.push([admin, 'search=printer&status=resolved', `search_words @@ 'printer:*'::tsquery and status = 'resolved'`]);
    for (const a of agents) {
      cases.push([a, 'mine=1', `assigned_agent_id = ${a.user.id}`]);
      cases.push([a, 'mine=1&status=in_progress', `assigned_agent_id = ${a.user.id} and status = 'in_progress'`]);
      cases.push([a, 'mine=1&category=technical', `assigned_agent_id = ${a.user.id} and category = 'technical'`]);
    }
    for (const u of users) {
      cases.push([u, '', `user_id = ${u.user.id}`]);
      cases.push([u, 'search=fire', `user_id = ${u.user.id} and search_words @@ 'fire:*'::tsquery`]);
      cases.push([u, 'status=open', `user_id = ${u.user.id} and status = 'open'`]);
      cases.push([u, 'category=billing', `user_id = ${u.user.id} and category = 'billing'`]);
    }
    for (const [account, query, where] of cases) {
      const expected = await directStats(where);
      const stats = await t.api.get(`/tickets/stats?${query}`, { token: account.token });
      expect(stats.body.stats, `stats ${query} as ${account.user.name}`).toEqual(expected);
      const list = await t.api.get(`/tickets?${query}`, { token: account.token });
      expect(list.body.total, `total ${query} as ${account.user.name}`).toBe(expected.total);
    }
  }

  /** ticket_category_counts as the trigger keeps it, and as counted again from the tickets: equal when exact. */
  async function categoryCounters() {
    const rows = async (query: string) => ((await t.server.database.db.execute(sql.raw(query))) as { rows: unknown[] }).rows;
    return {
      held: await rows(`select category::text, agent_id, status::text, priority::text, sla_state, n from ticket_category_counts
        where n <> 0 order by 1, 2, 3, 4, 5`),
      recounted: await rows(`select t.category::text, v.agent_id, t.status::text, t.priority::text, coalesce(t.sla_state, '') as sla_state,
          count(*)::int as n
        from tickets t, lateral (values (coalesce(t.assigned_agent_id, 0)), (-1)) v(agent_id) group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`),
    };
  }

  it('keeps every card and list total equal to count(*) through creates, updates, bulk changes, deletes and an agent deleted', async () => {
    const next = random(42);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const categories = ['general', 'technical', 'billing'] as const;
    const agents = [
      agent,
      await signUp(t.api, { role: 'agent', name: 'Agent Two' }),
      await signUp(t.api, { role: 'agent', name: 'Agent Gone' }),
    ];
    const users = [owner, other];
    const ids: number[] = [];
    // Reads between the writes too: every answer kept until a write must be gone after it.
    await expectCountsExact(agents, users);
    for (let step = 0; step < 60; step++) {
      if (step % 20 === 19) await expectCountsExact(agents, users);
      const action = ids.length < 5 ? 0 : Math.floor(next() * 7);
      if (action === 0) {
        const u = pick(users);
        // Some without a category: `general` by default.
        const category = next() < 0.25 ? {} : { category: pick(categories) };
        ids.push((await createTicket(t.api, u.token, { priority: pick(['low', 'medium', 'high', 'urgent']), ...category })).id);
      } else if (action === 5) {
        const chosen = [...new Set([pick(ids), pick(ids), pick(ids)])];
        const changes = pick([
          { status: pick(['open', 'in_progress', 'pending', 'resolved', 'closed']) },
          { priority: pick(['low', 'urgent']) },
          { category: pick(categories) },
        ]);
        const bulk = await t.api.post('/tickets/bulk', { ids: chosen, changes }, { token: pick(agents.slice(0, 2)).token });
        expect(bulk.status).toBe(200);
      } else if (action === 4) {
        const id = ids.splice(Math.floor(next() * ids.length), 1)[0]!;
        expect((await t.api.delete(`/tickets/${id}`, { token: admin.token })).status).toBe(200);
      } else {
        const body =
          action === 6
            ? { category: pick(categories) }
            : [
                { status: pick(['open', 'in_progress', 'pending', 'resolved', 'closed']) },
                { priority: pick(['low', 'medium', 'high', 'urgent']) },
                { assignedAgentId: pick([...agents.map((a) => a.user.id), null]) },
              ][action - 1];
        expect((await t.api.put(`/tickets/${pick(ids)}`, body, { token: pick(agents.slice(0, 2)).token })).status).toBe(200);
      }
    }
    await expectCountsExact(agents, users);
    const gone = agents[2]!;
    for (const id of ids.slice(0, 3)) await t.api.put(`/tickets/${id}`, { assignedAgentId: gone.user.id }, { token: admin.token });
    expect((await t.api.delete(`/users/${gone.user.id}`, { token: admin.token })).status).toBe(200);
    await expectCountsExact(agents.slice(0, 2), users);
    const left: unknown = await t.server.database.db.execute(
      sql`select coalesce(sum(n), 0)::int as n from ticket_counts where agent_id = ${gone.user.id}`,
    );
    expect((left as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
    const { held, recounted } = await categoryCounters();
    expect(held).toEqual(recounted);
    // The all-tickets rows (-1) are every (status, priority) cell, so no question reads more than 16 rows.
    const cells = async (query: string) => ((await t.server.database.db.execute(sql.raw(query))) as { rows: unknown[] }).rows;
    const all = await cells(`select status::text, priority::text, n from ticket_counts where agent_id = -1 and n <> 0 order by 1, 2`);
    expect(all.length).toBeLessThanOrEqual(16);
    expect(all).toEqual(await cells(`select status::text, priority::text, count(*)::int as n from tickets group by 1, 2 order by 1, 2`));
  });

  it('keeps the tag counters, every-ticket rows included, equal to a recount through tag edits, bulk, moves, deletes and an agent deleted', async () => {
    const db = t.server.database.db;
    const rows = async (query: string) => ((await db.execute(sql.raw(query))) as { rows: unknown[] }).rows;
    const recounted = async () => ({
      counters: await rows(`select tag, agent_id, status::text, priority::text, n from ticket_tag_counts where n <> 0 order by 1, 2, 3, 4`),
      totals: await rows(`select tag, n from tag_counts where n <> 0 order by 1`),
    });
    const fromTickets = async () => ({
      counters: await rows(`select tag, agent_id, status, priority, count(*)::int as n from (
          select distinct t.id, g.tag, v.agent_id, t.status::text, t.priority::text
          from tickets t, unnest(t.tags) g(tag), lateral (values (coalesce(t.assigned_agent_id, 0)), (-1)) v(agent_id)) x
        group by 1, 2, 3, 4 order by 1, 2, 3, 4`),
      totals: await rows(`select tag, count(distinct id)::int as n from tickets, unnest(tags) tag group by 1 order by 1`),
    });
    const second = await signUp(t.api, { role: 'agent', name: 'Agent Tagging' });
    const gone = await signUp(t.api, { role: 'agent', name: 'Agent Leaving' });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await createTicket(t.api, owner.token)).id);
    const put = async (id: number, body: object) =>
      expect((await t.api.put(`/tickets/${id}`, body, { token: admin.token })).status).toBe(200);
    await put(ids[0]!, { tags: ['billing', 'vip'], assignedAgentId: agent.user.id });
    await put(ids[1]!, { tags: ['billing'], assignedAgentId: gone.user.id, status: 'in_progress' });
    await put(ids[2]!, { tags: ['vpn', 'vip'], assignedAgentId: gone.user.id });
    await put(ids[3]!, { tags: ['billing'] });
    const bulk = (changes: object) => t.api.post('/tickets/bulk', { ids: ids.slice(0, 5), changes }, { token: admin.token });
    expect((await bulk({ addTags: ['vpn'] })).status).toBe(200);
    expect((await bulk({ removeTags: ['billing'] })).status).toBe(200);
    expect((await bulk({ status: 'pending', priority: 'urgent' })).status).toBe(200);
    await put(ids[0]!, { assignedAgentId: second.user.id, tags: ['vip'] });
    await put(ids[4]!, { tags: [] });
    expect(await recounted()).toEqual(await fromTickets());
    // One statement inserting several tagged tickets, a tag repeated in one of them: counted once per ticket.
    await db.execute(sql`
      insert into tickets (title, description, user_id, status, tags, assigned_agent_id)
      select 'Imported ' || g, 'Inserted in one statement', ${owner.user.id}, 'open', array['import', 'import', 'vip']::text[], ${second.user.id}
      from generate_series(1, 3) g`);
    expect((await t.api.delete(`/tickets/${ids[2]!}`, { token: admin.token })).status).toBe(200);
    expect((await t.api.delete(`/users/${gone.user.id}`, { token: admin.token })).status).toBe(200);
    const after = await recounted();
    expect(after).toEqual(await fromTickets());
    expect(after.counters).toContainEqual({ tag: 'import', agent_id: -1, status: 'open', priority: 'medium', n: 3 });
    // A list under a tag reads the every-ticket rows: at most 20 of them per tag (5 statuses by 4 priorities).
    const perTag = await rows(`select tag, count(*)::int as n from ticket_tag_counts where agent_id = -1 group by 1 having count(*) > 20`);
    expect(perTag).toEqual([]);
    const listed = await t.api.get('/tickets?tag=vip', { token: admin.token });
    expect(listed.body.total).toBe(
      ((await rows(`select count(*)::int as n from tickets where tags @> array['vip']`)) as { n: number }[])[0]!.n,
    );
    // The tag counters know no category: a tag with one is counted off the tickets, exactly under the cap.
    await put(ids[0]!, { category: 'billing' });
    for (const category of ['billing', 'general']) {
      const query = `tag=vip&category=${category}`;
      const expected = (
        (await rows(`select count(*)::int as n from tickets where tags @> array['vip'] and category = '${category}'`)) as {
          n: number;
        }[]
      )[0]!.n;
      expect((await t.api.get(`/tickets?${query}`, { token: admin.token })).body.total, query).toBe(expected);
      expect((await t.api.get(`/tickets/stats?${query}`, { token: admin.token })).body.stats.total, query).toBe(expected);
    }
  });

  it("keeps each ticket's comment count equal to its public comments through replies, notes, bulk inserts and deletes", async () => {
    const tickets = [
      await createTicket(t.api, owner.token),
      await createTicket(t.api, owner.token),
      await createTicket(t.api, owner.token),
    ];
    const comment = async (ticketId: number, account: Account, internal = false) =>
      expect((await t.api.post(`/tickets/${ticketId}/comments`, { content: 'A word', internal }, { token: account.token })).status).toBe(
        201,
      );
    await comment(tickets[0]!.id, owner);
    await comment(tickets[0]!.id, agent);
    await comment(tickets[0]!.id, agent, true);
    await comment(tickets[1]!.id, agent, true);
    // One statement writing several tickets' comments, as an import would: one count per ticket.
    await t.server.database.db.execute(
      sql.raw(`insert into ticket_comments (ticket_id, author_id, content, internal)
        select id, ${agent.user.id}, 'Bulk', g % 2 = 0 from (values (${tickets[1]!.id}), (${tickets[2]!.id})) v(id), generate_series(1, 5) g`),
    );
    const shown = async (account: Account) =>
      Object.fromEntries(
        ((await t.api.get('/tickets?limit=100', { token: account.token })).body.tickets as { id: number; commentCount: number }[])
          .filter((x) => tickets.some((ticket) => ticket.id === x.id))
          .map((x) => [x.id, x.commentCount]),
      );
    const expected = { [tickets[0]!.id]: 2, [tickets[1]!.id]: 3, [tickets[2]!.id]: 3 };
    expect(await shown(owner)).toEqual(expected);
    expect(await shown(agent)).toEqual(expected);
    expect((await t.api.get(`/tickets/${tickets[1]!.id}`, { token: agent.token })).body.ticket.commentCount).toBe(3);
    await t.server.database.db.execute(
      sql.raw(`delete from ticket_comments where ticket_id = ${tickets[2]!.id} and content = 'Bulk' and not internal`),
    );
    expect((await shown(owner))[tickets[2]!.id]).toBe(0);
    // A ticket's deletion takes its comments with it; the counter of a row already gone is no error.
    expect((await t.api.delete(`/tickets/${tickets[0]!.id}`, { token: admin.token })).status).toBe(200);
    const drift = await t.server.database.db.execute(
      sql`select t.id from tickets t where t.comment_count <> (select count(*) from ticket_comments c where c.ticket_id = t.id and not c.internal)`,
    );
    expect((drift as { rows: unknown[] }).rows).toEqual([]);
  });

  it("keeps a search's kept count right through each write: create, edit, status change and delete", async () => {
    const word = 'Quagmirecount';
    const counts = async () => {
      const [list, stats] = await Promise.all([
        t.api.get(`/tickets?search=${word}`, { token: admin.token }),
        t.api.get(`/tickets/stats?search=${word}`, { token: admin.token }),
      ]);
      expect(list.body.total).toBe(stats.body.stats.total);
      return stats.body.stats as TicketStats;
    };
    expect((await counts()).total).toBe(0);
    const ticket = await createTicket(t.api, owner.token, { title: `${word} in the title` });
    expect(await counts()).toMatchObject({ total: 1, open: 1, in_progress: 0 });
    await t.api.put(`/tickets/${ticket.id}`, { status: 'in_progress' }, { token: agent.token });
    expect(await counts()).toMatchObject({ total: 1, open: 0, in_progress: 1 });
    await t.api.put(`/tickets/${ticket.id}`, { title: 'Nothing to find here' }, { token: owner.token });
    expect((await counts()).total).toBe(0);
    await t.api.put(`/tickets/${ticket.id}`, { description: `Now ${word.toUpperCase()} is in the description` }, { token: owner.token });
    expect((await counts()).total).toBe(1);
    expect((await t.api.delete(`/tickets/${ticket.id}`, { token: admin.token })).status).toBe(200);
    expect((await counts()).total).toBe(0);
  });

  it('answers an empty page with its count: none on the first, the whole total past the last', async () => {
    const word = 'Emptypagecount';
    for (let i = 0; i < 3; i++) await createTicket(t.api, owner.token, { title: `${word} ${i}`, priority: 'low' });
    const expectPage = async (query: string, total: number, rows: number) => {
      const res = await t.api.get(`/tickets?${query}`, { token: admin.token });
      expect(res.status, query).toBe(200);
      expect(res.body.total, query).toBe(total);
      expect(res.body.totalCapped, query).not.toBe(true);
      expect(res.body.tickets, query).toHaveLength(rows);
    };
    // A search read with its count, a plain filter read off the counters, a requester counted to the cap.
    await expectPage(`search=${word}`, 3, 3);
    await expectPage(`search=${word}&page=2&limit=2`, 3, 1);
    await expectPage(`search=${word}&page=3&limit=2`, 3, 0);
    await expectPage(`search=${word}&priority=urgent`, 0, 0);
    await expectPage(`search=${word}xyz`, 0, 0);
    await expectPage(`search=${word}&priority=urgent&page=2`, 0, 0);
    const lows = (await t.api.get('/tickets?priority=low', { token: admin.token })).body.total as number;
    expect(lows).toBeGreaterThanOrEqual(3);
    await expectPage('priority=low&page=999', lows, 0);
    const idle = await signUp(t.api, { role: 'agent', name: 'Agent Idle' });
    await expectPage(`assignee=${idle.user.id}&status=pending`, 0, 0);
    const quiet = await signUp(t.api, { name: 'Quiet Requester' });
    await createTicket(t.api, quiet.token, { title: 'One open ticket' });
    await expectPage(`requester=${encodeURIComponent(quiet.user.email)}`, 1, 1);
    await expectPage(`requester=${encodeURIComponent(quiet.user.email)}&status=pending`, 0, 0);
    await expectPage(`requester=${encodeURIComponent(quiet.user.email)}&page=5`, 1, 0);
  });

  it('carries the rows after the page as spares, in the same order, for every caller', async () => {
    for (let i = 0; i < 9; i++) await createTicket(t.api, other.token, { title: `Spare row ticket ${i}` });
    for (const [account, query] of [
      [admin, 'limit=3&sort=createdAt'],
      [admin, 'limit=4&page=2&sort=-createdAt'],
      [other, 'limit=2'],
    ] as const) {
      const whole = await t.api.get(`/tickets?${query.replace(/limit=\d+&?(page=\d+&?)?/, '')}&limit=100`, { token: account.token });
      const res = await t.api.get(`/tickets?${query}`, { token: account.token });
      const { page, limit } = res.body as { page: number; limit: number };
      const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
      const expected = ids(whole.body.tickets).slice((page - 1) * limit, page * limit + LIMITS.ticketList.spare);
      expect([...ids(res.body.tickets), ...ids(res.body.next)], `${query} as ${account.user.name}`).toEqual(expected);
      expect(res.body.next.length, query).toBe(LIMITS.ticketList.spare);
    }
    const last = await t.api.get('/tickets?limit=100', { token: other.token });
    expect(last.body.next).toEqual([]);
  });

  it('answers a page past the end at once, empty, with the total', async () => {
    const total = (await t.api.get('/tickets', { token: admin.token })).body.total as number;
    const res = await t.api.get('/tickets?page=9999999', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, tickets: [], data: [], next: [], total, page: 9_999_999 });
  });

  it('refuses a page deeper than the bound with a message saying what to do', async () => {
    // In small batches, each followed by a request: PGlite runs in the server's process, and inserts
    // that stall it past the HTTP keep-alive timeout (a loaded CI machine took a batch of 1,000 there)
    // leave the client's kept connection to be closed under its next request (ECONNRESET).
    const rows = LIMITS.ticketList.depth + 20;
    const batch = 250;
    for (let from = 1; from <= rows; from += batch) {
      await t.server.database.db.execute(
        sql.raw(
          `insert into tickets (title, description, user_id) select 'Bulk ' || g, 'Bulk ticket body', ${owner.user.id} from generate_series(${from}, ${Math.min(from + batch - 1, rows)}) g`,
        ),
      );
      expect((await t.api.get('/health')).status).toBe(200);
    }
    const deep = await t.api.get(`/tickets?page=${LIMITS.ticketList.depth / 10 + 1}&limit=10`, { token: admin.token });
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe(MESSAGES.tickets.pageTooDeep(LIMITS.ticketList.depth));
    const last = await t.api.get(`/tickets?page=${LIMITS.ticketList.depth / 10}&limit=10`, { token: admin.token });
    expect(last.status).toBe(200);
    expect(last.body.tickets).toHaveLength(10);
  });

  it('caps the count of a search that matches more than the cap, and says so', async () => {
    const res = await t.api.get('/tickets?search=bulk', { token: admin.token });
    expect(res.body).toMatchObject({ total: LIMITS.ticketList.countCap, totalCapped: true });
    expect(res.body.tickets).toHaveLength(10);
    const stats = await t.api.get('/tickets/stats?search=bulk', { token: admin.token });
    expect(stats.body).toMatchObject({ totalCapped: true, stats: { total: LIMITS.ticketList.countCap } });
    const few = await t.api.get('/tickets?search=Bulk%2012345', { token: admin.token });
    expect(few.body.total).toBe(0);
    expect(few.body.totalCapped).toBeUndefined();
  });

  it('opens a ticket with its latest 50 comments and pages the older ones by cursor', async () => {
    const ticket = await createTicket(t.api, owner.token);
    for (let i = 1; i <= 60; i++) await t.api.post(`/tickets/${ticket.id}/comments`, { content: `Comment ${i}` }, { token: owner.token });
    const detail = (await t.api.get(`/tickets/${ticket.id}`, { token: owner.token })).body.ticket;
    expect(detail.comments).toHaveLength(50);
    expect(detail.comments[0].content).toBe('Comment 11');
    expect(detail.comments[49].content).toBe('Comment 60');
    expect(detail.hasOlderComments).toBe(true);
    expect(detail.history).toHaveLength(50);
    expect(detail.hasOlderHistory).toBe(true);
    expect(detail.commentCount).toBe(60);

    const older = await t.api.get(`/tickets/${ticket.id}/comments?before=${detail.comments[0].id}`, { token: owner.token });
    expect(older.body).toMatchObject({ success: true, hasMore: false });
    expect(older.body.comments.map((c: { content: string }) => c.content)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Comment ${i + 1}`),
    );
    const history = await t.api.get(`/tickets/${ticket.id}/history?before=${detail.history[0].id}`, { token: owner.token });
    expect(history.body.history.map((h: { type: string }) => h.type)).toEqual(['created', ...Array(10).fill('comment')]);
    expect(history.body.hasMore).toBe(false);

    expect((await t.api.get(`/tickets/${ticket.id}/comments?before=${detail.comments[0].id}`, { token: other.token })).status).toBe(404);
    expect((await t.api.get(`/tickets/${ticket.id}/comments`, { token: owner.token })).status).toBe(400);
  });
});
