import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Ticket, type TicketDetail } from '@helpdesk/protocol';
import { REQUESTER_WORD_ACCOUNTS } from '../db/queries/ticketFilters.js';
import { insertComment } from '../db/queries/ticketThread.js';
import { ADMIN_ENV, createCast, createTicket, insertUser, uniqueEmail, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { sentinel, socketClients } from '../../test/socketClients.js';

/** The agent desk's API (docs/api.md#the-agent-desk): requester panel and filter, search syntax, merge, counts, read marks. */
describe('the agent desk API', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account, other: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent, owner, other } = await createCast(t));
  });
  afterEach(() => sockets.closeAll());
  afterAll(() => ifSetUp(t)?.close());

  const ids = (tickets: Ticket[]) => tickets.map((x) => x.id);
  const detailOf = async (id: number, by: Account): Promise<TicketDetail> =>
    (await t.api.get(`/tickets/${id}`, { token: by.token })).body.ticket;
  const list = async (query: string, by: Account = agent) => {
    const res = await t.api.get(`/tickets?${query}`, { token: by.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { tickets: Ticket[]; total: number };
  };

  describe('GET /users/:id/tickets (the requester panel)', () => {
    it("answers the requester's newest tickets by creation, staff only, limit 1-50 (default 10)", async () => {
      const requester = await insertUser(t, { name: 'Panel Person' });
      const created: Ticket[] = [];
      for (let i = 0; i < 12; i++) created.push(await createTicket(t.api, requester.token, { title: `Panel ticket ${i}` }));
      const res = await t.api.get(`/users/${requester.user.id}/tickets`, { token: agent.token });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      // Who the requester is, for the panel's name, email and account age.
      expect(res.body.requester).toEqual({
        id: requester.user.id,
        name: 'Panel Person',
        email: requester.user.email,
        createdAt: requester.user.createdAt,
      });
      expect(Number.isNaN(Date.parse(res.body.requester.createdAt))).toBe(false);
      expect(ids(res.body.tickets)).toEqual(ids(created.slice(2).reverse()));
      expect(res.body.tickets[0].tags).toEqual([]);
      const two = await t.api.get(`/users/${requester.user.id}/tickets?limit=2`, { token: admin.token });
      expect(ids(two.body.tickets)).toEqual([created[11]!.id, created[10]!.id]);
      const max = await t.api.get(`/users/${requester.user.id}/tickets?limit=50`, { token: agent.token });
      expect(max.body.tickets).toHaveLength(12);

      for (const limit of ['0', '51', 'x']) {
        const bad = await t.api.get(`/users/${requester.user.id}/tickets?limit=${limit}`, { token: agent.token });
        expect(bad.status).toBe(400);
        expect(bad.body.message).toBe('Limit must be a whole number from 1 to 50');
      }
      const denied = await t.api.get(`/users/${requester.user.id}/tickets`, { token: requester.token });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ success: false, message: MESSAGES.http.staffOnly });
      expect((await t.api.get(`/users/${requester.user.id}/tickets`)).status).toBe(401);
      const missing = await t.api.get('/users/2147483000/tickets', { token: agent.token });
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(MESSAGES.users.userNotFound);
      expect((await t.api.get('/users/abc/tickets', { token: agent.token })).status).toBe(400);
    });
  });

  describe('requester= and the search syntax on GET /tickets and /tickets/stats', () => {
    let ann: Account, annabel: Account, bob: Account;
    let annTickets: Ticket[], annabelTicket: Ticket, bobTicket: Ticket;

    beforeAll(async () => {
      const stamp = Date.now();
      ann = await insertUser(t, { name: `Zq${stamp} Lee`, email: uniqueEmail('ann') });
      annabel = await insertUser(t, { name: `Zq${stamp}bel Smith` });
      bob = await insertUser(t, { name: `Bob Zq${stamp}` });
      annTickets = [
        await createTicket(t.api, ann.token, { title: 'Printer offline', description: 'The printer on floor 2 is offline.' }),
        await createTicket(t.api, ann.token, { title: 'Mail bounces', description: 'Every mail to sales bounces.' }),
      ];
      annabelTicket = await createTicket(t.api, annabel.token, { title: 'Printer jams daily' });
      bobTicket = await createTicket(t.api, bob.token, { title: 'Printer is loud' });
      await t.api.put(`/tickets/${annTickets[1]!.id}`, { status: 'closed', assignedAgentId: agent.user.id }, { token: admin.token });
    });

    it('matches an email whole and a name whole or by its start, case ignored', async () => {
      const prefix = ann.user.name.split(' ')[0]!;
      expect(ids((await list(`requester=${encodeURIComponent(ann.user.email.toUpperCase())}`)).tickets)).toEqual(ids(annTickets).reverse());
      expect((await list(`requester=${encodeURIComponent(ann.user.email.slice(0, 8))}`)).tickets).toEqual([]);
      expect(ids((await list(`requester=${encodeURIComponent(ann.user.name.toLowerCase())}`)).tickets)).toEqual(ids(annTickets).reverse());
      const byStart = await list(`requester=${prefix.toUpperCase()}&sort=createdAt`);
      expect(ids(byStart.tickets)).toEqual([...ids(annTickets), annabelTicket.id]);
      expect(byStart.total).toBe(3);
      expect(ids(byStart.tickets)).not.toContain(bobTicket.id);
      // LIKE wildcards are the characters they are.
      expect((await list('requester=%25')).tickets).toEqual([]);
      const stats = await t.api.get(`/tickets/stats?requester=${prefix}`, { token: agent.token });
      expect(stats.body.stats).toMatchObject({ total: 3, open: 2, closed: 1 });
    });

    it('reads search= with the syntax: filters filter, only free words are searched, explicit parameters win', async () => {
      const prefix = ann.user.name.split(' ')[0]!;
      const search = (text: string, extra = '') => list(`search=${encodeURIComponent(text)}${extra}`);
      expect(ids((await search(`requester:${prefix} printer`)).tickets).sort()).toEqual([annTickets[0]!.id, annabelTicket.id].sort());
      expect(ids((await search(`requester:"${ann.user.name}" status:open printer`)).tickets)).toEqual([annTickets[0]!.id]);
      expect((await search(`requester:"${ann.user.name}" status:open mail`)).tickets).toEqual([]);
      // The explicit status wins over the typed one.
      expect(ids((await search(`requester:${prefix} status:open`, '&status=closed')).tickets)).toEqual([annTickets[1]!.id]);
      // assignee:<email> is that staff member; an email of nobody on staff matches nothing.
      expect(ids((await search(`assignee:${agent.user.email} requester:${prefix}`)).tickets)).toEqual([annTickets[1]!.id]);
      expect((await search(`assignee:${ann.user.email} requester:${prefix}`)).tickets).toEqual([]);
      // An unknown key is searched as text, not dropped: nothing has "colour:red" in it.
      expect((await search(`requester:${prefix} colour:red`)).tickets).toEqual([]);
      const stats = await t.api.get(`/tickets/stats?search=${encodeURIComponent(`requester:${prefix} printer`)}`, { token: agent.token });
      expect(stats.body.stats).toMatchObject({ total: 2, open: 2 });
    });

    it('is:unread lists what changed since this staff member last opened it', async () => {
      const prefix = ann.user.name.split(' ')[0]!;
      const unread = async () => ids((await list(`search=${encodeURIComponent(`is:unread requester:${prefix}`)}`)).tickets).sort();
      expect(await unread()).toEqual([...ids(annTickets), annabelTicket.id].sort());
      await detailOf(annTickets[0]!.id, agent);
      expect(await unread()).toEqual([annTickets[1]!.id, annabelTicket.id].sort());
      const denied = await t.api.get('/tickets?search=is:unread', { token: ann.token });
      expect(denied.status).toBe(403);
    });

    it("free words also match the requester's email whole or name by its start; list, stats and a view agree", async () => {
      const prefix = ann.user.name.split(' ')[0]!;
      const search = (text: string, by: Account = agent) => list(`search=${encodeURIComponent(text)}`, by);
      const statsOf = async (text: string) =>
        (await t.api.get(`/tickets/stats?search=${encodeURIComponent(text)}`, { token: agent.token })).body.stats as { total: number };
      // A ticket whose text holds the word, from someone else: words still search the text too.
      const mention = await createTicket(t.api, bob.token, {
        title: `Call ${prefix.toLowerCase()} back`,
        description: 'About the invoice.',
      });
      const byName = await search(prefix.toUpperCase());
      expect(ids(byName.tickets).sort()).toEqual([...ids(annTickets), annabelTicket.id, mention.id].sort());
      expect(byName.total).toBe(4);
      expect((await statsOf(prefix)).total).toBe(4);
      // The whole name, the email (whole, any case); part of an email names no one.
      expect(ids((await search(ann.user.name.toLowerCase())).tickets).sort()).toEqual(ids(annTickets).sort());
      expect(ids((await search(ann.user.email.toUpperCase())).tickets).sort()).toEqual(ids(annTickets).sort());
      expect((await search(ann.user.email.slice(0, -3))).tickets).toEqual([]);
      // A word in the middle of a name is not its start: Ann's tickets stay out.
      expect(ids((await search(ann.user.name.split(' ')[1]!)).tickets)).not.toContain(annTickets[0]!.id);
      // With the syntax's filters, and with another word: the words match the requester as a whole.
      expect(ids((await search(`status:closed ${ann.user.email}`)).tickets)).toEqual([annTickets[1]!.id]);
      expect((await search(`${ann.user.email} printer`)).tickets).toEqual([]);
      // A saved view with those words counts what the list lists.
      const view = await t.api.post('/views', { name: `Zq view ${Date.now()}`, filters: { search: prefix } }, { token: agent.token });
      expect(view.status, JSON.stringify(view.body)).toBe(201);
      const counts = await t.api.get('/views/counts', { token: agent.token });
      expect(counts.body.counts[view.body.view.id]).toBe(4);
      // An owner's list is their own tickets: their name is searched as text there, nothing else.
      expect((await search(ann.user.name, ann)).tickets).toEqual([]);
    });

    it('words naming more than REQUESTER_WORD_ACCOUNTS accounts match no requester, in the list and its count', async () => {
      const crowd = `Yx${Date.now()}`;
      const { db } = t.server.database;
      const rows = await db.execute(
        sql`insert into users (name, email, password_hash, role) select ${crowd} || ' ' || g, ${crowd.toLowerCase()} || g || '@crowd.test', 'x', 'user' from generate_series(1, ${REQUESTER_WORD_ACCOUNTS}) g returning id`,
      );
      const first = (rows as { rows: { id: number }[] }).rows[0]!.id;
      const token = await t.server.tokens.sign(first, 0);
      await createTicket(t.api, token, { title: 'Crowded name', description: 'No words of the name here.' });
      // Exactly the bound: the accounts' tickets are found.
      expect((await list(`search=${crowd}`)).total).toBe(1);
      // One more account by that name: the words name no one in particular, and nothing has them in its text.
      await insertUser(t, { name: `${crowd} extra` });
      const past = await list(`search=${crowd}`);
      expect(past.tickets).toEqual([]);
      expect(past.total).toBe(0);
      const stats = await t.api.get(`/tickets/stats?search=${crowd}`, { token: agent.token });
      expect(stats.body.stats.total).toBe(0);
      // The whole name of one of them still names one account.
      expect((await list(`search=${encodeURIComponent(`${crowd} 1`)}`)).total).toBe(1);
    });

    it('an owner filtering by requester still sees only their own tickets', async () => {
      expect(ids((await list(`requester=${encodeURIComponent(bob.user.name)}`, ann)).tickets)).toEqual([]);
      expect(ids((await list(`requester=${encodeURIComponent(ann.user.email)}`, ann)).tickets)).toEqual(ids(annTickets).reverse());
    });
  });

  describe('POST /tickets/:id/merge', () => {
    it('closes the source with a public reply and a merged entry, and notes it on the target, all announced', async () => {
      const source = await createTicket(t.api, owner.token, {
        title: 'Duplicate printer issue',
        description: 'Same printer, second report.',
      });
      const target = await createTicket(t.api, owner.token, { title: 'Printer issue' });
      const ownerSocket = await sockets.listen(t.url, owner.token);
      const staffSocket = await sockets.listen(t.url, admin.token);

      const res = await t.api.post(`/tickets/${source.id}/merge`, { intoId: target.id }, { token: agent.token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.ticket).toMatchObject({ id: target.id, status: 'open' });

      const merged = await detailOf(source.id, owner);
      expect(merged.status).toBe('closed');
      expect(merged.comments.at(-1)).toMatchObject({ content: `Merged into #${target.id}`, internal: false });
      expect(merged.history.map((h) => [h.type, h.to]).slice(-3)).toEqual([
        ['comment', String(merged.comments.at(-1)!.id)],
        ['status', 'closed'],
        ['merged', String(target.id)],
      ]);
      const note = (await detailOf(target.id, agent)).comments.at(-1)!;
      expect(note).toMatchObject({ internal: true });
      expect(note.content).toContain(`#${source.id}`);
      expect(note.content).toContain('Duplicate printer issue');
      expect(note.content).toContain('Same printer, second report.');
      expect((await detailOf(target.id, owner)).comments).toEqual([]);

      await staffSocket.next('comment-added', (e) => e.ticketId === target.id && e.comment.internal);
      await ownerSocket.next('ticket-changed', (e) => e.ticket.id === source.id && e.action === 'updated' && e.ticket.status === 'closed');
      await ownerSocket.next('comment-added', (e) => e.ticketId === source.id);
      await sentinel(t.api, admin.token, [ownerSocket, staffSocket]);
      expect(ownerSocket.events['comment-added'].map((e) => e.ticketId)).toEqual([source.id]);
      expect(JSON.stringify(ownerSocket.events)).not.toContain('Merged from');
    });

    it('refuses another requester, a closed ticket, the same ticket, an unknown one and a user, writing nothing', async () => {
      const mine = await createTicket(t.api, owner.token);
      const theirs = await createTicket(t.api, other.token);
      const closed = await createTicket(t.api, owner.token);
      await t.api.put(`/tickets/${closed.id}`, { status: 'closed' }, { token: agent.token });
      const merge = (id: number, intoId: unknown, by = agent) => t.api.post(`/tickets/${id}/merge`, { intoId }, { token: by.token });

      const cases: [number, unknown, number, string][] = [
        [mine.id, theirs.id, 400, 'Only tickets from the same requester can be merged'],
        [mine.id, closed.id, 400, 'This ticket cannot be merged into that one'],
        [closed.id, mine.id, 400, 'This ticket cannot be merged into that one'],
        [mine.id, mine.id, 400, 'This ticket cannot be merged into that one'],
        [mine.id, 2_147_483_000, 404, MESSAGES.tickets.notFound],
        [mine.id, 'x', 400, MESSAGES.validation.mergeIntoInvalid],
      ];
      for (const [id, intoId, status, message] of cases) {
        const res = await merge(id, intoId);
        expect(res.status, `${id} → ${String(intoId)}`).toBe(status);
        expect(res.body.message).toBe(message);
      }
      const user = await merge(mine.id, closed.id, owner);
      expect(user.status).toBe(403);
      expect(user.body.message).toBe(MESSAGES.http.staffOnly);
      const after = await detailOf(mine.id, agent);
      expect(after).toMatchObject({ status: 'open', version: mine.version, comments: [] });
    });

    it('is one transaction: a failure writing the note leaves both tickets as they were, and announces nothing', async () => {
      const source = await createTicket(t.api, owner.token, { title: 'Fails to merge' });
      const target = await createTicket(t.api, owner.token);
      const before = [await detailOf(source.id, agent), await detailOf(target.id, agent)];
      const db = t.server.database.db;
      // The last write of a merge is the note on the target: refused here, after the source was closed.
      await db.execute(sql`
        create function refuse_merge_note() returns trigger language plpgsql as $$
        begin
          if new.content like 'Merged from #%' then raise exception 'forced' using errcode = '22023'; end if;
          return new;
        end $$`);
      await db.execute(
        sql`create trigger refuse_merge_note before insert on ticket_comments for each row execute function refuse_merge_note()`,
      );
      const staffSocket = await sockets.listen(t.url, admin.token);
      try {
        const res = await t.api.post(`/tickets/${source.id}/merge`, { intoId: target.id }, { token: agent.token });
        expect(res.status).toBe(400);
      } finally {
        await db.execute(sql`drop trigger refuse_merge_note on ticket_comments`);
        await db.execute(sql`drop function refuse_merge_note`);
      }
      expect([await detailOf(source.id, agent), await detailOf(target.id, agent)]).toEqual(before);
      await sentinel(t.api, admin.token, [staffSocket]);
      expect(staffSocket.events['ticket-changed'].filter((e) => e.ticket.id === source.id)).toEqual([]);
      expect(staffSocket.events['comment-added']).toEqual([]);
    });
  });

  describe('the thread', () => {
    it('counts every comment the reader may see, past the first page, and pages back through comments and history', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const db = t.server.database.db;
      const author = { id: owner.user.id, name: owner.user.name, role: owner.user.role };
      const staff = { id: agent.user.id, name: agent.user.name, role: agent.user.role };
      for (let i = 0; i < 64; i++) await insertComment(db, author, { ticketId: ticket.id, content: `Reply ${i}`, internal: false });
      for (let i = 0; i < 3; i++) await insertComment(db, staff, { ticketId: ticket.id, content: `Note ${i}`, internal: true });

      const staffView = await detailOf(ticket.id, agent);
      expect(staffView).toMatchObject({ commentCount: 64, noteCount: 3, hasOlderComments: true });
      expect(staffView.comments).toHaveLength(50);
      const ownerView = await detailOf(ticket.id, owner);
      expect(ownerView.commentCount).toBe(64);
      expect(ownerView).not.toHaveProperty('noteCount');
      const older = await t.api.get(`/tickets/${ticket.id}/comments?before=${ownerView.comments[0]!.id}`, { token: owner.token });
      expect(older.body.comments.map((c: { content: string }) => c.content)).toEqual(Array.from({ length: 14 }, (_, i) => `Reply ${i}`));
      expect(older.body.hasMore).toBe(false);

      // History pages back the same way.
      for (let i = 0; i < 52; i++) await t.api.put(`/tickets/${ticket.id}`, { priority: i % 2 ? 'low' : 'high' }, { token: agent.token });
      const withHistory = await detailOf(ticket.id, agent);
      expect(withHistory.history).toHaveLength(50);
      expect(withHistory.hasOlderHistory).toBe(true);
      const olderHistory = await t.api.get(`/tickets/${ticket.id}/history?before=${withHistory.history[0]!.id}`, { token: agent.token });
      expect(olderHistory.status).toBe(200);
      expect(olderHistory.body.history[0].type).toBe('created');
      expect(olderHistory.body.hasMore).toBe(false);
    });
  });

  describe('notifications read on open', () => {
    it("POST /notifications/read {ticketId} marks the caller's notifications about that ticket read, no others", async () => {
      const colleague = await insertUser(t, { role: 'agent', name: 'Read Mark' });
      const a = await createTicket(t.api, owner.token);
      const b = await createTicket(t.api, owner.token);
      for (const ticket of [a, b]) await t.api.put(`/tickets/${ticket.id}`, { assignedAgentId: colleague.user.id }, { token: admin.token });
      const before = await t.api.get('/notifications?unread=1', { token: colleague.token });
      expect(before.body.unread).toBe(2);
      const res = await t.api.post('/notifications/read', { ticketId: a.id }, { token: colleague.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, unread: 1 });
      const left = await t.api.get('/notifications?unread=1', { token: colleague.token });
      expect(left.body.notifications.map((n: { ticketId: number }) => n.ticketId)).toEqual([b.id]);
      // Someone else's ticket id marks nothing of theirs.
      expect((await t.api.post('/notifications/read', { ticketId: b.id }, { token: agent.token })).status).toBe(200);
      expect((await t.api.get('/notifications?unread=1', { token: colleague.token })).body.unread).toBe(1);
      const bad = await t.api.post('/notifications/read', { ticketId: 'b' }, { token: colleague.token });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(MESSAGES.validation.notificationTicketInvalid);
    });
  });

  describe("the owner's deletion rule and withdrawing", () => {
    it('an owner deletes only while no staff member replied, wrote a note or changed it (tags included)', async () => {
      const fresh = await createTicket(t.api, owner.token);
      expect((await t.api.delete(`/tickets/${fresh.id}`, { token: owner.token })).status).toBe(200);
      const answered = MESSAGES.tickets.deleteAnswered;
      const tagged = await createTicket(t.api, owner.token);
      await t.api.put(`/tickets/${tagged.id}`, { tags: ['x'] }, { token: agent.token });
      const noted = await createTicket(t.api, owner.token);
      await t.api.post(`/tickets/${noted.id}/comments`, { content: 'Internal only', internal: true }, { token: agent.token });
      const replied = await createTicket(t.api, owner.token);
      await t.api.post(`/tickets/${replied.id}/comments`, { content: 'On it' }, { token: agent.token });
      for (const ticket of [tagged, noted, replied]) {
        const res = await t.api.delete(`/tickets/${ticket.id}`, { token: owner.token });
        expect(res.status).toBe(403);
        expect(res.body.message).toBe(answered);
      }
      // They may close it instead, which is what the text offers.
      const closed = await t.api.put(`/tickets/${replied.id}`, { status: 'closed' }, { token: owner.token });
      expect(closed.status).toBe(200);
      expect(closed.body.ticket.status).toBe('closed');
    });
  });
});
