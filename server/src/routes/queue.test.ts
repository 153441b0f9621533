import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ticket, View } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, insertUser, type Account } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { sentinel, socketClients } from '../../test/socketClients.js';

/** docs/api.md#running-the-queue over real HTTP: assignment, sorting, follow-ups, bulk changes, unread. */
describe('running the queue', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account, other: Account, agent2: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent, owner, other } = await createCast(t));
    agent2 = await insertUser(t, { role: 'agent', name: 'Agent Two' });
  });
  afterEach(() => sockets.closeAll());
  afterAll(() => t.close());

  const list = async (query: string, token = agent.token) => {
    const res = await t.api.get(`/tickets?${query}`, { token });
    expect(res.status).toBe(200);
    return res.body as { data: Ticket[]; total: number };
  };
  const put = (id: number, body: object, token = agent.token) => t.api.put(`/tickets/${id}`, body, { token });
  const bulk = (body: unknown, token = agent.token) => t.api.post('/tickets/bulk', body, { token });

  describe('assignee filter', () => {
    it('lists and counts me, none and a staff member; mine=1 still means me; users cannot narrow to others', async () => {
      const mineT = await createTicket(t.api, owner.token, { title: 'Assignee filter mine' });
      const theirs = await createTicket(t.api, owner.token, { title: 'Assignee filter theirs' });
      const nobody = await createTicket(t.api, owner.token, { title: 'Assignee filter nobody' });
      await put(mineT.id, { assignedAgentId: agent.user.id });
      await put(theirs.id, { assignedAgentId: agent2.user.id });

      const ids = (page: { data: Ticket[] }) => page.data.map((x) => x.id);
      expect(ids(await list('assignee=me&limit=100'))).toContain(mineT.id);
      expect(ids(await list('assignee=me&limit=100'))).not.toContain(theirs.id);
      expect(ids(await list('mine=1&limit=100'))).toEqual(ids(await list('assignee=me&limit=100')));
      const unassigned = await list('assignee=none&limit=100');
      expect(ids(unassigned)).toContain(nobody.id);
      expect(unassigned.data.every((x) => x.assignedAgent === null)).toBe(true);
      const ofAgent2 = await list(`assignee=${agent2.user.id}&limit=100`);
      expect(ids(ofAgent2)).toEqual([theirs.id]);
      expect(ofAgent2.total).toBe(1);

      const stats = await t.api.get(`/tickets/stats?assignee=none`, { token: agent.token });
      expect(stats.body.stats.total).toBe(unassigned.total);
      const statsOf2 = await t.api.get(`/tickets/stats?assignee=${agent2.user.id}`, { token: admin.token });
      expect(statsOf2.body.stats).toMatchObject({ total: 1, open: 1 });

      // A user's list is their own whatever they ask for.
      const asUser = await list(`assignee=${agent2.user.id}&limit=100`, other.token);
      expect(asUser.total).toBe(0);
      const bad = await t.api.get('/tickets?assignee=someone', { token: agent.token });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('Assignee must be me, none or a support agent id');
    });
  });

  describe('sorting', () => {
    it('sorts by priority and status by rank, by id, and by last activity', async () => {
      const low = await createTicket(t.api, owner.token, { title: 'Sort low one', priority: 'low' });
      const urgent = await createTicket(t.api, owner.token, { title: 'Sort urgent one', priority: 'urgent' });
      const high = await createTicket(t.api, owner.token, { title: 'Sort high one', priority: 'high' });
      await put(low.id, { status: 'resolved' });
      await put(high.id, { status: 'in_progress' });
      const mine = [low.id, urgent.id, high.id];
      const order = async (sort: string) =>
        (await list(`sort=${sort}&limit=100`, owner.token)).data.map((x) => x.id).filter((id) => mine.includes(id));

      expect(await order('-priority')).toEqual([urgent.id, high.id, low.id]);
      expect(await order('status')).toEqual([urgent.id, high.id, low.id]);
      expect(await order('-status')).toEqual([low.id, high.id, urgent.id]);
      expect(await order('id')).toEqual([low.id, urgent.id, high.id]);
      expect(await order('-id')).toEqual([high.id, urgent.id, low.id]);

      // A comment is activity: the commented ticket comes first by last activity.
      await t.api.post(`/tickets/${urgent.id}/comments`, { content: 'Any news?' }, { token: owner.token });
      expect((await order('-lastActivityAt'))[0]).toBe(urgent.id);
      const bad = await t.api.get('/tickets?sort=title', { token: agent.token });
      expect(bad.body.message).toBe(
        'Sort must be one of createdAt, updatedAt, priority, id, status, lastActivityAt, slaDueAt, optionally prefixed with -',
      );
    });
  });

  describe('customer follow-ups', () => {
    it("reopens a resolved ticket on the owner's reply, with a history entry and an event; staff replies do not", async () => {
      const ticket = await createTicket(t.api, owner.token, { title: 'Follow up on resolved' });
      await put(ticket.id, { status: 'resolved' });
      const staffSocket = await sockets.listen(t.url, agent2.token);

      const staffReply = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Glad it works' }, { token: agent.token });
      expect(staffReply.status).toBe(201);
      expect((await t.api.get(`/tickets/${ticket.id}`, { token: owner.token })).body.ticket.status).toBe('resolved');

      const before: Ticket = (await t.api.get(`/tickets/${ticket.id}`, { token: owner.token })).body.ticket;
      const reply = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'It broke again' }, { token: owner.token });
      expect(reply.status).toBe(201);
      const after = (await t.api.get(`/tickets/${ticket.id}`, { token: owner.token })).body.ticket;
      expect(after).toMatchObject({ status: 'open', version: before.version + 1, updatedBy: { id: owner.user.id } });
      expect(after.lastActivityAt).toBe(reply.body.comment.createdAt);
      expect(after.history.at(-1)).toMatchObject({ type: 'status', from: 'resolved', to: 'open', actor: { id: owner.user.id } });
      const event = await staffSocket.next('ticket-changed', (e) => e.ticket.id === ticket.id && e.action === 'updated');
      expect(event).toMatchObject({ ticket: { status: 'open' }, previous: { status: 'resolved' }, by: { id: owner.user.id } });
    });

    it('keeps a closed ticket closed and tells its owner to open a new ticket', async () => {
      const ticket = await createTicket(t.api, owner.token, { title: 'Follow up on closed' });
      await put(ticket.id, { status: 'closed' });
      const res = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Hello again' }, { token: owner.token });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ success: false, message: 'This ticket is closed. Please open a new ticket to follow up.' });
      const detail = (await t.api.get(`/tickets/${ticket.id}`, { token: owner.token })).body.ticket;
      expect(detail).toMatchObject({ status: 'closed', commentCount: 0 });
      // Support can still note something on it.
      expect((await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Archived' }, { token: agent.token })).status).toBe(201);
    });

    it('moves last activity on every comment without a new version', async () => {
      const ticket = await createTicket(t.api, owner.token, { title: 'Activity on comment' });
      const res = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Looking into it' }, { token: agent.token });
      const detail = (await t.api.get(`/tickets/${ticket.id}`, { token: owner.token })).body.ticket;
      expect(detail).toMatchObject({ version: ticket.version, lastActivityAt: res.body.comment.createdAt, status: 'open' });
    });
  });

  describe('bulk', () => {
    it('changes each ticket as if alone: history, events, Start takes unassigned ones; failures per id', async () => {
      const a = await createTicket(t.api, owner.token, { title: 'Bulk first one' });
      const b = await createTicket(t.api, owner.token, { title: 'Bulk second one', priority: 'high' });
      const c = await createTicket(t.api, owner.token, { title: 'Bulk third one' });
      const closed = await createTicket(t.api, owner.token, { title: 'Bulk closed one' });
      await put(c.id, { assignedAgentId: agent2.user.id });
      await put(closed.id, { status: 'closed' });
      const watcher = await sockets.listen(t.url, agent2.token);
      const ownerSocket = await sockets.listen(t.url, owner.token);

      const res = await bulk({ ids: [a.id, b.id, c.id, closed.id, 999_999], changes: { status: 'in_progress', priority: 'high' } });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.updated.map((x: Ticket) => x.id)).toEqual([a.id, b.id, c.id]);
      expect(res.body.failed).toEqual([
        { id: closed.id, message: 'Closed tickets are not changed in bulk: reopen it from its own update screen' },
        { id: 999_999, message: 'Ticket not found' },
      ]);
      const [ua, ub, uc] = res.body.updated as Ticket[];
      expect(ua).toMatchObject({ status: 'in_progress', priority: 'high', assignedAgent: { id: agent.user.id }, version: a.version + 1 });
      expect(ub).toMatchObject({ status: 'in_progress', priority: 'high', assignedAgent: { id: agent.user.id } });
      expect(uc).toMatchObject({ status: 'in_progress', assignedAgent: { id: agent2.user.id } });

      // History as a single update writes it.
      const historyOf = async (id: number) => (await t.api.get(`/tickets/${id}`, { token: agent.token })).body.ticket.history;
      expect((await historyOf(a.id)).slice(1)).toEqual([
        expect.objectContaining({ type: 'priority', from: 'medium', to: 'high' }),
        expect.objectContaining({ type: 'status', from: 'open', to: 'in_progress' }),
        expect.objectContaining({ type: 'assigned', from: null, to: 'Agent Smith' }),
      ]);
      expect((await historyOf(b.id)).slice(1).map((h: { type: string }) => h.type)).toEqual(['status', 'assigned']);

      // One event per changed ticket, to staff and to the owner.
      await sentinel(t.api, admin.token, [watcher, ownerSocket]);
      const updates = (l: typeof watcher) => l.events['ticket-changed'].filter((e) => [a.id, b.id, c.id, closed.id].includes(e.ticket.id));
      expect(
        updates(watcher)
          .map((e) => e.ticket.id)
          .sort(),
      ).toEqual([a.id, b.id, c.id].sort());
      expect(updates(ownerSocket)).toHaveLength(3);
      const eventA = updates(watcher).find((e) => e.ticket.id === a.id);
      expect(eventA).toMatchObject({ action: 'updated', previous: { status: 'open', priority: 'medium', assignedAgent: null } });
    });

    it('sets a category on each ticket as a single update would: history, events with the previous one', async () => {
      const a = await createTicket(t.api, owner.token, { title: 'Bulk category one' });
      const b = await createTicket(t.api, owner.token, { title: 'Bulk category two', category: 'billing' });
      const watcher = await sockets.listen(t.url, agent2.token);
      const res = await bulk({ ids: [a.id, b.id], changes: { category: 'billing', priority: 'low' } });
      expect(res.status).toBe(200);
      expect(res.body.failed).toEqual([]);
      expect(res.body.updated.map((x: Ticket) => [x.id, x.category, x.priority])).toEqual([
        [a.id, 'billing', 'low'],
        [b.id, 'billing', 'low'],
      ]);
      const historyOf = async (id: number) => (await t.api.get(`/tickets/${id}`, { token: agent.token })).body.ticket.history;
      expect((await historyOf(a.id)).slice(1)).toEqual([
        expect.objectContaining({ type: 'priority', from: 'medium', to: 'low' }),
        expect.objectContaining({ type: 'category', from: 'general', to: 'billing' }),
      ]);
      // b already had the category: only its priority moved.
      expect((await historyOf(b.id)).slice(1).map((h: { type: string }) => h.type)).toEqual(['priority']);
      await sentinel(t.api, admin.token, [watcher]);
      const eventA = watcher.events['ticket-changed'].find((e) => e.ticket.id === a.id);
      expect(eventA).toMatchObject({ ticket: { category: 'billing' }, previous: { category: 'general', priority: 'medium' } });
      const eventB = watcher.events['ticket-changed'].find((e) => e.ticket.id === b.id);
      expect(eventB?.action === 'updated' && 'category' in eventB.previous).toBe(false);
    });

    it('answers an unchanged ticket as updated without a new version, and unassigns', async () => {
      const a = await createTicket(t.api, owner.token, { title: 'Bulk unassign one' });
      await put(a.id, { assignedAgentId: agent.user.id });
      const res = await bulk({ ids: [a.id], changes: { assignedAgentId: null } });
      expect(res.body.updated[0]).toMatchObject({ id: a.id, assignedAgent: null });
      const again = await bulk({ ids: [a.id], changes: { assignedAgentId: null } });
      expect(again.body.updated[0].version).toBe(res.body.updated[0].version);
    });

    it('fails every id alone when the assignee is not staff', async () => {
      const a = await createTicket(t.api, owner.token, { title: 'Bulk bad assignee' });
      const res = await bulk({ ids: [a.id], changes: { assignedAgentId: other.user.id } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        updated: [],
        failed: [{ id: a.id, message: 'Assigned agent must be an existing support agent' }],
      });
    });

    it('is for staff only and validates ids and changes', async () => {
      const a = await createTicket(t.api, owner.token, { title: 'Bulk forbidden one' });
      const asUser = await bulk({ ids: [a.id], changes: { status: 'resolved' } }, owner.token);
      expect(asUser.status).toBe(403);
      expect(asUser.body).toEqual({ success: false, message: 'Only support staff can perform this action' });
      expect((await t.api.post('/tickets/bulk', { ids: [a.id], changes: { status: 'resolved' } })).status).toBe(401);

      const cases: [unknown, string][] = [
        [{ ids: [], changes: { status: 'open' } }, 'Ids must be a list of 1 to 100 ticket ids'],
        [{ ids: Array.from({ length: 101 }, (_, i) => i + 1), changes: { status: 'open' } }, 'Ids must be a list of 1 to 100 ticket ids'],
        [{ ids: ['x'], changes: { status: 'open' } }, 'Ids must be a list of 1 to 100 ticket ids'],
        [{ ids: [a.id], changes: {} }, 'Choose at least one change: status, priority, category, assignedAgentId, addTags or removeTags'],
        [{ ids: [a.id], changes: { category: 'food' } }, 'Category must be one of general, technical, billing, account, other'],
        [{ ids: [a.id], changes: { status: 'done' } }, 'Status must be one of open, in_progress, pending, resolved, closed'],
      ];
      for (const [body, message] of cases) {
        const res = await bulk(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toBe(message);
      }
    });

    it('changes 100 tickets in one call', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 100; i++) ids.push((await createTicket(t.api, owner.token, { title: `Bulk hundred ${i}` })).id);
      const res = await bulk({ ids, changes: { status: 'resolved' } });
      expect(res.body.updated).toHaveLength(100);
      expect(res.body.updated.every((x: Ticket) => x.status === 'resolved')).toBe(true);
      const stats = await t.api.get('/tickets/stats', { token: admin.token });
      const counted = await t.api.get('/tickets?status=resolved&limit=1', { token: admin.token });
      expect(stats.body.stats.resolved).toBe(counted.body.total);
    });
  });

  describe('unread', () => {
    it('marks rows changed or commented by someone else since this staff member opened them', async () => {
      const ticket = await createTicket(t.api, owner.token, { title: 'Unread marks here' });
      const rowOf = async (token: string) => (await list('limit=100', token)).data.find((x) => x.id === ticket.id);
      expect((await rowOf(agent.token))?.unread).toBe(true);
      await t.api.get(`/tickets/${ticket.id}`, { token: agent.token });
      expect((await rowOf(agent.token))?.unread).toBe(false);
      // Own change: still read; a change by someone else: unread again.
      await put(ticket.id, { priority: 'high' });
      expect((await rowOf(agent.token))?.unread).toBe(false);
      await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Still broken' }, { token: owner.token });
      expect((await rowOf(agent.token))?.unread).toBe(true);
      // Another agent's own list is theirs; users never get the field.
      expect((await rowOf(agent2.token))?.unread).toBe(true);
      expect((await rowOf(owner.token))?.unread).toBeUndefined();
    });
  });

  describe('saved views', () => {
    const views = async (token = agent.token) => (await t.api.get('/views', { token })).body.views as View[];

    it('lists the built-in views first, then own and shared ones; never another agent’s private one', async () => {
      const mine = await t.api.post(
        '/views',
        { name: '  Urgent billing  ', filters: { priority: 'urgent', search: 'invoice' } },
        { token: agent.token },
      );
      expect(mine.status).toBe(201);
      expect(mine.body.view).toMatchObject({
        name: 'Urgent billing',
        filters: { priority: 'urgent', search: 'invoice' },
        shared: false,
        owner: { id: agent.user.id, name: 'Agent Smith' },
      });
      const shared = await t.api.post(
        '/views',
        { name: 'Team queue', filters: { assignee: 'none' }, sort: '-priority', shared: true },
        { token: admin.token },
      );
      expect(shared.status).toBe(201);
      const privateOfAdmin = await t.api.post('/views', { name: 'Admin only', filters: {} }, { token: admin.token });

      const seen = await views();
      expect(seen.slice(0, 3).map((v) => v.name)).toEqual(['My open tickets', 'Unassigned', 'Urgent']);
      expect(seen.slice(0, 3).every((v) => v.builtIn && v.owner === null && v.id < 0)).toBe(true);
      expect(seen.map((v) => v.id)).toEqual(expect.arrayContaining([mine.body.view.id, shared.body.view.id]));
      expect(seen.map((v) => v.id)).not.toContain(privateOfAdmin.body.view.id);

      expect((await t.api.put(`/views/${privateOfAdmin.body.view.id}`, { name: 'Mine now' }, { token: agent.token })).status).toBe(404);
      expect((await t.api.delete(`/views/${privateOfAdmin.body.view.id}`, { token: agent.token })).status).toBe(404);
    });

    it('lets only admins share or change shared views, and nobody change built-in ones', async () => {
      const share = await t.api.post('/views', { name: 'Shared by agent', filters: {}, shared: true }, { token: agent.token });
      expect(share.status).toBe(403);
      expect(share.body.message).toBe('Only administrators can create or change shared views');
      const teamView = (await t.api.post('/views', { name: 'Admin shared', filters: {}, shared: true }, { token: admin.token })).body.view;
      const edit = await t.api.put(`/views/${teamView.id}`, { name: 'Renamed' }, { token: agent.token });
      expect(edit.status).toBe(403);
      const own = (await t.api.post('/views', { name: 'Own view', filters: { status: 'open' } }, { token: agent.token })).body.view;
      expect((await t.api.put(`/views/${own.id}`, { shared: true }, { token: agent.token })).status).toBe(403);
      const renamed = await t.api.put(`/views/${own.id}`, { name: 'Own renamed', sort: '-updatedAt' }, { token: agent.token });
      expect(renamed.body.view).toMatchObject({ name: 'Own renamed', sort: '-updatedAt', filters: { status: 'open' } });
      const deleted = await t.api.delete(`/views/${own.id}`, { token: agent.token });
      expect(deleted.body).toEqual({ success: true, message: 'View deleted successfully' });
      expect((await t.api.delete(`/views/${own.id}`, { token: agent.token })).status).toBe(404);
      const builtIn = await t.api.delete('/views/-1', { token: admin.token });
      expect(builtIn.status).toBe(403);
      expect(builtIn.body.message).toBe('Built-in views cannot be changed or deleted');
      expect((await t.api.put('/views/-2', { name: 'x' }, { token: admin.token })).status).toBe(403);
      expect((await t.api.put(`/views/${teamView.id}`, { name: 'Admin renamed' }, { token: admin.token })).body.view.name).toBe(
        'Admin renamed',
      );
    });

    it('answers an update that changes nothing with the view as it is, as canned responses do', async () => {
      const own = (await t.api.post('/views', { name: 'Unchanged', filters: { priority: 'high' } }, { token: agent.token })).body.view;
      const unchanged = await t.api.put(`/views/${own.id}`, {}, { token: agent.token });
      expect(unchanged.status).toBe(200);
      expect(unchanged.body.view).toEqual(own);
    });

    it('validates names of 1 to 80 characters, filters and sort', async () => {
      const cases: [object, string][] = [
        [{ name: '   ' }, 'Name is required'],
        [{ name: 'x'.repeat(81) }, 'Name must be at most 80 characters long'],
        [{ name: 'ok', filters: { status: 'bogus' } }, 'Status must be one of open, in_progress, pending, resolved, closed'],
        [{ name: 'ok', filters: { assignee: 'who' } }, 'Assignee must be me, none or a support agent id'],
        [{ name: 'ok', filters: { category: 'food' } }, 'Category must be one of general, technical, billing, account, other'],
        [
          { name: 'ok', sort: 'title' },
          'Sort must be one of createdAt, updatedAt, priority, id, status, lastActivityAt, slaDueAt, optionally prefixed with -',
        ],
        [{ name: 'ok', shared: 'yes' }, 'Shared must be true or false'],
      ];
      for (const [body, message] of cases) {
        const res = await t.api.post('/views', body, { token: agent.token });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.message).toBe(message);
      }
      expect((await t.api.post('/views', { name: 'x'.repeat(80) }, { token: agent.token })).status).toBe(201);
    });

    it('refuses users on every call with 403', async () => {
      const calls = [
        t.api.get('/views', { token: owner.token }),
        t.api.get('/views/counts', { token: owner.token }),
        t.api.post('/views', { name: 'x' }, { token: owner.token }),
        t.api.put('/views/1', { name: 'x' }, { token: owner.token }),
        t.api.delete('/views/1', { token: owner.token }),
      ];
      for (const res of await Promise.all(calls)) expect(res.status).toBe(403);
    });

    it('counts every view in one call, equal to the list totals, and follows ticket events', async () => {
      const own = (
        await t.api.post(
          '/views',
          { name: 'Open urgent mine', filters: { status: 'open', priority: 'urgent', assignee: 'me' } },
          { token: agent.token },
        )
      ).body.view;
      const searched = (await t.api.post('/views', { name: 'Printers', filters: { search: 'printer' } }, { token: agent.token })).body.view;
      // Category views: summed from the category counters, alone or with other filters, or counted with a search or a tag.
      const billing = (await t.api.post('/views', { name: 'Billing', filters: { category: 'billing' } }, { token: agent.token })).body.view;
      const billingMine = (
        await t.api.post(
          '/views',
          { name: 'My open billing', filters: { category: 'billing', status: 'open', assignee: 'me' } },
          { token: agent.token },
        )
      ).body.view;
      expect(billingMine.filters).toEqual({ category: 'billing', status: 'open', assignee: 'me' });
      const billingPrinters = (
        await t.api.post(
          '/views',
          { name: 'Billing printers', filters: { category: 'billing', search: 'printer' } },
          { token: agent.token },
        )
      ).body.view;
      const billingTagged = (
        await t.api.post('/views', { name: 'Billing VIP', filters: { category: 'billing', tag: 'vip' } }, { token: agent.token })
      ).body.view;
      const check = async () => {
        const res = await t.api.get('/views/counts', { token: agent.token });
        expect(res.status).toBe(200);
        const all = await views();
        expect(Object.keys(res.body.counts).sort()).toEqual(all.map((v) => String(v.id)).sort());
        for (const view of all) {
          const params = new URLSearchParams(Object.entries(view.filters).map(([k, v]): [string, string] => [k, String(v)]));
          const total = (await list(`${params.toString()}&limit=1`)).total;
          expect(res.body.counts[view.id], view.name).toBe(total);
        }
        return res.body.counts as Record<string, number>;
      };
      const start = await check();
      const ticket = await createTicket(t.api, owner.token, { title: 'Printer jam urgent', priority: 'urgent' });
      await put(ticket.id, { assignedAgentId: agent.user.id });
      const after = await check();
      expect(after[own.id]).toBe((start[own.id] ?? 0) + 1);
      expect(after[searched.id]).toBe((start[searched.id] ?? 0) + 1);
      expect(after['-2']).toBe(start['-2']);
      expect(after[billing.id]).toBe(start[billing.id]);
      // Into billing, tagged: every category view moves by one.
      await put(ticket.id, { category: 'billing', tags: ['vip'] });
      const moved = await check();
      for (const view of [billing, billingMine, billingPrinters, billingTagged])
        expect(moved[view.id], view.name).toBe((start[view.id] ?? 0) + 1);
      await bulk({ ids: [ticket.id], changes: { status: 'resolved' } });
      const resolved = await check();
      expect(resolved[own.id]).toBe(start[own.id]);
      expect(resolved[billingMine.id]).toBe(start[billingMine.id]);
      expect(resolved[billing.id]).toBe((start[billing.id] ?? 0) + 1);
      await bulk({ ids: [ticket.id], changes: { category: 'general' } });
      expect((await check())[billing.id]).toBe(start[billing.id]);
    });
  });

  describe('canned responses', () => {
    it('creates, lists, changes and deletes own ones; shares only as admin; hides others’ private ones', async () => {
      const created = await t.api.post(
        '/canned-responses',
        { title: 'Greeting', content: 'Hi {{customer.name}}, about #{{ticket.id}}' },
        { token: agent.token },
      );
      expect(created.status).toBe(201);
      expect(created.body.cannedResponse).toMatchObject({
        title: 'Greeting',
        shared: false,
        owner: { id: agent.user.id, name: 'Agent Smith' },
      });
      const id = created.body.cannedResponse.id;
      const shared = await t.api.post(
        '/canned-responses',
        { title: 'Team sign-off', content: 'Regards, {{agent.name}}', shared: true },
        { token: admin.token },
      );
      expect(shared.status).toBe(201);
      const forbidden = await t.api.post('/canned-responses', { title: 'x', content: 'y', shared: true }, { token: agent.token });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.message).toBe('Only administrators can create or change shared canned responses');

      const seen = (await t.api.get('/canned-responses', { token: agent2.token })).body.cannedResponses as { id: number }[];
      expect(seen.map((c) => c.id)).toContain(shared.body.cannedResponse.id);
      expect(seen.map((c) => c.id)).not.toContain(id);
      expect((await t.api.put(`/canned-responses/${id}`, { title: 'Mine' }, { token: agent2.token })).status).toBe(404);
      expect(
        (await t.api.put(`/canned-responses/${shared.body.cannedResponse.id}`, { title: 'Mine' }, { token: agent2.token })).status,
      ).toBe(403);

      const changed = await t.api.put(`/canned-responses/${id}`, { content: 'Hello {{customer.name}}' }, { token: agent.token });
      expect(changed.body.cannedResponse).toMatchObject({ id, title: 'Greeting', content: 'Hello {{customer.name}}' });
      const deleted = await t.api.delete(`/canned-responses/${id}`, { token: agent.token });
      expect(deleted.body).toEqual({ success: true, message: 'Canned response deleted successfully' });
      expect((await t.api.delete(`/canned-responses/${id}`, { token: agent.token })).status).toBe(404);
    });

    it('validates title and content and refuses users', async () => {
      const cases: [object, string][] = [
        [{ title: '', content: 'x' }, 'Title is required'],
        [{ title: 'x'.repeat(81), content: 'x' }, 'Title must be at most 80 characters long'],
        [{ title: 'ok', content: '  ' }, 'Content is required'],
        [{ title: 'ok', content: 'x'.repeat(5001) }, 'Content must be at most 5000 characters long'],
      ];
      for (const [body, message] of cases) {
        const res = await t.api.post('/canned-responses', body, { token: agent.token });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(message);
      }
      expect((await t.api.post('/canned-responses', { title: 'ok', content: 'x'.repeat(5000) }, { token: agent.token })).status).toBe(201);
      for (const res of await Promise.all([
        t.api.get('/canned-responses', { token: owner.token }),
        t.api.post('/canned-responses', { title: 'a', content: 'b' }, { token: owner.token }),
        t.api.put('/canned-responses/1', { title: 'a' }, { token: owner.token }),
        t.api.delete('/canned-responses/1', { token: owner.token }),
      ]))
        expect(res.status).toBe(403);
    });
  });
});
