import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MESSAGES, TOKEN_SCOPES } from '@helpdesk/protocol';
import { apiTokens, users } from '../db/schema/index.js';
import { createLogger } from '../lib/logger.js';
import { ADMIN_ENV, createCast, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { expectRateLimited } from '../../test/rateLimited.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { socketClients } from '../../test/socketClients.js';

const M = MESSAGES.apiTokens;

/** docs/api.md#api-tokens over real HTTP: making, listing and revoking tokens, and calls made with them. */
describe('API tokens', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account;
  const logLines: string[] = [];
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV, {
      logger: createLogger('info', { write: (line: string) => void logLines.push(line) }),
      rateLimits: { tokenRequests: { points: 5, durationSeconds: 60 } },
    });
    ({ admin, agent, owner } = await createCast(t));
  });
  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(t)?.close();
  });

  const create = (who: Account, body: object) => t.api.post('/tokens', body, { token: who.token });
  /** A token of `who`'s with these scopes: its id and secret. */
  const tokenOf = async (who: Account, scopes: string[], name = `token ${Math.random()}`) => {
    const res = await create(who, { name, scopes });
    expect(res.status).toBe(201);
    return { id: res.body.token.id as number, secret: res.body.secret as string };
  };
  const withSecret = (secret: string) => ({ token: secret });

  it('gives staff a secret once, keeps only its hash, and lists the token without it', async () => {
    const res = await create(agent, { name: 'Nightly export', scopes: ['tickets:read'], expiresInDays: 30 });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^hd_pat_[\w-]{43}$/);
    expect(res.body.token).toMatchObject({
      name: 'Nightly export',
      scopes: ['tickets:read'],
      lastUsedAt: null,
      owner: { id: agent.user.id },
    });
    const days = (Date.parse(res.body.token.expiresAt) - Date.parse(res.body.token.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(30, 5);

    const [row] = await t.server.database.db.select().from(apiTokens).where(eq(apiTokens.id, res.body.token.id));
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(res.body.secret.slice(7));
    const listed = await t.api.get('/tokens', { token: agent.token });
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toContainEqual(res.body.token);
    expect(JSON.stringify(listed.body)).not.toContain(res.body.secret);
    expect(logLines.join('\n')).not.toContain(res.body.secret);
  });

  it('refuses end users, and says what is wrong with a token asked for', async () => {
    const refused = await create(owner, { name: 'Mine', scopes: ['tickets:read'] });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(M.staffOnly);
    expect((await t.api.get('/tokens', { token: owner.token })).status).toBe(403);
    expect((await t.api.post('/tokens', { name: 'x', scopes: ['tickets:read'] })).status).toBe(401);

    const bad = await create(agent, { name: '', scopes: ['tickets:read', 'root'], expiresInDays: 400 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      name: M.nameRequired,
      scopes: M.scopesInvalid(TOKEN_SCOPES),
      expiresInDays: M.expiresInvalid,
    });
    expect((await create(agent, { name: 'No scopes', scopes: [] })).body.errors).toEqual({ scopes: M.scopesRequired });

    await tokenOf(agent, ['tickets:read'], 'Twice');
    const twice = await create(agent, { name: 'twice', scopes: ['tickets:read'] });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(M.duplicateName);
  });

  it('keeps at most 20 live tokens a person; an expired one frees its place and its name', async () => {
    const staff = await insertUser(t, { role: 'agent' });
    const ids: number[] = [];
    for (let i = 0; i < LIMITS.apiTokens.perPerson; i++) ids.push((await tokenOf(staff, ['tickets:read'], `Token ${i}`)).id);
    const over = await create(staff, { name: 'One more', scopes: ['tickets:read'] });
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(M.tooMany(LIMITS.apiTokens.perPerson));
    await t.server.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, ids[0]!));
    expect((await create(staff, { name: 'Token 0', scopes: ['tickets:read'] })).status).toBe(201);
  });

  it('acts for its owner within its scopes, and never on the calls a token must not reach', async () => {
    const reader = await tokenOf(agent, ['tickets:read']);
    const list = await t.api.get('/tickets', withSecret(reader.secret));
    expect(list.status).toBe(200);
    const write = await t.api.post(
      '/tickets',
      { title: 'From a script', description: 'Made by an integration.' },
      withSecret(reader.secret),
    );
    expect(write.status).toBe(403);
    expect(write.body.message).toBe(M.missingScope('tickets:write'));

    const writer = await tokenOf(agent, ['tickets:read', 'tickets:write']);
    const made = await t.api.post(
      '/tickets',
      { title: 'From a script', description: 'Made by an integration.' },
      withSecret(writer.secret),
    );
    expect(made.status).toBe(201);
    expect(made.body.ticket.user.id).toBe(agent.user.id);

    for (const [method, path] of [
      ['GET', '/tokens'],
      ['POST', '/tokens'],
      ['PUT', '/users/password'],
      ['POST', '/auth/register'],
      ['POST', '/auth/login'],
      ['POST', '/auth/request-password-reset'],
      ['POST', '/auth/reset-password'],
    ] as const) {
      const res = await t.api.request(method, path, { ...withSecret(writer.secret), ...(method !== 'GET' && { body: {} }) });
      if (path === '/auth/register') {
        // Sign-up takes no session at all: a token there is an account's header it ignores, never a way in.
        expect(res.status).not.toBe(201);
        continue;
      }
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.message).toBe(M.notForTokens);
    }
    const listed = (await t.api.get('/tokens', { token: agent.token })).body.tokens as { id: number; lastUsedAt: string | null }[];
    expect(listed.find((token) => token.id === writer.id)?.lastUsedAt).not.toBeNull();
  });

  it('adds nothing to its owner’s role: an agent’s admin scope opens no admin call, an admin’s does', async () => {
    const agentAdmin = await tokenOf(agent, ['admin', 'users:read']);
    const refused = await t.api.get('/users', withSecret(agentAdmin.secret));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MESSAGES.http.adminOnly);
    expect((await t.api.get('/users/staff', withSecret(agentAdmin.secret))).status).toBe(200);
    // The knowledge base, open to anyone signed out, is open to any token.
    expect((await t.api.get('/knowledge', withSecret(agentAdmin.secret))).status).toBe(200);
    const adminToken = await tokenOf(admin, ['admin']);
    expect((await t.api.get('/users', withSecret(adminToken.secret))).status).toBe(200);
    const noRead = await t.api.get('/users/staff', withSecret(adminToken.secret));
    expect(noRead.status).toBe(403);
    expect(noRead.body.message).toBe(M.missingScope('users:read'));
  });

  it('stops working when revoked, expired, or its owner is deleted or no longer staff', async () => {
    const calls = async (secret: string) => (await t.api.get('/tickets', withSecret(secret))).status;
    const revoked = await tokenOf(agent, ['tickets:read']);
    expect(await calls(revoked.secret)).toBe(200);
    const res = await t.api.delete(`/tokens/${revoked.id}`, { token: agent.token });
    expect(res.body).toEqual({ success: true, message: M.revoked });
    const gone = await t.api.get('/tickets', withSecret(revoked.secret));
    expect(gone.status).toBe(401);
    expect(gone.body.message).toBe(M.invalid);
    expect((await t.api.delete(`/tokens/${revoked.id}`, { token: agent.token })).status).toBe(404);

    const expired = await tokenOf(agent, ['tickets:read']);
    await t.server.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(apiTokens.id, expired.id));
    expect(await calls(expired.secret)).toBe(401);

    const leaving = await insertUser(t, { role: 'agent' });
    const ofDeleted = await tokenOf(leaving, ['tickets:read']);
    expect(await calls(ofDeleted.secret)).toBe(200);
    expect((await t.api.delete(`/users/${leaving.user.id}`, { token: admin.token })).status).toBe(200);
    expect(await calls(ofDeleted.secret)).toBe(401);

    const demoted = await insertUser(t, { role: 'agent' });
    const ofDemoted = await tokenOf(demoted, ['tickets:read']);
    await t.server.database.db.update(users).set({ role: 'user' }).where(eq(users.id, demoted.user.id));
    expect(await calls(ofDemoted.secret)).toBe(401);

    expect(await calls('hd_pat_not-a-token-anyone-was-given-0000000000000')).toBe(401);
  });

  it('is revoked when its owner’s role is lowered, and kept when it is raised', async () => {
    const calls = async (secret: string, path = '/tickets') => (await t.api.get(path, withSecret(secret))).status;
    const live = async () =>
      ((await t.api.get('/tokens', { token: admin.token })).body.tokens as { id: number }[]).map((token) => token.id);

    const demoted = await insertUser(t, { role: 'admin' });
    const ofDemoted = await tokenOf(demoted, ['tickets:read', 'admin']);
    const bystander = await tokenOf(admin, ['tickets:read']);
    expect(await calls(ofDemoted.secret)).toBe(200);
    expect(await calls(ofDemoted.secret, '/users')).toBe(200);
    expect((await t.api.put(`/users/${demoted.user.id}`, { role: 'agent' }, { token: admin.token })).status).toBe(200);
    for (const path of ['/tickets', '/users', '/webhooks']) {
      const res = await t.api.get(path, withSecret(ofDemoted.secret));
      expect(res.status, path).toBe(401);
      expect(res.body.message).toBe(M.invalid);
    }
    expect(await live()).not.toContain(ofDemoted.id);
    expect((await t.api.delete(`/tokens/${ofDemoted.id}`, { token: admin.token })).status).toBe(404);
    expect(await calls(bystander.secret)).toBe(200);

    const promoted = await insertUser(t, { role: 'agent' });
    const ofPromoted = await tokenOf(promoted, ['tickets:read', 'admin']);
    expect(await calls(ofPromoted.secret, '/users')).toBe(403);
    expect((await t.api.put(`/users/${promoted.user.id}`, { role: 'admin' }, { token: admin.token })).status).toBe(200);
    expect(await calls(ofPromoted.secret)).toBe(200);
    expect(await calls(ofPromoted.secret, '/users')).toBe(200);
    expect(await live()).toContain(ofPromoted.id);
  });

  it('lets admins list and revoke anyone’s tokens, and nobody else', async () => {
    const agents = await tokenOf(agent, ['tickets:read']);
    const other = await insertUser(t, { role: 'agent' });
    expect((await t.api.delete(`/tokens/${agents.id}`, { token: other.token })).status).toBe(404);
    const everyone = (await t.api.get('/tokens', { token: admin.token })).body.tokens as { id: number; owner: { id: number } }[];
    expect(everyone).toContainEqual(expect.objectContaining({ id: agents.id, owner: expect.objectContaining({ id: agent.user.id }) }));
    const own = (await t.api.get('/tokens', { token: other.token })).body.tokens as unknown[];
    expect(own).toEqual([]);
    expect((await t.api.delete(`/tokens/${agents.id}`, { token: admin.token })).status).toBe(200);
    expect((await t.api.get('/tickets', withSecret(agents.secret))).status).toBe(401);
  });

  it('spends a budget of its own per token (429), and opens no socket', async () => {
    const busy = await tokenOf(agent, ['tickets:read']);
    for (let i = 0; i < 5; i++) expect((await t.api.get('/tickets/stats', withSecret(busy.secret))).status).toBe(200);
    expectRateLimited(await t.api.get('/tickets/stats', withSecret(busy.secret)), M.tooManyRequests);
    const fresh = await tokenOf(agent, ['tickets:read']);
    expect((await t.api.get('/tickets/stats', withSecret(fresh.secret))).status).toBe(200);
    await expect(sockets.listen(t.url, fresh.secret)).rejects.toThrow();
  });
});

describe('API tokens guessed from one address', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({}, { rateLimits: { invalidTokensPerAddress: { points: 3, durationSeconds: 60 } } });
  });
  afterAll(() => ifSetUp(t)?.close());

  it('answers 401 to a few unknown secrets, then 429 without reading the database, while a session still works', async () => {
    const agent = await insertUser(t, { role: 'agent' });
    const good = await t.api.post('/tokens', { name: 'Kept', scopes: ['tickets:read'] }, { token: agent.token });
    const guess = (i: number) => t.api.get('/tickets', { token: `hd_pat_guess-${i}-${'x'.repeat(40)}` });
    for (let i = 0; i < 3; i++) expect((await guess(i)).status).toBe(401);
    expectRateLimited(await guess(3), M.tooManyInvalid);
    // The address is refused before any lookup, a good token too; sessions are another matter.
    expect((await t.api.get('/tickets', { token: good.body.secret })).status).toBe(429);
    expect((await t.api.get('/tickets', { token: agent.token })).status).toBe(200);
  });
});
