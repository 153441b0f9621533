import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Ticket, type TicketDetail } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, type Account } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { sentinel, socketClients } from '../../test/socketClients.js';

describe('tickets API', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account, other: Account;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent, owner, other } = await createCast(t));
  });
  afterAll(() => t.close());

  const detail = async (id: number, token = owner.token): Promise<TicketDetail> =>
    (await t.api.get(`/tickets/${id}`, { token })).body.ticket;

  describe('create', () => {
    it('creates an open ticket with medium priority by default and a created history entry', async () => {
      const res = await t.api.post(
        '/tickets',
        { title: '  Laptop will not boot  ', description: 'Black screen after the update.' },
        { token: owner.token },
      );
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ success: true, message: 'Ticket created successfully' });
      const ticket: Ticket = res.body.ticket;
      expect(ticket).toMatchObject({
        title: 'Laptop will not boot',
        status: 'open',
        priority: 'medium',
        resolutionNotes: null,
        user: { id: owner.user.id, name: 'Owner Olive' },
        assignedAgent: null,
        updatedBy: null,
        commentCount: 0,
      });
      expect(new Date(ticket.createdAt).toISOString()).toBe(ticket.createdAt);
      const full = await detail(ticket.id);
      expect(full.history).toEqual([
        expect.objectContaining({ type: 'created', from: null, to: 'open', actor: { id: owner.user.id, name: 'Owner Olive' } }),
      ]);
      expect(full.comments).toEqual([]);
    });
  });

  describe('category', () => {
    const sockets = socketClients();
    afterEach(() => sockets.closeAll());
    const history = async (id: number, token = owner.token) => (await detail(id, token)).history.map((h) => [h.type, h.from, h.to]);

    it('is general unless the owner picks one at creation, and refuses an unknown one with 400', async () => {
      expect((await createTicket(t.api, owner.token)).category).toBe('general');
      const picked = await createTicket(t.api, owner.token, { category: 'billing' });
      expect(picked.category).toBe('billing');
      expect((await detail(picked.id)).category).toBe('billing');
      // Staff read it too, in lists as on the page.
      const listed = (await t.api.get('/tickets?limit=100', { token: agent.token })).body.data as Ticket[];
      expect(listed.find((x) => x.id === picked.id)?.category).toBe('billing');
      for (const category of ['food', 'BILLING', 7, null]) {
        const res = await t.api.post(
          '/tickets',
          { title: 'Invoice is wrong', description: 'Charged twice this month.', category },
          { token: owner.token },
        );
        expect(res.status, JSON.stringify(category)).toBe(400);
        expect(res.body.message).toBe(MESSAGES.validation.categoryInvalid);
        expect(res.body.errors).toEqual({ category: MESSAGES.validation.categoryInvalid });
      }
    });

    it('refuses the owner a change with 403, and takes the category it already has as no change', async () => {
      const ticket = await createTicket(t.api, owner.token, { category: 'technical' });
      const refused = await t.api.put(
        `/tickets/${ticket.id}`,
        { category: 'billing', title: 'Printer and invoice' },
        { token: owner.token },
      );
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ success: false, message: 'Only support staff can change the category' });
      const same = await t.api.put(`/tickets/${ticket.id}`, { category: 'technical', priority: 'high' }, { token: owner.token });
      expect(same.status).toBe(200);
      expect(same.body.ticket).toMatchObject({ category: 'technical', priority: 'high', title: ticket.title });
      expect(await history(ticket.id)).toEqual([
        ['created', null, 'open'],
        ['priority', 'medium', 'high'],
      ]);
      const invalid = await t.api.put(`/tickets/${ticket.id}`, { category: 'food' }, { token: agent.token });
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toBe(MESSAGES.validation.categoryInvalid);
    });

    it('lets staff change it, with a history entry the owner sees and an event carrying the previous one', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const staffSocket = await sockets.listen(t.url, admin.token);
      const ownerSocket = await sockets.listen(t.url, owner.token);
      const res = await t.api.put(`/tickets/${ticket.id}`, { category: 'account' }, { token: agent.token });
      expect(res.status).toBe(200);
      expect(res.body.ticket).toMatchObject({ category: 'account', version: ticket.version + 1, updatedBy: { id: agent.user.id } });
      expect(await history(ticket.id)).toEqual([
        ['created', null, 'open'],
        ['category', 'general', 'account'],
      ]);
      await sentinel(t.api, admin.token, [staffSocket, ownerSocket]);
      for (const listener of [staffSocket, ownerSocket]) {
        const events = listener.events['ticket-changed'].filter((e) => e.ticket.id === ticket.id);
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({
          action: 'updated',
          ticket: { category: 'account' },
          previous: { category: 'general' },
          history: [expect.objectContaining({ type: 'category', from: 'general', to: 'account' })],
        });
      }
      // The same category again changes nothing: no version, no entry.
      const again = await t.api.put(`/tickets/${ticket.id}`, { category: 'account' }, { token: agent.token });
      expect(again.body.ticket.version).toBe(res.body.ticket.version);
    });

    it('filters lists and cards by category for owners and staff, an unknown one refused with 400', async () => {
      const mine = await createTicket(t.api, other.token, { category: 'other' });
      const ownList = (await t.api.get('/tickets?category=other', { token: other.token })).body;
      expect(ownList.tickets.map((x: Ticket) => x.id)).toEqual([mine.id]);
      expect((await t.api.get('/tickets/stats?category=other', { token: other.token })).body.stats).toMatchObject({ total: 1, open: 1 });
      const staff = (await t.api.get('/tickets?category=other&limit=100', { token: agent.token })).body;
      expect(staff.data.every((x: Ticket) => x.category === 'other')).toBe(true);
      expect(staff.total).toBe(staff.data.length);
      const stats = (await t.api.get('/tickets/stats?category=other', { token: agent.token })).body.stats;
      expect(stats.total).toBe(staff.total);
      for (const path of ['/tickets?category=food', '/tickets/stats?category=food']) {
        const res = await t.api.get(path, { token: agent.token });
        expect(res.status, path).toBe(400);
        expect(res.body.message).toBe(MESSAGES.validation.categoryInvalid);
      }
    });
  });

  describe('update', () => {
    it('records each real change in the history, sets updatedBy, and ignores no-op updates', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const edit = await t.api.put(
        `/tickets/${ticket.id}`,
        { title: 'Printer still on fire', priority: 'high', status: 'open' },
        { token: owner.token },
      );
      expect(edit.status).toBe(200);
      expect(edit.body).toMatchObject({ success: true, message: 'Ticket updated successfully!' });
      expect(edit.body.ticket).toMatchObject({ title: 'Printer still on fire', priority: 'high', updatedBy: { id: owner.user.id } });

      const again = await t.api.put(`/tickets/${ticket.id}`, { title: 'Printer still on fire', priority: 'high' }, { token: owner.token });
      expect(again.status).toBe(200);
      const history = (await detail(ticket.id)).history.map((h) => [h.type, h.from, h.to]);
      expect(history).toEqual([
        ['created', null, 'open'],
        ['edited', null, 'title'],
        ['priority', 'medium', 'high'],
      ]);
    });

    it('counts versions: 1 at creation, +1 per write however many fields it changes, none for a no-op or a comment', async () => {
      const ticket = await createTicket(t.api, owner.token);
      expect(ticket.version).toBe(1);
      const edit = await t.api.put(
        `/tickets/${ticket.id}`,
        { title: 'Printer on fire again', description: 'Flames this time, not smoke.', priority: 'urgent' },
        { token: owner.token },
      );
      expect(edit.body.ticket.version).toBe(2);
      const same = await t.api.put(`/tickets/${ticket.id}`, { priority: 'urgent' }, { token: owner.token });
      expect(same.body.ticket.version).toBe(2);
      // Starting work changes the status and the assignee in one write.
      const start = await t.api.put(`/tickets/${ticket.id}`, { status: 'in_progress' }, { token: agent.token });
      expect(start.body.ticket).toMatchObject({ version: 3, status: 'in_progress', assignedAgent: { id: agent.user.id } });
      await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'On my way with an extinguisher.' }, { token: agent.token });
      const full = await detail(ticket.id);
      expect(full.version).toBe(3);
      expect(full.commentCount).toBe(1);
      const listed = (await t.api.get('/tickets?limit=50', { token: owner.token })).body.tickets.find((x: Ticket) => x.id === ticket.id);
      expect(listed.version).toBe(3);
    });

    it('lets staff start work: status in_progress assigns the unassigned ticket to them', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const res = await t.api.put(`/tickets/${ticket.id}`, { status: 'in-progress' }, { token: agent.token });
      expect(res.status).toBe(200);
      expect(res.body.ticket).toMatchObject({
        status: 'in_progress',
        assignedAgent: { id: agent.user.id, name: 'Agent Smith' },
        updatedBy: { id: agent.user.id },
      });
      const types = (await detail(ticket.id)).history.map((h) => [h.type, h.from, h.to]);
      expect(types).toContainEqual(['status', 'open', 'in_progress']);
      expect(types).toContainEqual(['assigned', null, 'Agent Smith']);
    });

    it('lets staff resolve with notes, close, reassign and unassign', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const resolved = await t.api.put(
        `/tickets/${ticket.id}`,
        { status: 'resolved', resolutionNotes: 'Replaced the fuser.' },
        { token: agent.token },
      );
      expect(resolved.body.ticket).toMatchObject({ status: 'resolved', resolutionNotes: 'Replaced the fuser.' });
      const closed = await t.api.put(`/tickets/${ticket.id}`, { status: 'closed', assignedAgentId: admin.user.id }, { token: agent.token });
      expect(closed.body.ticket).toMatchObject({ status: 'closed', assignedAgent: { id: admin.user.id } });
      const unassigned = await t.api.put(`/tickets/${ticket.id}`, { assignedAgentId: null }, { token: admin.token });
      expect(unassigned.body.ticket.assignedAgent).toBeNull();
      const history = (await detail(ticket.id, agent.token)).history.map((h) => h.type);
      expect(history).toEqual(['created', 'status', 'resolution', 'status', 'assigned', 'assigned']);
    });

    it('refuses to assign a ticket to someone who is not support staff', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const res = await t.api.put(`/tickets/${ticket.id}`, { assignedAgentId: other.user.id }, { token: agent.token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: 'Assigned agent must be an existing support agent' });
      const missing = await t.api.put(`/tickets/${ticket.id}`, { assignedAgentId: 999_999 }, { token: agent.token });
      expect(missing.status).toBe(400);
    });

    it('lets the owner withdraw (close) their own ticket, and nobody else reach it', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const stranger = await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, { token: other.token });
      expect(stranger.status).toBe(404);
      expect((await detail(ticket.id)).status).toBe('open');
      const res = await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.body.ticket.status).toBe('closed');
      expect((await detail(ticket.id)).status).toBe('closed');
    });

    it('answers an empty update with a 400', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const res = await t.api.put(`/tickets/${ticket.id}`, {}, { token: owner.token });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('No changes were provided');
    });
  });

  describe('comments', () => {
    it('adds comments from the owner and staff, in order, with author roles and history', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const first = await t.api.post(`/tickets/${ticket.id}/comments`, { content: '  It smells of toner.  ' }, { token: owner.token });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        success: true,
        comment: { ticketId: ticket.id, content: 'It smells of toner.', author: { id: owner.user.id, name: 'Owner Olive', role: 'user' } },
      });
      await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'On my way with an extinguisher.' }, { token: agent.token });
      const full = await detail(ticket.id);
      expect(full.commentCount).toBe(2);
      expect(full.comments.map((c) => [c.author.role, c.content])).toEqual([
        ['user', 'It smells of toner.'],
        ['agent', 'On my way with an extinguisher.'],
      ]);
      expect(full.history.filter((h) => h.type === 'comment').map((h) => h.to)).toEqual(full.comments.map((c) => String(c.id)));
    });
  });

  describe('delete', () => {
    it('removes the ticket with its comments and history', async () => {
      const ticket = await createTicket(t.api, owner.token);
      await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Never mind.' }, { token: owner.token });
      const res = await t.api.delete(`/tickets/${ticket.id}`, { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Ticket deleted successfully' });
      expect((await t.api.get(`/tickets/${ticket.id}`, { token: admin.token })).status).toBe(404);
      expect((await t.api.delete(`/tickets/${ticket.id}`, { token: owner.token })).status).toBe(404);
    });
  });

  describe('list and stats', () => {
    let viewer: Account;
    const mine: Ticket[] = [];

    beforeAll(async () => {
      // A separate owner so counts are exact regardless of the other tests.
      const res = await t.api.post('/auth/register', {
        name: 'Lister Lou',
        email: `lister.${Date.now()}@example.test`,
        password: 'Secret123!',
      });
      viewer = { token: res.body.token, user: res.body.user, password: 'Secret123!' };
      const specs = [
        { title: 'VPN drops every hour', priority: 'high' },
        { title: 'Keyboard missing the % key', priority: 'low' },
        { title: 'Email quota exceeded', priority: 'urgent' },
        { title: 'Monitor flickers at 60 Hz', priority: 'medium' },
        { title: 'vpn certificate expired', priority: 'urgent' },
      ];
      for (const spec of specs) mine.push(await createTicket(t.api, viewer.token, { ...spec, description: `Details for: ${spec.title}.` }));
      await t.api.put(`/tickets/${mine[0]!.id}`, { status: 'in_progress' }, { token: agent.token });
      await t.api.put(`/tickets/${mine[1]!.id}`, { status: 'resolved' }, { token: agent.token });
    });

    it('shows a user only their own tickets, newest first, in both tickets and data', async () => {
      const res = await t.api.get('/tickets', { token: viewer.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, total: 5, page: 1, limit: 10 });
      expect(res.body.tickets.map((x: Ticket) => x.id)).toEqual([...mine].reverse().map((x) => x.id));
      expect(res.body.data).toEqual(res.body.tickets);
    });

    it('pages through results', async () => {
      const page2 = await t.api.get('/tickets?page=2&limit=2', { token: viewer.token });
      expect(page2.body).toMatchObject({ total: 5, page: 2, limit: 2 });
      expect(page2.body.tickets.map((x: Ticket) => x.id)).toEqual([mine[2]!.id, mine[1]!.id]);
      const beyond = await t.api.get('/tickets?page=9&limit=2', { token: viewer.token });
      expect(beyond.body).toMatchObject({ total: 5, tickets: [] });
    });

    it('filters by status (including the in-progress spelling), priority and case-insensitive word-prefix search', async () => {
      const ids = async (query: string) =>
        (await t.api.get(`/tickets?${query}`, { token: viewer.token })).body.tickets.map((x: Ticket) => x.id);
      expect(await ids('status=in-progress')).toEqual([mine[0]!.id]);
      expect(await ids('status=open&priority=urgent')).toEqual([mine[4]!.id, mine[2]!.id]);
      expect(await ids('search=VPN')).toEqual([mine[4]!.id, mine[0]!.id]);
      // Words by their start, in any order; a search without a word matches nothing.
      expect(await ids('search=keyb%20MISS')).toEqual([mine[1]!.id]);
      expect(await ids('search=%25')).toEqual([]);
      expect(await ids('search=%22')).toEqual([]);
      expect(await ids('search=%22%22%20status%3Aopen')).toEqual([]);
      expect(await ids('search=details%20for%3A%20email')).toEqual([mine[2]!.id]);
      expect(await ids('status=')).toHaveLength(5);
    });

    it('sorts by priority either way', async () => {
      const priorities = async (sort: string) =>
        (await t.api.get(`/tickets?sort=${sort}`, { token: viewer.token })).body.tickets.map((x: Ticket) => x.priority);
      expect(await priorities('-priority')).toEqual(['urgent', 'urgent', 'high', 'medium', 'low']);
      expect(await priorities('priority')).toEqual(['low', 'medium', 'high', 'urgent', 'urgent']);
    });

    it('counts the cards for exactly the tickets the caller may see', async () => {
      const res = await t.api.get('/tickets/stats', { token: viewer.token });
      expect(res.body).toEqual({
        success: true,
        stats: { total: 5, open: 3, in_progress: 1, pending: 0, resolved: 1, closed: 0, urgent: 2 },
      });
      const filtered = await t.api.get('/tickets/stats?search=vpn', { token: viewer.token });
      expect(filtered.body.stats).toMatchObject({ total: 2, open: 1, in_progress: 1, urgent: 1 });
    });

    it("lets staff see everyone's tickets and narrow to their own assignments", async () => {
      const all = await t.api.get('/tickets?limit=100', { token: admin.token });
      expect(all.body.total).toBeGreaterThan(5);
      const owners = new Set(all.body.tickets.map((x: Ticket) => x.user.id));
      expect(owners.has(viewer.user.id) && owners.has(owner.user.id)).toBe(true);
      const assigned = await t.api.get('/tickets?mine=1&limit=100', { token: agent.token });
      expect(assigned.body.tickets.length).toBeGreaterThan(0);
      expect(assigned.body.tickets.every((x: Ticket) => x.assignedAgent?.id === agent.user.id)).toBe(true);
      const stats = await t.api.get('/tickets/stats', { token: admin.token });
      expect(stats.body.stats.total).toBe(all.body.total);
    });
  });
});
