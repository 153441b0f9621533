/**
 * Holes found by probing the running product from outside: bulk floods and notification churn, parallel
 * sign-in guesses, a reply that changed a ticket on a stale version, unbounded saved items, deletion by
 * the wrong people, a cursor that revealed internal notes, and 400s that answered before the role gate.
 * Each test failed before its fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MESSAGES, type Notification, type Ticket, type TicketDetail } from '@helpdesk/protocol';
import { cannedResponses, savedViews } from '../db/schema/index.js';
import { DEFAULT_RATE_LIMITS } from '../middleware/rateLimit.js';
import { ADMIN_ENV, STRONG_PASSWORD, createCast, createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import type { ApiResponse } from '../../test/http.js';
import { expectRateLimited } from '../../test/rateLimited.js';
import { startMailReceiver, type MailReceiver } from '../../test/mailReceiver.js';
import { roleGatedRoutes } from '../../test/routes.js';
import { startTestServer, type TestServer } from '../../test/server.js';

/** Each test spends the budget of an address of its own, as the proxy in front reports it. */
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

const { bulkPerUser, login } = DEFAULT_RATE_LIMITS;
/** Small, so the per-address test needs few calls; the per-user budget is the production one. */
const BULK_PER_ADDRESS = { points: 30, durationSeconds: 60 };

let t: TestServer;
let smtp: MailReceiver;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  smtp = await startMailReceiver();
  t = await startTestServer(
    { ...ADMIN_ENV, TRUST_PROXY: 'true', SMTP_URL: smtp.url },
    { rateLimits: { bulkPerUser, bulkPerAddress: BULK_PER_ADDRESS, login } },
  );
  cast = await createCast(t);
});
afterAll(async () => {
  await ifSetUp(t)?.close();
  await ifSetUp(smtp)?.close();
});

const detail = async (id: number, who: Account): Promise<TicketDetail> => {
  const res = await t.api.get(`/tickets/${id}`, { token: who.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.ticket as TicketDetail;
};

describe('1. bulk changes and notification churn', () => {
  const bulk = (who: Account, ids: number[], changes: object, address: string) =>
    t.api.post('/tickets/bulk', { ids, changes }, { token: who.token, ...from(address) });

  it('limits bulk changes per user: 40 calls in a row get the budget and then 429 saying what was limited', async () => {
    const agent = await insertUser(t, { role: 'agent', name: 'Busy Bulker' });
    const ticket = await createTicket(t.api, cast.owner.token);
    const statuses: number[] = [];
    let refused: ApiResponse | undefined;
    for (let i = 0; i < 40; i++) {
      const res = await bulk(agent, [ticket.id], { priority: i % 2 ? 'low' : 'high' }, '198.51.100.1');
      statuses.push(res.status);
      refused ??= res.status === 429 ? res : undefined;
    }
    expect(statuses).toEqual([...Array<number>(bulkPerUser.points).fill(200), ...Array<number>(40 - bulkPerUser.points).fill(429)]);
    expectRateLimited(refused!, MESSAGES.tickets.tooManyBulkChanges, bulkPerUser.durationSeconds);
    // A colleague is not held up by it.
    expect((await bulk(cast.agent, [ticket.id], { priority: 'urgent' }, '198.51.100.2')).status).toBe(200);
  });

  it('limits bulk changes per client address over all accounts', async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const agents = await Promise.all([1, 2].map((n) => insertUser(t, { role: 'agent', name: `Shared Desk ${n}` })));
    const statuses: number[] = [];
    let refused: ApiResponse | undefined;
    for (let i = 0; i < BULK_PER_ADDRESS.points + 1; i++) {
      const res = await bulk(agents[i % 2]!, [ticket.id], { priority: i % 2 ? 'low' : 'high' }, '198.51.100.3');
      statuses.push(res.status);
      refused ??= res.status === 429 ? res : undefined;
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(BULK_PER_ADDRESS.points);
    expectRateLimited(refused!, MESSAGES.tickets.tooManyBulkChangesFromAddress, BULK_PER_ADDRESS.durationSeconds);
    expect((await bulk(agents[0]!, [ticket.id], { priority: 'urgent' }, '198.51.100.4')).status).toBe(200);
  });

  it('tells an agent once about assign/unassign churn on a ticket, in the bell and by mail, until they have read it', async () => {
    const target = await insertUser(t, { role: 'agent', name: 'Churned Charlie' });
    const [ticket, other] = [await createTicket(t.api, cast.owner.token), await createTicket(t.api, cast.owner.token)];
    const assign = (id: number, to: number | null) => t.api.put(`/tickets/${id}`, { assignedAgentId: to }, { token: cast.admin.token });
    // Single updates (no bulk limit) and bulk calls from another agent, alternating.
    for (let i = 0; i < 25; i++) {
      expect((await assign(ticket.id, target.user.id)).status).toBe(200);
      expect((await assign(ticket.id, null)).status).toBe(200);
    }
    for (let i = 0; i < 5; i++) {
      expect((await bulk(cast.agent, [ticket.id], { assignedAgentId: target.user.id }, '198.51.100.5')).status).toBe(200);
      expect((await bulk(cast.agent, [ticket.id], { assignedAgentId: null }, '198.51.100.5')).status).toBe(200);
    }
    // Another ticket is other news.
    expect((await assign(other.id, target.user.id)).status).toBe(200);
    await t.server.mailer.idle();

    const bell = async () =>
      (await t.api.get('/notifications', { token: target.token })).body as { notifications: Notification[]; unread: number };
    const first = await bell();
    expect(first.unread).toBe(2);
    expect(first.notifications.map((n) => [n.type, n.ticketId]).sort()).toEqual(
      [
        ['assigned', ticket.id],
        ['assigned', other.id],
      ].sort(),
    );
    expect(smtp.to(target.user.email)).toHaveLength(2);

    // Once read, the next assignment is news again.
    expect((await t.api.post('/notifications/read', {}, { token: target.token })).status).toBe(200);
    expect((await assign(ticket.id, target.user.id)).status).toBe(200);
    await t.server.mailer.idle();
    expect((await bell()).unread).toBe(1);
    expect(smtp.to(target.user.email)).toHaveLength(3);
  });
});

describe('2. parallel sign-in guesses on one email', () => {
  it('spends the budget before the password check: of 30 parallel wrong guesses only the budget is checked', async () => {
    const account = await insertUser(t, { name: 'Guessed Gina' });
    const guesses = await Promise.all(
      Array.from({ length: 30 }, () =>
        t.api.post('/auth/login', { email: account.user.email, password: 'Wrong123!' }, from('198.51.100.20')),
      ),
    );
    const statuses = guesses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(login.points);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - login.points);
    expectRateLimited(
      guesses.find((r) => r.status === 429)!,
      MESSAGES.auth.tooManyLogins,
      login.durationSeconds,
    );
    // The right password waits for the window too.
    const right = await t.api.post('/auth/login', { email: account.user.email, password: STRONG_PASSWORD }, from('198.51.100.20'));
    expect(right.status).toBe(429);
  });

  it('still clears the count on a success', async () => {
    const account = await insertUser(t, { name: 'Forgetful Fred' });
    const attempt = (password: string) => t.api.post('/auth/login', { email: account.user.email, password }, from('198.51.100.21'));
    for (let i = 0; i < login.points - 1; i++) expect((await attempt('Wrong123!')).status).toBe(401);
    expect((await attempt(STRONG_PASSWORD)).status).toBe(200);
    for (let i = 0; i < login.points - 1; i++) expect((await attempt('Wrong123!')).status).toBe(401);
    expect((await attempt(STRONG_PASSWORD)).status).toBe(200);
  });
});

describe('3. a reply that changes the status, on a stale version', () => {
  it('is refused like PUT: 409 with the current ticket, and neither the comment nor the status is written', async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const seen = await detail(ticket.id, cast.agent);
    const reply = (body: object) => t.api.post(`/tickets/${ticket.id}/comments`, body, { token: cast.agent.token });
    // A colleague closes it meanwhile.
    const closed = await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, { token: cast.admin.token });
    expect(closed.status).toBe(200);

    const stale = await reply({ content: 'Fixed it, resolving.', status: 'resolved', expectedVersion: seen.version });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ success: false, message: MESSAGES.tickets.versionConflict, ticket: closed.body.ticket as Ticket });
    const after = await detail(ticket.id, cast.admin);
    expect(after.status).toBe('closed');
    expect(after.version).toBe((closed.body.ticket as Ticket).version);
    expect(after.comments).toEqual([]);
    expect(after.history.map((h) => h.type)).toEqual(['created', 'status']);

    // A plain reply on a stale version is refused the same way; on the current one both go through.
    expect((await reply({ content: 'Just a note.', expectedVersion: seen.version })).status).toBe(409);
    const current = await reply({ content: 'Reopening: it is back.', status: 'open', expectedVersion: after.version });
    expect(current.status).toBe(201);
    expect(current.body.ticket).toMatchObject({ status: 'open', version: after.version + 1 });
  });

  it('validates expectedVersion as PUT does', async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const res = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Hello', expectedVersion: 'x' }, { token: cast.agent.token });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MESSAGES.validation.expectedVersionInvalid);
  });
});

describe('6. saved views and canned responses per person', () => {
  it('refuses the view after the cap with a clear 400, and takes one again once one is deleted', async () => {
    const agent = await insertUser(t, { role: 'agent', name: 'Many Views' });
    const max = LIMITS.perOwner.views;
    await t.server.database.db
      .insert(savedViews)
      .values(Array.from({ length: max - 1 }, (_, i) => ({ ownerId: agent.user.id, name: `View ${i}`, filters: {} })));
    const create = (name: string) => t.api.post('/views', { name, filters: { status: 'open' } }, { token: agent.token });
    const last = await create('The last one');
    expect(last.status).toBe(201);
    const refused = await create('One too many');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ success: false, message: MESSAGES.views.tooMany(max) });
    // Someone else's views do not count against them.
    expect((await t.api.post('/views', { name: 'Mine', filters: {} }, { token: cast.agent.token })).status).toBe(201);
    expect((await t.api.delete(`/views/${last.body.view.id}`, { token: agent.token })).status).toBe(200);
    expect((await create('Room again')).status).toBe(201);
  });

  it('refuses the canned response after the cap, counting parallel creates exactly', async () => {
    const agent = await insertUser(t, { role: 'agent', name: 'Many Replies' });
    const max = LIMITS.perOwner.cannedResponses;
    await t.server.database.db
      .insert(cannedResponses)
      .values(Array.from({ length: max - 3 }, (_, i) => ({ ownerId: agent.user.id, title: `Reply ${i}`, content: 'Hello there' })));
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.api.post('/canned-responses', { title: `Late ${i}`, content: 'Hi' }, { token: agent.token })),
    );
    expect(attempts.filter((r) => r.status === 201)).toHaveLength(3);
    const refused = attempts.filter((r) => r.status === 400);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.body).toMatchObject({ success: false, message: MESSAGES.cannedResponses.tooMany(max) });
  });
});

describe('7. who may delete a ticket', () => {
  const remove = (id: number, who: Account) => t.api.delete(`/tickets/${id}`, { token: who.token });
  const forbidden = (res: ApiResponse, message: string) => {
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ success: false, message });
  };

  it('lets the owner delete while support has not replied, written a note or changed it', async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    expect(ticket.answered).toBe(false);
    // The owner's own comments and edits leave it unanswered.
    await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'More details.' }, { token: cast.owner.token });
    await t.api.put(`/tickets/${ticket.id}`, { priority: 'high' }, { token: cast.owner.token });
    expect((await detail(ticket.id, cast.owner)).answered).toBe(false);
    expect((await remove(ticket.id, cast.owner)).status).toBe(200);
  });

  it.each([
    ['a staff reply', (id: number) => t.api.post(`/tickets/${id}/comments`, { content: 'On it.' }, { token: cast.agent.token })],
    ['a staff change', (id: number) => t.api.put(`/tickets/${id}`, { priority: 'low' }, { token: cast.agent.token })],
    [
      'a bulk change',
      (id: number) => t.api.post('/tickets/bulk', { ids: [id], changes: { priority: 'urgent' } }, { token: cast.admin.token }),
    ],
  ])('refuses the owner after %s, which the ticket shows as answered, and still lets an admin delete', async (_, act) => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const answer = await act(ticket.id);
    expect(answer.status).toBeLessThan(300);
    // A change's own answer (the copy its event carries) already says so.
    const written = (answer.body.ticket ?? answer.body.updated?.[0]) as Ticket | undefined;
    if (written) expect(written.answered).toBe(true);
    expect((await detail(ticket.id, cast.owner)).answered).toBe(true);
    const listed = (await t.api.get('/tickets?limit=100', { token: cast.owner.token })).body.tickets as Ticket[];
    expect(listed.find((row) => row.id === ticket.id)?.answered).toBe(true);
    forbidden(await remove(ticket.id, cast.owner), MESSAGES.tickets.deleteAnswered);
    expect((await remove(ticket.id, cast.admin)).status).toBe(200);
  });

  it("counts an internal note too, without the owner's ticket ever showing one", async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const before = await detail(ticket.id, cast.owner);
    const note = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Hmm.', internal: true }, { token: cast.agent.token });
    expect(note.status).toBe(201);
    // The owner's reads are exactly as before the note: nothing in them tells of it.
    expect(await detail(ticket.id, cast.owner)).toEqual(before);
    forbidden(await remove(ticket.id, cast.owner), MESSAGES.tickets.deleteAnswered);
    expect((await detail(ticket.id, cast.owner)).id).toBe(ticket.id);
  });

  it('never lets an agent delete, not even their own ticket', async () => {
    const own = await createTicket(t.api, cast.agent.token);
    forbidden(await remove(own.id, cast.agent), MESSAGES.tickets.deleteByAgent);
    const theirs = await createTicket(t.api, cast.owner.token);
    forbidden(await remove(theirs.id, cast.agent), MESSAGES.tickets.deleteByAgent);
    expect((await detail(own.id, cast.agent)).id).toBe(own.id);
  });
});

describe('8. the comment and history cursors of an owner', () => {
  it('answers a note id exactly like an id that does not exist', async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const say = (who: Account, content: string, internal = false) =>
      t.api.post(`/tickets/${ticket.id}/comments`, { content, internal }, { token: who.token });
    expect((await say(cast.owner, 'First question')).status).toBe(201);
    const note = (await say(cast.agent, 'Staff only thought', true)).body.comment as { id: number };
    expect((await say(cast.agent, 'A public answer')).status).toBe(201);
    const staffView = await detail(ticket.id, cast.agent);
    const noteEntry = staffView.history.find((h) => h.type === 'comment' && h.to === String(note.id));
    expect(noteEntry).toBeDefined();

    const owner = { token: cast.owner.token };
    const unknownComment = await t.api.get(`/tickets/${ticket.id}/comments?before=2000000000`, owner);
    const noteComment = await t.api.get(`/tickets/${ticket.id}/comments?before=${note.id}`, owner);
    expect({ status: noteComment.status, body: noteComment.body }).toEqual({ status: unknownComment.status, body: unknownComment.body });
    const unknownEntry = await t.api.get(`/tickets/${ticket.id}/history?before=2000000000`, owner);
    const noteHistory = await t.api.get(`/tickets/${ticket.id}/history?before=${noteEntry!.id}`, owner);
    expect({ status: noteHistory.status, body: noteHistory.body }).toEqual({ status: unknownEntry.status, body: unknownEntry.body });

    // Staff still page from a note.
    const staffPage = await t.api.get(`/tickets/${ticket.id}/comments?before=${note.id}`, { token: cast.agent.token });
    expect((staffPage.body.comments as { content: string }[]).map((c) => c.content)).toEqual(['First question']);
  });
});

describe('9. a staff-only call from a user', () => {
  /** Bodies that fail before any field is read: malformed JSON, not JSON at all, too large, and JSON of the wrong shape. */
  const BROKEN: { name: string; raw: string; type: string }[] = [
    { name: 'malformed JSON', raw: '{"ids": [1,', type: 'application/json' },
    { name: 'plain text', raw: 'ids=1', type: 'text/plain' },
    { name: 'a body over the size limit', raw: JSON.stringify({ name: 'x'.repeat(300 * 1024) }), type: 'application/json' },
    { name: 'a JSON array', raw: '[1,2,3]', type: 'application/json' },
    { name: 'wrong fields', raw: '{"ids":"all","name":5,"title":null,"role":"root"}', type: 'application/json' },
  ];
  /** One role-gated route of each router that has them, so a gate that stops being recognised fails here. */
  const KNOWN_GATED = ['POST /tickets/bulk', 'POST /users', 'DELETE /knowledge/:id', 'PUT /views/:id', 'POST /canned-responses'];

  it('is 403 on every role-gated route whatever the body, path id or query', async () => {
    const gated = roleGatedRoutes(t.server);
    expect(gated).toEqual(expect.arrayContaining(KNOWN_GATED));
    for (const route of gated) {
      const [method, pattern] = route.split(' ') as [string, string];
      // A path id that is not one, and a query no schema accepts.
      const url = `/api${pattern.replace(/:\w+/g, 'not-an-id')}?role=root&page=-1`;
      const variants = method === 'GET' ? [undefined] : [undefined, ...BROKEN];
      for (const variant of variants) {
        const headers: Record<string, string> = { authorization: `Bearer ${cast.owner.token}` };
        if (variant) headers['content-type'] = variant.type;
        const res = await fetch(`${t.url}${url}`, { method, headers, body: variant?.raw });
        const body = (await res.json()) as { message: string };
        expect({ route, variant: variant?.name, status: res.status }).toEqual({ route, variant: variant?.name, status: 403 });
        expect([MESSAGES.http.staffOnly, MESSAGES.http.adminOnly, MESSAGES.apiTokens.staffOnly]).toContain(body.message);
      }
    }
  });
});

describe('10. a rating from staff', () => {
  it('is 403 on the owner’s survey routes whatever the body, before it is read', async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    for (const raw of ['{"rating":', 'rating=good', JSON.stringify({ rating: 'great', comment: 'x'.repeat(300 * 1024) })]) {
      const res = await fetch(`${t.url}/api/tickets/${ticket.id}/csat`, {
        method: 'POST',
        headers: { authorization: `Bearer ${cast.agent.token}`, 'content-type': 'application/json' },
        body: raw,
      });
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 403,
        body: { success: false, message: MESSAGES.csat.ownerOnly },
      });
    }
  });
});
