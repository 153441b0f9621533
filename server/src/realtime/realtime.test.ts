import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES, ROOMS, type Ticket, type TicketChangedEvent } from '@helpdesk/protocol';
import { parseSettings } from '../settings.js';
import {
  ADMIN_ENV,
  createCast,
  createTicket,
  insertUser,
  logIn,
  STRONG_PASSWORD,
  uniqueEmail,
  type Account,
} from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { sentinel, socketClients, type Listener } from '../../test/socketClients.js';

describe('realtime delivery (Socket.IO)', () => {
  let t: TestServer;
  let cast: Awaited<ReturnType<typeof createCast>>;

  const sockets = socketClients();
  const listen = (token?: string) => sockets.listen(t.url, token);
  const refusedHandshake = (auth: Record<string, unknown>) => sockets.refusedHandshake(t.url, auth);
  /** Returns once anything the last request sent these sockets has arrived (see `sentinel`). */
  const quiet = (...listeners: Listener[]) => sentinel(t.api, cast.admin.token, listeners);

  /** The everyone-in-the-room cast: owner, other user, agent, admin and an anonymous visitor. */
  const listenAll = async () => {
    const [owner, other, agent, admin, anonymous] = await Promise.all([
      listen(cast.owner.token),
      listen(cast.other.token),
      listen(cast.agent.token),
      listen(cast.admin.token),
      listen(),
    ]);
    return { owner: owner, other: other, agent: agent, admin: admin, anonymous: anonymous };
  };

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    cast = await createCast(t);
  });

  afterEach(() => {
    sockets.closeAll();
  });

  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(t)?.close();
  });

  describe('last-change', () => {
    it('tells a socket once it joined when its rooms were last sent a change, and nothing of other rooms', async () => {
      const [owner, admin] = await Promise.all([listen(cast.owner.token), listen(cast.admin.token)]);
      const created = await createTicket(t.api, cast.owner.token, { title: 'Changed before the page listened' });
      const isIt = (e: TicketChangedEvent) => e.ticket.id === created.id;
      const [toOwner, toStaff] = await Promise.all([owner.next('ticket-changed', isIt), admin.next('ticket-changed', isIt)]);

      const late = await listenAll();
      expect((await late.owner.next('last-change')).at).toBe(toOwner.at);
      expect((await late.agent.next('last-change')).at).toBe(toStaff.at);
      expect((await late.admin.next('last-change')).at).toBe(toStaff.at);
      const other = (await late.other.next('last-change')).at;
      expect(other === null || other < toOwner.at!).toBe(true);
      expect((await late.anonymous.next('last-change')).at).toBeNull();
    });
  });

  describe('ticket-changed', () => {
    /** The copy of [owner, agent, admin]: staff's carries the tags and the service level, the owner's never (docs/api.md#tags). */
    const seenBy = (receiver: number, ticket: Ticket): Ticket => {
      const { tags = [], sla = null, ...owners } = ticket;
      return receiver === 0 ? owners : { ...owners, tags, sla };
    };

    it('announces a created ticket, with the full Ticket, to its owner and staff only', async () => {
      const l = await listenAll();
      const created = await createTicket(t.api, cast.owner.token, { title: 'Realtime created ticket' });
      const isMine = (e: TicketChangedEvent) => e.ticket.id === created.id;

      const received = await Promise.all([l.owner, l.agent, l.admin].map((x) => x.next('ticket-changed', isMine)));
      const fetched = await t.api.get(`/tickets/${created.id}`, { token: cast.owner.token });
      const { comments: _c, history: _h, hasOlderComments: _oc, hasOlderHistory: _oh, attachments: _a, ...ticket } = fetched.body.ticket;
      for (const [i, event] of received.entries()) {
        expect(event).toEqual({
          action: 'created',
          ticket: seenBy(i, ticket),
          by: { id: cast.owner.user.id, name: cast.owner.user.name },
          at: expect.any(Number),
          committing: expect.any(Number),
        });
        expect(event.ticket).toEqual(seenBy(i, created));
        expect(Object.keys(event.by).sort()).toEqual(['id', 'name']);
      }

      await quiet(...Object.values(l));
      expect(l.other.events['ticket-changed']).toEqual([]);
      expect(l.anonymous.events['ticket-changed']).toEqual([]);
      // Each receiver got it exactly once, even staff sockets that are in two rooms.
      for (const x of [l.owner, l.agent, l.admin]) expect(x.events['ticket-changed'].filter(isMine)).toHaveLength(1);
    });

    it('announces an update by staff, with the updated Ticket and the actor, to the owner and staff only', async () => {
      const ticket = await createTicket(t.api, cast.owner.token);
      const l = await listenAll();
      const res = await t.api.put(
        `/tickets/${ticket.id}`,
        { status: 'in_progress', resolutionNotes: 'Looking into it' },
        { token: cast.agent.token },
      );
      expect(res.status).toBe(200);
      const isUpdate = (e: TicketChangedEvent) => e.ticket.id === ticket.id && e.action === 'updated';

      const received = await Promise.all([l.owner, l.agent, l.admin].map((x) => x.next('ticket-changed', isUpdate)));
      const { history } = (await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token })).body.ticket;
      for (const [i, event] of received.entries()) {
        // Starting work also took the ticket; one write, one version, the fields' earlier values and the new timeline entries.
        expect(event).toEqual({
          action: 'updated',
          ticket: seenBy(i, res.body.ticket),
          by: { id: cast.agent.user.id, name: cast.agent.user.name },
          previous: {
            status: 'open',
            resolutionNotes: null,
            assignedAgent: null,
            updatedBy: null,
            updatedAt: ticket.updatedAt,
            lastActivityAt: ticket.lastActivityAt,
          },
          history: history.slice(1),
          at: expect.any(Number),
          committing: expect.any(Number),
        });
        expect(history.slice(1).map((e: { type: string }) => e.type)).toEqual(['status', 'resolution', 'assigned']);
        expect(event.ticket).toMatchObject({
          version: ticket.version + 1,
          status: 'in_progress',
          resolutionNotes: 'Looking into it',
          updatedBy: { id: cast.agent.user.id, name: cast.agent.user.name },
          user: { id: cast.owner.user.id, name: cast.owner.user.name },
        });
      }

      await quiet(...Object.values(l));
      expect(l.other.events['ticket-changed']).toEqual([]);
      expect(l.anonymous.events['ticket-changed']).toEqual([]);
    });

    it("announces the owner's own edit to the owner and staff only", async () => {
      const ticket = await createTicket(t.api, cast.owner.token);
      const l = await listenAll();
      const res = await t.api.put(`/tickets/${ticket.id}`, { title: 'Edited by the owner', priority: 'high' }, { token: cast.owner.token });
      expect(res.status).toBe(200);

      const received = await Promise.all(
        [l.owner, l.agent, l.admin].map((x) => x.next('ticket-changed', (e) => e.ticket.id === ticket.id)),
      );
      const { history } = (await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token })).body.ticket;
      for (const [i, event] of received.entries()) {
        expect(event).toEqual({
          action: 'updated',
          ticket: seenBy(i, res.body.ticket),
          by: { id: cast.owner.user.id, name: cast.owner.user.name },
          previous: {
            title: ticket.title,
            priority: ticket.priority,
            updatedBy: null,
            updatedAt: ticket.updatedAt,
            lastActivityAt: ticket.lastActivityAt,
          },
          history: history.slice(1),
          at: expect.any(Number),
          committing: expect.any(Number),
        });
      }
      await quiet(...Object.values(l));
      expect(l.other.events['ticket-changed']).toEqual([]);
      expect(l.anonymous.events['ticket-changed']).toEqual([]);
    });

    it('announces a deletion as {id}, with the ticket as it was, to the owner and staff only', async () => {
      const ticket = await createTicket(t.api, cast.owner.token);
      const l = await listenAll();
      const res = await t.api.delete(`/tickets/${ticket.id}`, { token: cast.owner.token });
      expect(res.status).toBe(200);

      const received = await Promise.all(
        [l.owner, l.agent, l.admin].map((x) => x.next('ticket-changed', (e) => e.ticket.id === ticket.id)),
      );
      for (const [i, event] of received.entries()) {
        expect(event).toEqual({
          action: 'deleted',
          ticket: { id: ticket.id },
          by: { id: cast.owner.user.id, name: cast.owner.user.name },
          previous: seenBy(i, ticket),
          at: expect.any(Number),
          committing: expect.any(Number),
        });
      }
      await quiet(...Object.values(l));
      expect(l.other.events['ticket-changed']).toEqual([]);
      expect(l.anonymous.events['ticket-changed']).toEqual([]);
    });

    it("keeps another user's ticket away from the owner of a different ticket", async () => {
      const l = await listenAll();
      const theirs = await createTicket(t.api, cast.other.token, { title: "Other user's own ticket" });
      await Promise.all([l.other, l.agent, l.admin].map((x) => x.next('ticket-changed', (e) => e.ticket.id === theirs.id)));
      await quiet(...Object.values(l));
      expect(l.owner.events['ticket-changed']).toEqual([]);
      expect(l.anonymous.events['ticket-changed']).toEqual([]);
    });

    it('sends nothing when an update changes nothing', async () => {
      const ticket = await createTicket(t.api, cast.owner.token, { priority: 'low' });
      const l = await listenAll();
      const res = await t.api.put(`/tickets/${ticket.id}`, { priority: 'low' }, { token: cast.agent.token });
      expect(res.status).toBe(200);
      await quiet(...Object.values(l));
      for (const x of Object.values(l)) expect(x.events['ticket-changed']).toEqual([]);
    });
  });

  describe('comment-added', () => {
    it('delivers a staff comment, as the full Comment, to the ticket owner and staff only', async () => {
      const ticket = await createTicket(t.api, cast.owner.token);
      const l = await listenAll();
      const res = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'We are on it.' }, { token: cast.agent.token });
      expect(res.status).toBe(201);

      const received = await Promise.all([l.owner, l.agent, l.admin].map((x) => x.next('comment-added', (e) => e.ticketId === ticket.id)));
      const detail = (await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token })).body.ticket;
      for (const event of received) {
        expect(event).toEqual({
          ticketId: ticket.id,
          comment: res.body.comment,
          history: detail.history.at(-1),
          commentCount: 1,
          at: expect.any(Number),
          committing: expect.any(Number),
        });
        expect(event.history).toMatchObject({ type: 'comment', to: String(res.body.comment.id) });
        expect(event.comment).toMatchObject({
          ticketId: ticket.id,
          content: 'We are on it.',
          author: { id: cast.agent.user.id, name: cast.agent.user.name, role: 'agent' },
        });
      }
      await quiet(...Object.values(l));
      expect(l.other.events['comment-added']).toEqual([]);
      expect(l.anonymous.events['comment-added']).toEqual([]);
    });

    it("delivers the owner's own comment to the owner and staff only", async () => {
      const ticket = await createTicket(t.api, cast.owner.token);
      const l = await listenAll();
      const res = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Any news?' }, { token: cast.owner.token });
      expect(res.status).toBe(201);

      const received = await Promise.all([l.owner, l.agent, l.admin].map((x) => x.next('comment-added', (e) => e.ticketId === ticket.id)));
      const detail = (await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token })).body.ticket;
      for (const event of received)
        expect(event).toEqual({
          ticketId: ticket.id,
          comment: res.body.comment,
          history: detail.history.at(-1),
          commentCount: 1,
          at: expect.any(Number),
          committing: expect.any(Number),
        });
      // A comment is not a change of the ticket.
      expect(detail.version).toBe(ticket.version);
      await quiet(...Object.values(l));
      expect(l.other.events['comment-added']).toEqual([]);
      expect(l.anonymous.events['comment-added']).toEqual([]);
    });

    it('says the count after each comment, in commit order, however many replies come at once', async () => {
      const ticket = await createTicket(t.api, cast.owner.token);
      const staff = await sockets.listen(t.url, cast.admin.token);
      const note = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Note', internal: true }, { token: cast.agent.token });
      expect((await staff.next('comment-added', (e) => e.comment.id === note.body.comment.id)).commentCount).toBe(0);
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t.api.post(`/tickets/${ticket.id}/comments`, { content: `Reply ${i}` }, { token: i % 2 ? cast.owner.token : cast.agent.token }),
        ),
      );
      for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      const ids = replies.map((r) => r.body.comment.id as number);
      const events = await Promise.all(ids.map((id) => staff.next('comment-added', (e) => e.comment.id === id)));
      expect(events.map((e) => e.commentCount).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect((await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token })).body.ticket.commentCount).toBe(8);
    });

    it('sends nothing for a refused comment', async () => {
      const ticket = await createTicket(t.api, cast.owner.token);
      const l = await listenAll();
      const intruder = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Let me in' }, { token: cast.other.token });
      expect(intruder.status).toBe(404);
      const blank = await t.api.post(`/tickets/${ticket.id}/comments`, { content: '   ' }, { token: cast.agent.token });
      expect(blank.status).toBe(400);
      await quiet(...Object.values(l));
      for (const x of Object.values(l)) expect(x.events['comment-added']).toEqual([]);
    });
  });

  describe('helpful-count', () => {
    it('reaches every socket, anonymous ones included', async () => {
      const created = await t.api.post(
        '/knowledge',
        { title: 'Resetting the printer', content: 'Hold the power button for ten seconds.', category: 'technical', keywords: ['printer'] },
        { token: cast.agent.token },
      );
      expect(created.status).toBe(201);
      const articleId: number = created.body.article.id;
      const l = await listenAll();

      const vote = await t.api.post(`/knowledge/${articleId}/helpful`);
      expect(vote.status).toBe(200);
      expect(vote.body).toEqual({ success: true, helpfulCount: 1 });

      const received = await Promise.all(Object.values(l).map((x) => x.next('helpful-count', (e) => e.articleId === articleId)));
      for (const event of received) expect(event).toEqual({ articleId, helpfulCount: 1 });

      // A signed-in vote counts too, and everyone sees the new number.
      const signedIn = await t.api.post(`/knowledge/${articleId}/helpful`, undefined, { token: cast.other.token });
      expect(signedIn.body.helpfulCount).toBe(2);
      const second = await Promise.all(
        Object.values(l).map((x) => x.next('helpful-count', (e) => e.articleId === articleId && e.helpfulCount === 2)),
      );
      for (const event of second) expect(event).toEqual({ articleId, helpfulCount: 2 });

      // Helpful votes carry no ticket data.
      for (const x of Object.values(l)) {
        expect(x.events['ticket-changed']).toEqual([]);
        expect(x.events['comment-added']).toEqual([]);
      }

      // A page read before a vote whose socket joins after it is told, anonymous or signed in.
      const votedBefore = Date.now();
      await t.api.post(`/knowledge/${articleId}/helpful`);
      const late = await listenAll();
      for (const x of Object.values(late)) expect((await x.next('last-change')).at).toBeGreaterThanOrEqual(votedBefore);
    });
  });

  describe('article-changed', () => {
    it('tells every socket, anonymous ones included, when an article is written, changed or deleted', async () => {
      const l = await listenAll();
      const body = { title: 'Printer drivers', content: 'Download them from the portal.', category: 'technical', keywords: ['printer'] };
      const created = await t.api.post('/knowledge', body, { token: cast.agent.token });
      expect(created.status).toBe(201);
      const articleId: number = created.body.article.id;
      await t.api.put(`/knowledge/${articleId}`, { title: 'Printer drivers, 2026' }, { token: cast.agent.token });
      await t.api.delete(`/knowledge/${articleId}`, { token: cast.admin.token });
      await quiet(...Object.values(l));
      for (const x of Object.values(l)) {
        expect(x.events['article-changed'].filter((e) => e.articleId === articleId).map((e) => e.action)).toEqual([
          'created',
          'updated',
          'deleted',
        ]);
      }
      // A refused change announces nothing.
      expect((await t.api.put(`/knowledge/${articleId}`, { title: 'Gone' }, { token: cast.agent.token })).status).toBe(404);
      await quiet(l.anonymous);
      expect(l.anonymous.events['article-changed'].filter((e) => e.articleId === articleId)).toHaveLength(3);
    });
  });

  describe('items-changed', () => {
    it("tells the owner's sockets of a private view or reply, and all staff of a shared one; never a user", async () => {
      const [agent, admin, owner] = await Promise.all([listen(cast.agent.token), listen(cast.admin.token), listen(cast.owner.token)]);
      const kinds = (x: Listener) => x.events['items-changed'].map((e) => e.kind);

      const mine = await t.api.post('/views', { name: 'My open ones', filters: { status: 'open' } }, { token: cast.agent.token });
      expect(mine.status).toBe(201);
      await quiet(agent, admin, owner);
      expect([kinds(agent), kinds(admin), kinds(owner)]).toEqual([['views'], [], []]);

      const shared = await t.api.post(
        '/canned-responses',
        { title: 'Greeting', content: 'Hello!', shared: true },
        { token: cast.admin.token },
      );
      expect(shared.status).toBe(201);
      // Made private again: its readers lose it, so staff still hear of it.
      await t.api.put(`/canned-responses/${shared.body.cannedResponse.id}`, { shared: false }, { token: cast.admin.token });
      await t.api.delete(`/views/${mine.body.view.id}`, { token: cast.agent.token });
      // Refused: nothing to announce.
      expect((await t.api.delete(`/views/${mine.body.view.id}`, { token: cast.agent.token })).status).toBe(404);
      await quiet(agent, admin, owner);
      expect(kinds(agent)).toEqual(['views', 'canned-responses', 'canned-responses', 'views']);
      expect(kinds(admin)).toEqual(['canned-responses', 'canned-responses']);
      expect(kinds(owner)).toEqual([]);
    });
  });

  describe('staff-changed', () => {
    it('tells staff, and nobody else, when an agent is added, renamed, promoted or removed', async () => {
      const [agent, admin, owner, anonymous] = await Promise.all([
        listen(cast.agent.token),
        listen(cast.admin.token),
        listen(cast.owner.token),
        listen(),
      ]);
      const body = { name: 'New Nora', email: uniqueEmail('nora'), password: STRONG_PASSWORD, role: 'agent' };
      const created = await t.api.post('/users', body, { token: cast.admin.token });
      expect(created.status).toBe(201);
      const id: number = created.body.user.id;
      await t.api.put(`/users/${id}`, { name: 'Nora Newman' }, { token: cast.admin.token });
      await t.api.put(`/users/${id}`, { role: 'admin' }, { token: cast.admin.token });
      // A new password changes nobody's name or role: no list moves.
      await t.api.put(`/users/${id}`, { password: STRONG_PASSWORD }, { token: cast.admin.token });
      await t.api.delete(`/users/${id}`, { token: cast.admin.token });
      // A user signing up joins no staff list.
      await t.api.post('/auth/register', { name: 'Una User', email: uniqueEmail('una'), password: STRONG_PASSWORD, role: 'user' });
      await quiet(agent, admin, owner, anonymous);
      expect(agent.events['staff-changed']).toHaveLength(4);
      expect(admin.events['staff-changed']).toHaveLength(4);
      expect(owner.events['staff-changed']).toEqual([]);
      expect(anonymous.events['staff-changed']).toEqual([]);
    });
  });

  describe('reads follow the reader', () => {
    it("tells the reader's own other sockets of a ticket read and of notifications marked read, nobody else", async () => {
      const ticket = await createTicket(t.api, cast.owner.token, { title: 'Read in one tab, bold in the other' });
      const [otherTab, colleague, owner] = await Promise.all([
        listen(cast.agent.token),
        listen(cast.admin.token),
        listen(cast.owner.token),
      ]);

      // The agent opens the ticket, unread for them: their other tab takes the mark off.
      expect((await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token })).status).toBe(200);
      expect(await otherTab.next('ticket-read')).toEqual({ ticketId: ticket.id, at: expect.any(Number), committing: expect.any(Number) });
      // Opening it again with nothing new announces nothing.
      await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token });

      // Assigned by the admin, the agent has a notification; reading it reaches their other tab.
      const assigned = await t.api.put(`/tickets/${ticket.id}`, { assignedAgentId: cast.agent.user.id }, { token: cast.admin.token });
      expect(assigned.status).toBe(200);
      const { notification } = await otherTab.next('notification', (e) => e.notification.ticketId === ticket.id);
      const read = await t.api.post('/notifications/read', { ids: [notification.id] }, { token: cast.agent.token });
      expect(read.status).toBe(200);
      expect(await otherTab.next('notifications-read')).toEqual({
        ids: [notification.id],
        unread: read.body.unread,
        at: expect.any(Number),
        committing: expect.any(Number),
      });
      await t.api.post('/notifications/read', { ticketId: ticket.id }, { token: cast.agent.token });
      expect(await otherTab.next('notifications-read', (e) => e.ticketId === ticket.id)).toMatchObject({ unread: read.body.unread });

      await quiet(otherTab, colleague, owner);
      expect(otherTab.events['ticket-read']).toHaveLength(1);
      expect(otherTab.events['notifications-read']).toHaveLength(2);
      for (const x of [colleague, owner]) {
        expect(x.events['ticket-read']).toEqual([]);
        expect(x.events['notifications-read']).toEqual([]);
      }
    });
  });

  describe('handshake', () => {
    it('accepts an anonymous socket and a signed-in one', async () => {
      const anonymous = await listen();
      const user = await listen(cast.owner.token);
      expect(anonymous.socket.connected).toBe(true);
      expect(user.socket.connected).toBe(true);
    });

    it('refuses an invalid token with connect_error', async () => {
      expect(await refusedHandshake({ token: 'not-a-jwt' })).toBe(MESSAGES.auth.sessionInvalid);
      // A well-formed token signed with another secret.
      const forged = cast.owner.token.replace(/\.[^.]+$/, '.c2lnbmF0dXJlLXRoYXQtZG9lcy1ub3QtbWF0Y2g');
      expect(await refusedHandshake({ token: forged })).toBe(MESSAGES.auth.sessionInvalid);
      expect(await refusedHandshake({ token: 12345 })).toBe(MESSAGES.auth.sessionInvalid);
    });

    it('caps the live sockets of one user, refusing the rest with a clear message until one closes', async () => {
      const cap = parseSettings({}).maxSocketsPerUser;
      const account = await insertUser(t, { name: 'Many Tabs' });
      // All at once, so handshakes finishing together must still count each other.
      const attempts = await Promise.allSettled(Array.from({ length: cap + 3 }, () => listen(account.token)));
      const connected = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
      const refusals = attempts.flatMap((a) => (a.status === 'rejected' ? [(a.reason as Error).message] : []));
      expect(connected).toHaveLength(cap);
      expect(refusals).toEqual(Array<string>(3).fill(MESSAGES.auth.tooManyConnections));
      expect(await refusedHandshake({ token: account.token })).toBe(MESSAGES.auth.tooManyConnections);
      // Someone else is not affected.
      expect((await listen(cast.owner.token)).socket.connected).toBe(true);

      // Closing one frees its place: nothing is left counted for a socket that is gone.
      connected[0]!.socket.disconnect();
      const room = () => t.server.io.of('/').adapter.rooms.get(ROOMS.user(account.user.id))?.size;
      await vi.waitFor(() => expect(room()).toBe(cap - 1));
      expect((await listen(account.token)).socket.connected).toBe(true);
      expect(await refusedHandshake({ token: account.token })).toBe(MESSAGES.auth.tooManyConnections);
      expect(room()).toBe(cap);
    });
  });

  describe('revocation', () => {
    it('disconnects every socket of a deleted user, and refuses their token afterwards, leaving others connected', async () => {
      const victim = await insertUser(t, { role: 'agent', name: 'Leaving Agent' });
      const first = await listen(victim.token);
      const second = await listen(victim.token);
      const bystander = await listen(cast.agent.token);

      const res = await t.api.delete(`/users/${victim.user.id}`, { token: cast.admin.token });
      expect(res.status).toBe(200);
      expect(await first.disconnected()).toBe('io server disconnect');
      expect(await second.disconnected()).toBe('io server disconnect');

      await quiet(bystander);
      expect(bystander.socket.connected).toBe(true);
      expect(await refusedHandshake({ token: victim.token })).toBe(MESSAGES.auth.sessionInvalid);
    });

    it("tells the owner live when a deleted agent's ticket is released", async () => {
      const leaving = await insertUser(t, { role: 'agent', name: 'Departing Agent' });
      const ticket = await createTicket(t.api, cast.owner.token);
      await t.api.put(`/tickets/${ticket.id}`, { status: 'in_progress' }, { token: leaving.token });
      const owner = await listen(cast.owner.token);

      await t.api.delete(`/users/${leaving.user.id}`, { token: cast.admin.token });
      const event = await owner.next('ticket-changed', (e) => e.ticket.id === ticket.id);
      expect(event).toMatchObject({
        action: 'updated',
        ticket: { id: ticket.id, assignedAgent: null, version: ticket.version + 2 },
        by: { id: cast.admin.user.id },
        previous: { assignedAgent: { id: leaving.user.id, name: 'Departing Agent' } },
        history: [{ type: 'assigned', from: 'Departing Agent', to: null }],
      });
      const fetched = await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token });
      const { comments: _c, history, hasOlderComments: _oc, hasOlderHistory: _oh, attachments: _a, ...current } = fetched.body.ticket;
      expect(event.action === 'updated' && event.ticket).toEqual(current);
      expect(event.action === 'updated' && event.history).toEqual(history.slice(-1));
    });

    it("disconnects a user's sockets when an admin changes their password", async () => {
      const target = await insertUser(t, { role: 'agent', name: 'Password Changed Agent' });
      const l = await listen(target.token);
      const bystander = await listen(cast.owner.token);

      const res = await t.api.put(`/users/${target.user.id}`, { password: 'Changed456!' }, { token: cast.admin.token });
      expect(res.status).toBe(200);
      expect(await l.disconnected()).toBe('io server disconnect');
      expect(await refusedHandshake({ token: target.token })).toBe(MESSAGES.auth.sessionInvalid);

      // The new password gives a token that connects again.
      const fresh = await logIn(t.api, target.user.email, 'Changed456!');
      const again = await listen(fresh.token);
      expect(again.socket.connected).toBe(true);
      expect(bystander.socket.connected).toBe(true);
    });

    it("disconnects a user's sockets when they reset their password", async () => {
      const target: Account = await insertUser(t, { name: 'Forgetful Fran' });
      const l = await listen(target.token);

      const requested = await t.api.post('/auth/request-password-reset', { email: target.user.email });
      expect(requested.status).toBe(200);
      await t.server.mailer.idle();
      const token = await resetTokenFromOutbox(t.dataDir, target.user.email);

      // Still connected until the reset actually happens.
      await quiet(l);
      expect(l.socket.connected).toBe(true);

      const res = await t.api.post('/auth/reset-password', { token, newPassword: 'Brand9New!' });
      expect(res.status).toBe(200);
      expect(await l.disconnected()).toBe('io server disconnect');
      expect(await refusedHandshake({ token: target.token })).toBe(MESSAGES.auth.sessionInvalid);
    });
  });
});

describe('anonymous sockets per client address', () => {
  const sockets = socketClients();
  let t: TestServer;
  const forwardedFor = (address: string) => ({ 'x-forwarded-for': address });

  beforeAll(async () => {
    t = await startTestServer({ TRUST_PROXY: 'true' });
  });
  afterEach(() => sockets.closeAll());
  afterAll(() => ifSetUp(t)?.close());

  it('caps sockets without a token per address, refusing the rest with a clear message, and frees a place on close', async () => {
    const cap = parseSettings({}).maxAnonymousSocketsPerAddress;
    const address = forwardedFor('203.0.113.50');
    // All at once, so handshakes finishing together must still count each other.
    const attempts = await Promise.allSettled(Array.from({ length: cap + 3 }, () => sockets.listen(t.url, undefined, address)));
    const connected = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    const refusals = attempts.flatMap((a) => (a.status === 'rejected' ? [(a.reason as Error).message] : []));
    expect(connected).toHaveLength(cap);
    expect(refusals).toEqual(Array<string>(3).fill(MESSAGES.auth.tooManyAnonymousConnections));

    // Another address, and a signed-in person at this one, are not affected.
    expect((await sockets.listen(t.url, undefined, forwardedFor('203.0.113.51'))).socket.connected).toBe(true);
    const account = await insertUser(t, { name: 'Same Office' });
    expect((await sockets.listen(t.url, account.token, address)).socket.connected).toBe(true);

    connected[0]!.socket.disconnect();
    await vi.waitFor(async () => expect((await sockets.listen(t.url, undefined, address)).socket.connected).toBe(true));
    expect(await sockets.refusedHandshake(t.url, {}, address)).toBe(MESSAGES.auth.tooManyAnonymousConnections);
  });

  it('reads the address from the connection, not from a header nobody trusted', async () => {
    const direct = await startTestServer({ MAX_ANONYMOUS_SOCKETS_PER_ADDRESS: '3' });
    try {
      for (let i = 0; i < 3; i++) await sockets.listen(direct.url, undefined, forwardedFor(`203.0.113.${60 + i}`));
      expect(await sockets.refusedHandshake(direct.url, {}, forwardedFor('203.0.113.70'))).toBe(MESSAGES.auth.tooManyAnonymousConnections);
    } finally {
      sockets.closeAll();
      await direct.close();
    }
  });
});

/** No SMTP_URL in this server: the reset mail is an .eml file in DATA_DIR/outbox; the token is in its link. */
async function resetTokenFromOutbox(dataDir: string, email: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const files = await readdir(outbox);
  for (const file of files.filter((f) => f.endsWith('.eml'))) {
    const raw = await readFile(path.join(outbox, file), 'utf8');
    if (!raw.toLowerCase().includes(email.toLowerCase())) continue;
    // Undo quoted-printable soft breaks and escapes before looking for the link.
    const decoded = raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    const match = /http:\/\/helpdesk\.test\/reset-password\?token=([A-Za-z0-9._~%-]+)/.exec(decoded);
    if (match) return decodeURIComponent(match[1]!);
  }
  throw new Error(`no reset mail for ${email} in ${outbox}`);
}
