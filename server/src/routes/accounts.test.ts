import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@helpdesk/protocol';
import { executedRows } from '../db/rows.js';
import { MIN_BATCH } from '../db/shrinkingBatch.js';
import { RELEASE_BATCH } from '../services/users.js';
import { ADMIN_ENV, STRONG_PASSWORD, TEST_ADMIN, createTicket, logIn, signUp, uniqueEmail, type Account } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { cancelWideUpdates } from '../../test/slowStatements.js';

describe('accounts and support-agent management', () => {
  let t: TestServer;
  let admin: Account;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV, { rateLimits: { login: { points: 3, durationSeconds: 60 } } });
    admin = await logIn(t.api, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => t.close());

  it('bootstraps the ADMIN_EMAIL account as an admin', () => {
    expect(admin.user).toMatchObject({ email: TEST_ADMIN.email, role: 'admin' });
  });

  it('signs up, verifies and reads the profile without ever exposing a password', async () => {
    const email = uniqueEmail();
    const res = await t.api.post('/auth/register', { name: 'Nia New', email: `  ${email.toUpperCase()} `, password: STRONG_PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      name: 'Nia New',
      email,
      role: 'user',
      email_notifications: 'all',
      createdAt: expect.any(String),
    });
    const verify = await t.api.get('/auth/verify', { token: res.body.token });
    expect(verify.body).toEqual({ success: true, user: res.body.user });
    const profile = await t.api.get('/users/profile', { token: res.body.token });
    expect(profile.body).toEqual({ success: true, user: res.body.user });
    expect(JSON.stringify([res.body, verify.body, profile.body])).not.toMatch(/password|argon|hash/i);
  });

  it('rejects missing, malformed and tampered tokens with 401', async () => {
    const account = await signUp(t.api);
    expect((await t.api.get('/auth/verify')).status).toBe(401);
    expect((await t.api.get('/auth/verify', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    const [header, payload] = account.token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    const res = await t.api.get('/auth/verify', { token: forged });
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });

  it('saves the notification preference', async () => {
    const account = await signUp(t.api);
    const res = await t.api.put('/users/preferences', { email_notifications: 'important' }, { token: account.token });
    expect(res.body).toMatchObject({
      success: true,
      message: 'Email preferences updated successfully!',
      user: { email_notifications: 'important' },
    });
    expect((await t.api.get('/users/profile', { token: account.token })).body.user.email_notifications).toBe('important');
  });

  it('answers the same for a wrong password and an unknown email, and locks out brute force', async () => {
    const account = await signUp(t.api);
    const wrong = await t.api.post('/auth/login', { email: account.user.email, password: 'Wrong123!' });
    const unknown = await t.api.post('/auth/login', { email: uniqueEmail('ghost'), password: 'Wrong123!' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({ success: false, message: 'Invalid credentials' });
    await t.api.post('/auth/login', { email: account.user.email, password: 'Wrong123!' });
    await t.api.post('/auth/login', { email: account.user.email, password: 'Wrong123!' });
    const locked = await t.api.post('/auth/login', { email: account.user.email, password: STRONG_PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ success: false, message: 'Too many login attempts. Please try again later.' });
  });

  describe('support agents (admin)', () => {
    it('creates, lists, edits and deletes an agent', async () => {
      const email = uniqueEmail('agent');
      const created = await t.api.post('/users', { name: 'Ada Agent', email, password: STRONG_PASSWORD }, { token: admin.token });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        success: true,
        message: 'Support agent created successfully',
        user: { name: 'Ada Agent', email, role: 'agent' },
      });
      const id = created.body.user.id as number;

      const list = await t.api.get('/users?role=agent', { token: admin.token });
      expect(list.body.users.map((u: User) => u.id)).toContain(id);
      expect(list.body.users.every((u: User) => u.role === 'agent')).toBe(true);

      const renamed = await t.api.put(`/users/${id}`, { name: 'Ada Lovelace', email, password: '' }, { token: admin.token });
      expect(renamed.body).toMatchObject({
        success: true,
        message: 'Support agent updated successfully',
        user: { name: 'Ada Lovelace', email },
      });
      await logIn(t.api, email, STRONG_PASSWORD); // blank password kept the old one

      const deleted = await t.api.delete(`/users/${id}`, { token: admin.token });
      expect(deleted.body).toEqual({ success: true, message: 'Support agent deleted successfully' });
      expect((await t.api.get('/users?role=agent', { token: admin.token })).body.users.map((u: User) => u.id)).not.toContain(id);
      expect((await t.api.post('/auth/login', { email, password: STRONG_PASSWORD })).status).toBe(401);
      expect((await t.api.delete(`/users/${id}`, { token: admin.token })).status).toBe(404);
    });

    it("revokes a deleted agent's token, releases their tickets and keeps their comments", async () => {
      const agent = await signUp(t.api, { role: 'agent', name: 'Gone Gary' });
      const owner = await signUp(t.api);
      const ticket = await createTicket(t.api, owner.token);
      await t.api.put(`/tickets/${ticket.id}`, { status: 'in_progress' }, { token: agent.token });
      await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Looking into it.' }, { token: agent.token });

      await t.api.delete(`/users/${agent.user.id}`, { token: admin.token });
      expect((await t.api.get('/auth/verify', { token: agent.token })).status).toBe(401);
      const after = (await t.api.get(`/tickets/${ticket.id}`, { token: owner.token })).body.ticket;
      expect(after.assignedAgent).toBeNull();
      // Releasing is a change of the ticket like any other: a new version.
      expect(after.version).toBe(ticket.version + 2);
      expect(after.updatedBy).toEqual({ id: admin.user.id, name: admin.user.name });
      expect(after.history.at(-1)).toMatchObject({ type: 'assigned', from: 'Gone Gary', to: null, actor: { id: admin.user.id } });
      expect(after.comments.map((c: { author: { name: string } }) => c.author.name)).toEqual(['Gone Gary']);
    });

    /** An agent holding `held` tickets of one owner, inserted directly: the API would take a request per ticket. */
    const agentHolding = async (name: string, held: number) => {
      const agent = await signUp(t.api, { role: 'agent', name });
      const owner = await signUp(t.api);
      await t.server.database.db.execute(sql`
        insert into tickets (title, description, user_id, assigned_agent_id, status)
        select 'Held ' || n, 'Assigned to the agent leaving', ${owner.user.id}::int, ${agent.user.id}::int, 'in_progress'
        from generate_series(1, ${held}::int) n`);
      return { agent, owner };
    };
    /** The owner's tickets after the agent's removal: still held, changed once (a version each), and their entries. */
    const released = async (owner: Account, agentName: string) =>
      (
        await executedRows(
          t.server.database.db,
          sql`select count(*) filter (where t.assigned_agent_id is not null)::int as still_held,
                count(*) filter (where t.version = 2)::int as changed_once,
                (select count(*)::int from ticket_history h join tickets x on x.id = h.ticket_id
                  where x.user_id = ${owner.user.id} and h.type = 'assigned' and h.from_value = ${agentName} and h.to_value is null) as entries
              from tickets t where t.user_id = ${owner.user.id}`,
        )
      )[0];

    it('releases every ticket of an agent holding more than a batch, each with its entry and version', async () => {
      const held = RELEASE_BATCH + 7;
      const { agent, owner } = await agentHolding('Busy Bea', held);
      const mine = await t.api.get('/tickets/stats?assignee=me', { token: agent.token });
      expect(mine.body.stats.total).toBe(held);

      expect((await t.api.delete(`/users/${agent.user.id}`, { token: admin.token })).status).toBe(200);
      expect(await released(owner, 'Busy Bea')).toEqual({ still_held: 0, changed_once: held, entries: held });
      // The maintained counts moved with them: none left under the agent, all unassigned.
      const unassigned = await t.api.get('/tickets/stats?assignee=none&status=in_progress', { token: admin.token });
      expect(unassigned.body.stats.in_progress).toBeGreaterThanOrEqual(held);
    });

    it('releases them in smaller batches when one runs past the statement timeout, each ticket once', async () => {
      const held = MIN_BATCH + 15;
      const { agent, owner } = await agentHolding('Slow Sal', held);
      const announced: number[] = [];
      const off = t.server.bus.subscribe('ticket.updated', ({ ticketId }) => {
        announced.push(ticketId);
      });
      // Each batch in a savepoint: the cancelled ones are undone alone, and the removal goes on.
      const undo = await cancelWideUpdates(t.server.database.db, 'tickets', MIN_BATCH + 5);
      try {
        expect((await t.api.delete(`/users/${agent.user.id}`, { token: admin.token })).status).toBe(200);
      } finally {
        off();
        await undo();
      }
      expect(await released(owner, 'Slow Sal')).toEqual({ still_held: 0, changed_once: held, entries: held });
      // Announced once each: nothing from the batches undone.
      expect(announced).toHaveLength(held);
      expect(new Set(announced).size).toBe(held);
    });

    it("lets a deleted account's email be used again", async () => {
      const email = uniqueEmail('reuse');
      const first = await t.api.post('/users', { name: 'First', email, password: STRONG_PASSWORD }, { token: admin.token });
      await t.api.delete(`/users/${first.body.user.id}`, { token: admin.token });
      const second = await t.api.post('/users', { name: 'Second', email, password: STRONG_PASSWORD }, { token: admin.token });
      expect(second.status).toBe(201);
      expect(second.body.user.id).not.toBe(first.body.user.id);
    });

    it("ends an agent's sessions when an admin sets a new password", async () => {
      const agent = await signUp(t.api, { role: 'agent' });
      await t.api.put(`/users/${agent.user.id}`, { password: 'Changed123!' }, { token: admin.token });
      expect((await t.api.get('/auth/verify', { token: agent.token })).status).toBe(401);
      await logIn(t.api, agent.user.email, 'Changed123!');
    });

    it('creates admins only on request and never plain users', async () => {
      const asAdmin = await t.api.post(
        '/users',
        { name: 'Second Admin', email: uniqueEmail('admin'), password: STRONG_PASSWORD, role: 'admin' },
        { token: admin.token },
      );
      expect(asAdmin.body.user.role).toBe('admin');
      const asUser = await t.api.post(
        '/users',
        { name: 'Plain', email: uniqueEmail(), password: STRONG_PASSWORD, role: 'user' },
        { token: admin.token },
      );
      expect(asUser.status).toBe(400);
      expect(asUser.body.message).toBe('Role must be agent or admin');
    });

    it('refuses a duplicate email with 409', async () => {
      const res = await t.api.post('/users', { name: 'Dup', email: TEST_ADMIN.email, password: STRONG_PASSWORD }, { token: admin.token });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ success: false, message: 'An account with this email already exists' });
    });
  });
});
