import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type TicketChangedEvent } from '@helpdesk/protocol';
import { createTicket, logIn, signUp, TEST_ADMIN, type Account } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import { sentinel, socketClients } from '../socketClients.js';
import { startCluster, type Cluster } from './cluster.js';

/**
 * Two server processes share PostgreSQL and Redis. What one process commits reaches the sockets of
 * the other, and only the sockets that may read it; sessions and rate limits are shared too.
 */
describe('two server processes behind one Redis', () => {
  let cluster: Cluster;
  let a: Cluster['nodes'][number];
  let b: Cluster['nodes'][number];
  let admin: Account, agent: Account, owner: Account, other: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    // Both start at the same moment on an empty database, with demo data asked for.
    cluster = await startCluster({ env: { SEED_DEMO: 'true' } });
    [a, b] = cluster.nodes as [typeof a, typeof b];
    admin = await logIn(a.api, TEST_ADMIN.email, TEST_ADMIN.password);
    agent = await signUp(a.api, { role: 'agent', name: 'Agent Across' });
    owner = await signUp(b.api, { name: 'Owner Olive' });
    other = await signUp(a.api, { name: 'Other Oscar' });
  });

  afterEach(() => sockets.closeAll());
  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(cluster)?.stop();
  });

  it('migrates and seeds once when both start together', async () => {
    const seeded = cluster.nodes.filter((n) => n.process.output().includes('demo data seeded'));
    expect(seeded).toHaveLength(1);
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ email: string; n: number }>(
        `select email, count(*)::int as n from users where email in ($1, $2, $3) group by email order by email`,
        ['admin@helpdesk.local', 'agent@helpdesk.local', TEST_ADMIN.email],
      );
      expect(rows).toEqual([
        { email: 'admin@helpdesk.local', n: 1 },
        { email: 'agent@helpdesk.local', n: 1 },
        { email: TEST_ADMIN.email, n: 1 },
      ]);
    } finally {
      await db.end();
    }
  });

  it('tells a socket joining on B when its rooms were last sent a change made through A', async () => {
    const [ownerOnA, adminOnA] = await Promise.all([sockets.listen(a.url, owner.token), sockets.listen(a.url, admin.token)]);
    const created = await createTicket(a.api, owner.token, { title: 'Changed before the socket came' });
    const isIt = (e: TicketChangedEvent) => e.ticket.id === created.id;
    const [toOwner, toStaff] = await Promise.all([ownerOnA.next('ticket-changed', isIt), adminOnA.next('ticket-changed', isIt)]);
    // Sockets that were not there: each hears of the latest change to its own rooms, through Redis.
    const [ownerOnB, agentOnB, otherOnB] = await Promise.all([
      sockets.listen(b.url, owner.token),
      sockets.listen(b.url, agent.token),
      sockets.listen(b.url, other.token),
    ]);
    expect((await ownerOnB.next('last-change')).at).toBe(toOwner.at);
    expect((await agentOnB.next('last-change')).at).toBe(toStaff.at);
    const otherLast = (await otherOnB.next('last-change')).at;
    expect(otherLast === null || otherLast < toOwner.at!).toBe(true);
  });

  it('accepts a token issued by one process on the other', async () => {
    const profile = await b.api.get('/users/profile', { token: other.token });
    expect(profile.status).toBe(200);
    expect(profile.body.user.email).toBe(other.user.email);
  });

  it('ends an API token on B the moment it is revoked on A, though B keeps token rows between calls', async () => {
    const made = await a.api.post('/tokens', { name: 'Across', scopes: ['tickets:read'] }, { token: agent.token });
    expect(made.status).toBe(201);
    const onB = () => b.api.get('/tickets/stats', { token: made.body.secret });
    // Twice on B: the second is answered from the row B kept.
    expect((await onB()).status).toBe(200);
    expect((await onB()).status).toBe(200);
    expect((await a.api.delete(`/tokens/${made.body.token.id}`, { token: agent.token })).status).toBe(200);
    const refused = await onB();
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(MESSAGES.apiTokens.invalid);
  });

  it('delivers a ticket created through A to its owner and staff on B, and to nobody else', async () => {
    const [ownerOnB, agentOnB, adminOnA, otherOnB, anonymousOnB] = await Promise.all([
      sockets.listen(b.url, owner.token),
      sockets.listen(b.url, agent.token),
      sockets.listen(a.url, admin.token),
      sockets.listen(b.url, other.token),
      sockets.listen(b.url),
    ]);
    const created = await createTicket(a.api, owner.token, { title: 'Printer jams across processes' });
    const isIt = (e: TicketChangedEvent) => e.action === 'created' && e.ticket.id === created.id;
    for (const listener of [ownerOnB, agentOnB, adminOnA]) {
      const event = await listener.next('ticket-changed', isIt);
      expect(event.ticket).toMatchObject({ id: created.id, title: 'Printer jams across processes', user: { id: owner.user.id } });
      expect(event.by).toEqual({ id: owner.user.id, name: 'Owner Olive' });
    }
    await sentinel(a.api, agent.token, [otherOnB, anonymousOnB]);
    expect(otherOnB.events['ticket-changed']).toEqual([]);
    expect(anonymousOnB.events['ticket-changed']).toEqual([]);
  });

  it('delivers an update and a comment made through B to the owner on A, and not to another user', async () => {
    const ticket = await createTicket(a.api, owner.token, { title: 'VPN refuses my password' });
    const [ownerOnA, otherOnA] = await Promise.all([sockets.listen(a.url, owner.token), sockets.listen(a.url, other.token)]);

    expect((await b.api.put(`/tickets/${ticket.id}`, { status: 'in_progress' }, { token: agent.token })).status).toBe(200);
    const updated = await ownerOnA.next('ticket-changed', (e) => e.action === 'updated' && e.ticket.id === ticket.id);
    expect(updated.ticket).toMatchObject({ status: 'in_progress', assignedAgent: { id: agent.user.id } });

    expect((await b.api.post(`/tickets/${ticket.id}/comments`, { content: 'Resetting it now.' }, { token: agent.token })).status).toBe(201);
    const comment = await ownerOnA.next('comment-added', (e) => e.ticketId === ticket.id);
    expect(comment.comment.content).toBe('Resetting it now.');

    await sentinel(b.api, agent.token, [otherOnA]);
    expect(otherOnA.events['ticket-changed']).toEqual([]);
    expect(otherOnA.events['comment-added']).toEqual([]);
  });

  it('delivers public helpful counts from A to an anonymous visitor on B', async () => {
    const article = await a.api.post(
      '/knowledge',
      { title: 'Reset your VPN password', content: 'Open the portal and choose Reset.', category: 'account', keywords: ['vpn'] },
      { token: agent.token },
    );
    expect(article.status).toBe(201);
    const anonymousOnB = await sockets.listen(b.url);
    const vote = await a.api.post(`/knowledge/${article.body.article.id}/helpful`, undefined, { token: other.token });
    expect(vote.status).toBe(200);
    const event = await anonymousOnB.next('helpful-count', (e) => e.articleId === article.body.article.id);
    expect(event.helpfulCount).toBe(vote.body.helpfulCount);
  });

  it('ends the sockets of a deleted agent on the other process', async () => {
    const leaving = await signUp(a.api, { role: 'agent', name: 'Agent Leaving' });
    const onB = await sockets.listen(b.url, leaving.token);
    expect((await a.api.delete(`/users/${leaving.user.id}`, { token: admin.token })).status).toBe(200);
    expect(await onB.disconnected()).toBe('io server disconnect');
    expect(await sockets.refusedHandshake(b.url, { token: leaving.token })).toBe(MESSAGES.auth.sessionInvalid);
  });

  it('spends one sign-in budget across both processes', async () => {
    const wrong = { email: other.user.email, password: 'Not-the-password1' };
    // The budget is 10 failures per address and email: five on each process spend it.
    for (const node of [a, b, a, b, a, b, a, b, a, b]) expect((await node.api.post('/auth/login', wrong)).status).toBe(401);
    for (const node of [a, b]) {
      const refused = await node.api.post('/auth/login', wrong);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe(MESSAGES.auth.tooManyLogins);
    }
  });
});
