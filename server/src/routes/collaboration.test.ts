import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Comment, Notification, Ticket, TicketDetail } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, insertUser, type Account } from '../../test/factories.js';
import { MARK_ALL_BATCH } from '../db/queries/notifications.js';
import { MIN_BATCH } from '../db/shrinkingBatch.js';
import { ifSetUp } from '../../test/hooks.js';
import { startMailReceiver, type MailReceiver } from '../../test/mailReceiver.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { cancelWideUpdates } from '../../test/slowStatements.js';
import { sentinel, socketClients } from '../../test/socketClients.js';

const CONFLICT = 'This ticket was changed by someone else. Review the latest version and try again.';

describe('working a ticket together (docs/api.md#working-a-ticket-together)', () => {
  let t: TestServer;
  let smtp: MailReceiver;
  let admin: Account, agent: Account, owner: Account, other: Account, colleague: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    smtp = await startMailReceiver();
    t = await startTestServer({ ...ADMIN_ENV, SMTP_URL: smtp.url });
    ({ admin, agent, owner, other } = await createCast(t));
    colleague = await insertUser(t, { role: 'agent', name: 'Colleague Cleo' });
  });
  afterEach(() => sockets.closeAll());
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(smtp)?.close();
  });

  const detail = async (id: number, token: string): Promise<TicketDetail> => (await t.api.get(`/tickets/${id}`, { token })).body.ticket;
  const post = (ticket: Ticket, body: object, by: Account) => t.api.post(`/tickets/${ticket.id}/comments`, body, { token: by.token });
  const note = async (ticket: Ticket, content: string, by = agent, extra: object = {}): Promise<Comment> => {
    const res = await post(ticket, { content, internal: true, ...extra }, by);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.comment;
  };
  const notifications = async (who: Account, unread = false): Promise<{ notifications: Notification[]; unread: number }> => {
    const res = await t.api.get(`/notifications${unread ? '?unread=1' : ''}`, { token: who.token });
    expect(res.status).toBe(200);
    return res.body;
  };

  describe('internal notes', () => {
    it('only staff may write one: a user gets 403 and nothing is written', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const res = await post(ticket, { content: 'Let me sneak a note', internal: true }, owner);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, message: 'Only support staff can write internal notes' });
      expect((await detail(ticket.id, agent.token)).comments).toEqual([]);
    });

    it('rejects a non-boolean internal with a 400', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const res = await post(ticket, { content: 'Hello', internal: 'yes' }, agent);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Internal must be true or false');
    });

    it('staff see a note marked internal; the owner sees neither it, its history entry nor it in commentCount', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const reply = await post(ticket, { content: 'Public reply to the customer' }, agent);
      expect(reply.body.comment.internal).toBe(false);
      const secret = await note(ticket, 'Customer is on the legacy plan, be careful');
      expect(secret.internal).toBe(true);

      const staffView = await detail(ticket.id, agent.token);
      expect(staffView.comments.map((c) => [c.content, c.internal])).toEqual([
        ['Public reply to the customer', false],
        ['Customer is on the legacy plan, be careful', true],
      ]);
      expect(staffView.history.filter((h) => h.type === 'comment')).toHaveLength(2);

      const ownerView = await detail(ticket.id, owner.token);
      expect(ownerView.comments.map((c) => c.content)).toEqual(['Public reply to the customer']);
      expect(ownerView.history.filter((h) => h.type === 'comment').map((h) => h.to)).toEqual([String(reply.body.comment.id)]);
      expect(ownerView.commentCount).toBe(1);
      expect(JSON.stringify(ownerView)).not.toContain('legacy plan');

      // The list joins comment counts per page: the note is not counted there either.
      const list = await t.api.get('/tickets', { token: owner.token });
      expect(list.body.tickets.find((x: Ticket) => x.id === ticket.id).commentCount).toBe(1);
    });

    it('the paginated older comments and history never carry a note to the owner', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const first = await post(ticket, { content: 'Oldest public reply' }, agent);
      await note(ticket, 'Older internal remark');
      // 50 newer comments push both out of the detail's first page.
      for (let i = 0; i < 50; i++) expect((await post(ticket, { content: `Reply ${i}` }, agent)).status).toBe(201);
      const last = (await detail(ticket.id, agent.token)).comments[0]!;

      const ownerComments = await t.api.get(`/tickets/${ticket.id}/comments?before=${last.id}`, { token: owner.token });
      expect(ownerComments.status).toBe(200);
      expect(ownerComments.body.comments.map((c: Comment) => c.content)).toEqual(['Oldest public reply']);
      const staffComments = await t.api.get(`/tickets/${ticket.id}/comments?before=${last.id}`, { token: agent.token });
      expect(staffComments.body.comments.map((c: Comment) => c.content)).toEqual(['Oldest public reply', 'Older internal remark']);

      const ownerDetail = await detail(ticket.id, owner.token);
      const oldestEntry = ownerDetail.history[0]!;
      const ownerHistory = await t.api.get(`/tickets/${ticket.id}/history?before=${oldestEntry.id}`, { token: owner.token });
      const olderTos: string[] = ownerHistory.body.history
        .filter((h: { type: string }) => h.type === 'comment')
        .map((h: { to: string }) => h.to);
      expect(olderTos).toContain(String(first.body.comment.id));
      const staffHistory = await t.api.get(`/tickets/${ticket.id}/history?before=${oldestEntry.id}`, { token: agent.token });
      expect(staffHistory.body.history.filter((h: { type: string }) => h.type === 'comment')).toHaveLength(olderTos.length + 1);
    });

    it('comment-added for a note reaches staff only, never the owner room', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const ownerSocket = await sockets.listen(t.url, owner.token);
      const staffSocket = await sockets.listen(t.url, colleague.token);
      const secret = await note(ticket, 'Socket-borne internal note');
      await staffSocket.next('comment-added', (e) => e.comment.id === secret.id);
      await sentinel(t.api, admin.token, [ownerSocket, staffSocket]);
      expect(ownerSocket.events['comment-added']).toEqual([]);
      expect(JSON.stringify(ownerSocket.events)).not.toContain('Socket-borne');
    });

    it('a note is never mailed to the owner; a reply is', async () => {
      const ticket = await createTicket(t.api, owner.token);
      await note(ticket, 'Mail-less internal note');
      await post(ticket, { content: 'Mailed public reply' }, agent);
      await t.server.mailer.idle();
      const mails = smtp
        .to(owner.user.email)
        .map((m) => m.text)
        .join('\n');
      expect(mails).toContain('Mailed public reply');
      expect(mails).not.toContain('Mail-less internal note');
    });
  });

  describe('mentions and notifications', () => {
    it('refuses unknown or non-staff mentions with the documented text and writes nothing', async () => {
      const ticket = await createTicket(t.api, owner.token);
      for (const mentions of [[other.user.id], [2_000_000_000], [colleague.user.id, owner.user.id]]) {
        const res = await post(ticket, { content: 'Hey @someone', internal: true, mentions }, agent);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('Only support staff can be mentioned');
      }
      const bad = await post(ticket, { content: 'Hey', internal: true, mentions: ['x'] }, agent);
      expect(bad.status).toBe(400);
      expect((await detail(ticket.id, agent.token)).comments).toEqual([]);
      const byUser = await post(ticket, { content: 'Hey', mentions: [agent.user.id] }, owner);
      expect(byUser.status).toBe(403);
    });

    it('a mention notifies the person named, live on their own room only, and by email when they want important mail', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const colleagueSocket = await sockets.listen(t.url, colleague.token);
      const agentSocket = await sockets.listen(t.url, agent.token);
      const ownerSocket = await sockets.listen(t.url, owner.token);
      const before = (await notifications(colleague, true)).unread;
      await note(ticket, 'Cleo, can you check the invoice?', agent, { mentions: [colleague.user.id, agent.user.id] });

      const live = await colleagueSocket.next('notification', (e) => e.notification.ticketId === ticket.id);
      expect(live.notification).toMatchObject({
        type: 'mention',
        ticketId: ticket.id,
        by: { id: agent.user.id, name: 'Agent Smith' },
        excerpt: 'Cleo, can you check the invoice?',
        readAt: null,
      });
      await sentinel(t.api, admin.token, [agentSocket, ownerSocket]);
      // Mentioning yourself notifies nobody; nobody else hears of it.
      expect(agentSocket.events.notification).toEqual([]);
      expect(ownerSocket.events.notification).toEqual([]);

      const list = await notifications(colleague, true);
      expect(list.unread).toBe(before + 1);
      expect(list.notifications[0]).toEqual(live.notification);

      await t.server.mailer.idle();
      expect(smtp.to(colleague.user.email).map((m) => m.subject)).toContain(`Agent Smith mentioned you on ticket #${ticket.id}`);
    });

    it('assigning a ticket to someone else notifies them; taking it yourself does not; "none" sends no mail', async () => {
      const quiet = await insertUser(t, { role: 'agent', name: 'Quiet Quinn' });
      expect((await t.api.put('/users/preferences', { email_notifications: 'none' }, { token: quiet.token })).status).toBe(200);
      const ticket = await createTicket(t.api, owner.token);
      expect((await t.api.put(`/tickets/${ticket.id}`, { assignedAgentId: quiet.user.id }, { token: agent.token })).status).toBe(200);
      const list = await notifications(quiet);
      expect(list.notifications).toEqual([
        expect.objectContaining({ type: 'assigned', ticketId: ticket.id, by: expect.objectContaining({ id: agent.user.id }) }),
      ]);

      const self = await createTicket(t.api, owner.token);
      expect((await t.api.put(`/tickets/${self.id}`, { status: 'in_progress' }, { token: quiet.token })).status).toBe(200);
      expect((await notifications(quiet)).notifications).toHaveLength(1);
      await t.server.mailer.idle();
      expect(smtp.to(quiet.user.email)).toEqual([]);

      // An assignment follows the preference: "important" mails it.
      const keen = await insertUser(t, { role: 'agent', name: 'Keen Kim' });
      expect((await t.api.put('/users/preferences', { email_notifications: 'important' }, { token: keen.token })).status).toBe(200);
      expect((await t.api.put(`/tickets/${ticket.id}`, { assignedAgentId: keen.user.id }, { token: agent.token })).status).toBe(200);
      await t.server.mailer.idle();
      expect(smtp.to(keen.user.email).map((m) => m.subject)).toEqual([`Ticket #${ticket.id} was assigned to you`]);
    });

    it("the owner's comment notifies the assignee with a reply notification; nobody reads or marks another's", async () => {
      const assignee = await insertUser(t, { role: 'agent', name: 'Assignee Ada' });
      const ticket = await createTicket(t.api, owner.token);
      await t.api.put(`/tickets/${ticket.id}`, { assignedAgentId: assignee.user.id }, { token: assignee.token });
      expect((await post(ticket, { content: 'Any news on this?' }, owner)).status).toBe(201);
      const { notifications: mine, unread } = await notifications(assignee, true);
      expect(unread).toBe(1);
      expect(mine[0]).toMatchObject({ type: 'reply', ticketId: ticket.id, excerpt: 'Any news on this?', by: { id: owner.user.id } });

      // Marking someone else's id changes nothing of theirs.
      const foreign = await t.api.post('/notifications/read', { ids: [mine[0]!.id] }, { token: colleague.token });
      expect(foreign.status).toBe(200);
      expect((await notifications(assignee, true)).unread).toBe(1);
      expect((await notifications(other)).notifications).toEqual([]);

      const one = await t.api.post('/notifications/read', { ids: [mine[0]!.id] }, { token: assignee.token });
      expect(one.body).toEqual({ success: true, unread: 0 });
      const all = await notifications(assignee);
      expect(all.notifications[0]!.readAt).toEqual(expect.any(String));
      expect((await notifications(assignee, true)).notifications).toEqual([]);
    });

    it('marks all read when ids are absent, and validates ids', async () => {
      const ticket = await createTicket(t.api, owner.token);
      await note(ticket, 'one', agent, { mentions: [colleague.user.id] });
      await note(ticket, 'two', agent, { mentions: [colleague.user.id] });
      expect((await notifications(colleague, true)).unread).toBeGreaterThanOrEqual(2);
      const res = await t.api.post('/notifications/read', {}, { token: colleague.token });
      expect(res.body).toEqual({ success: true, unread: 0 });
      const bad = await t.api.post('/notifications/read', { ids: 'all' }, { token: colleague.token });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('Ids must be a list of notification ids');
      expect((await t.api.get('/notifications')).status).toBe(401);
    });

    it("marks all read past one batch, and nobody else's", async () => {
      const ticket = await createTicket(t.api, owner.token);
      const many = MARK_ALL_BATCH + 3;
      // Inserted directly: a request per notification would take minutes.
      for (const who of [colleague, other])
        await t.server.database.db.execute(sql`
          insert into notifications (user_id, type, ticket_id, by_id, excerpt)
          select ${who.user.id}::int, 'sla_breached', ${ticket.id}::int, ${owner.user.id}::int, 'Late ' || n
          from generate_series(1, ${many}::int) n`);
      expect((await notifications(colleague, true)).unread).toBeGreaterThanOrEqual(many);
      const res = await t.api.post('/notifications/read', {}, { token: colleague.token });
      expect(res.body).toEqual({ success: true, unread: 0 });
      expect((await notifications(other, true)).unread).toBeGreaterThanOrEqual(many);
      await t.api.post('/notifications/read', {}, { token: other.token });
    });

    it('marks all read in smaller batches when one runs past the statement timeout', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const many = MIN_BATCH + 15;
      await t.server.database.db.execute(sql`
        insert into notifications (user_id, type, ticket_id, by_id, excerpt)
        select ${colleague.user.id}::int, 'sla_breached', ${ticket.id}::int, ${owner.user.id}::int, 'Late ' || n
        from generate_series(1, ${many}::int) n`);
      expect((await notifications(colleague, true)).unread).toBe(many);
      const undo = await cancelWideUpdates(t.server.database.db, 'notifications', MIN_BATCH + 5);
      try {
        const res = await t.api.post('/notifications/read', {}, { token: colleague.token });
        expect(res.body).toEqual({ success: true, unread: 0 });
      } finally {
        await undo();
      }
    });
  });

  describe('one composer: a comment that sets the status', () => {
    it('"Send and resolve" writes the reply, the status and the reply as the resolution note in one request', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const res = await post(ticket, { content: 'Replaced the toner; all good now.', status: 'resolved' }, agent);
      expect(res.status).toBe(201);
      expect(res.body.ticket).toMatchObject({ status: 'resolved', resolutionNotes: 'Replaced the toner; all good now.', version: 2 });
      const full = await detail(ticket.id, owner.token);
      expect(full.history.map((h) => h.type)).toEqual(['created', 'comment', 'status', 'resolution']);
      expect(full.comments.map((c) => c.content)).toEqual(['Replaced the toner; all good now.']);
    });

    it('keeps an existing resolution note, and a note never becomes one', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const res = await post(ticket, { content: 'Internal: resolved via backend fix', internal: true, status: 'resolved' }, agent);
      expect(res.body.ticket).toMatchObject({ status: 'resolved', resolutionNotes: null });
      const reopened = await createTicket(t.api, owner.token);
      await t.api.put(`/tickets/${reopened.id}`, { resolutionNotes: 'Kept note' }, { token: agent.token });
      const again = await post(reopened, { content: 'Done', status: 'resolved' }, agent);
      expect(again.body.ticket.resolutionNotes).toBe('Kept note');
    });

    it('"Send and mark In Progress" takes an unassigned ticket; the owner may withdraw (close) through it', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const res = await post(ticket, { content: 'Looking into it', status: 'in_progress' }, agent);
      expect(res.body.ticket).toMatchObject({ status: 'in_progress', assignedAgent: { id: agent.user.id } });
      const stranger = await post(ticket, { content: 'Closing theirs', status: 'closed' }, other);
      expect(stranger.status).toBe(404);
      const closing = await post(ticket, { content: 'Closing myself', status: 'closed' }, owner);
      expect(closing.status).toBe(201);
      expect(closing.body.ticket.status).toBe('closed');
      expect((await detail(ticket.id, owner.token)).comments.map((c) => c.content)).toEqual(['Looking into it', 'Closing myself']);
      const bad = await post(ticket, { content: 'x', status: 'done' }, agent);
      expect(bad.status).toBe(400);
    });
  });

  describe('optimistic concurrency', () => {
    it('a stale expectedVersion is a 409 with the current ticket, and nothing is written', async () => {
      const ticket = await createTicket(t.api, owner.token);
      expect(ticket.version).toBe(1);
      const first = await t.api.put(`/tickets/${ticket.id}`, { priority: 'high', expectedVersion: 1 }, { token: agent.token });
      expect(first.status).toBe(200);
      expect(first.body.ticket.version).toBe(2);

      const stale = await t.api.put(
        `/tickets/${ticket.id}`,
        { priority: 'low', status: 'in_progress', expectedVersion: 1 },
        { token: colleague.token },
      );
      expect(stale.status).toBe(409);
      expect(stale.body).toEqual({ success: false, message: CONFLICT, ticket: first.body.ticket });
      const now = await detail(ticket.id, agent.token);
      expect(now).toMatchObject({ priority: 'high', status: 'open', version: 2 });
      expect(now.history.map((h) => h.type)).toEqual(['created', 'priority']);

      const current = await t.api.put(`/tickets/${ticket.id}`, { priority: 'low', expectedVersion: 2 }, { token: colleague.token });
      expect(current.status).toBe(200);
      expect(current.body.ticket.version).toBe(3);
    });

    it('validates expectedVersion, still needs a field, and checks visibility first', async () => {
      const ticket = await createTicket(t.api, owner.token);
      for (const expectedVersion of ['1', 0, 1.5, -3]) {
        const res = await t.api.put(`/tickets/${ticket.id}`, { priority: 'high', expectedVersion }, { token: agent.token });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('Expected version must be a positive whole number');
      }
      const only = await t.api.put(`/tickets/${ticket.id}`, { expectedVersion: 1 }, { token: agent.token });
      expect(only.status).toBe(400);
      expect(only.body.message).toBe('No changes were provided');
      const hidden = await t.api.put(`/tickets/${ticket.id}`, { priority: 'high', expectedVersion: 9 }, { token: other.token });
      expect(hidden.status).toBe(404);
    });

    it('two concurrent edits on the same version: exactly one wins', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const [a, b] = await Promise.all([
        t.api.put(`/tickets/${ticket.id}`, { priority: 'urgent', expectedVersion: 1 }, { token: agent.token }),
        t.api.put(`/tickets/${ticket.id}`, { priority: 'low', expectedVersion: 1 }, { token: colleague.token }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      expect((await detail(ticket.id, agent.token)).version).toBe(2);
    });
  });
});
