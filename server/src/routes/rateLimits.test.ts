import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import { DEFAULT_RATE_LIMITS } from '../middleware/rateLimit.js';
import { ADMIN_ENV, STRONG_PASSWORD, TEST_ADMIN, createTicket, insertUser, uniqueEmail } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import type { ApiResponse } from '../../test/http.js';
import { expectRateLimited } from '../../test/rateLimited.js';
import { startTestServer, type TestServer } from '../../test/server.js';

/** Each test spends the budget of an address of its own, as the proxy in front reports it. */
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

describe('budgets per client address and per user (production numbers)', () => {
  let t: TestServer;
  const { loginPerAddress, signupPerAddress, resetSubmitPerAddress, commentPerUser } = DEFAULT_RATE_LIMITS;

  beforeAll(async () => {
    t = await startTestServer(
      { ...ADMIN_ENV, TRUST_PROXY: 'true' },
      { rateLimits: { loginPerAddress, signupPerAddress, resetSubmitPerAddress, commentPerUser } },
    );
  });
  afterAll(() => ifSetUp(t)?.close());

  it('stops password spraying: sign-ins with 40 different emails from one address are refused before the 40th', async () => {
    const statuses: number[] = [];
    let refused: ApiResponse | undefined;
    for (let i = 0; i < 40; i++) {
      const res = await t.api.post('/auth/login', { email: uniqueEmail('sprayed'), password: 'Spring2024!' }, from('203.0.113.10'));
      statuses.push(res.status);
      refused ??= res.status === 429 ? res : undefined;
    }
    expect(statuses).toEqual([...Array<number>(loginPerAddress.points).fill(401), ...Array<number>(40 - loginPerAddress.points).fill(429)]);
    expectRateLimited(refused!, MESSAGES.auth.tooManyLoginsFromAddress, loginPerAddress.durationSeconds);

    // Another address signs in as usual, and a wrong password there is still just wrong.
    const account = await insertUser(t, { name: 'Neighbour Nora' });
    expect((await t.api.post('/auth/login', { email: account.user.email, password: STRONG_PASSWORD }, from('203.0.113.11'))).status).toBe(
      200,
    );
    expect((await t.api.post('/auth/login', { email: uniqueEmail('ghost'), password: 'Spring2024!' }, from('203.0.113.11'))).status).toBe(
      401,
    );
  });

  it('limits sign-ups per address, leaves other addresses alone and does not count an admin creating accounts', async () => {
    const register = (address: string, token?: string, role = 'user') =>
      t.api.post(
        '/auth/register',
        { name: 'Bulk Bob', email: uniqueEmail('bulk'), password: STRONG_PASSWORD, role },
        { ...from(address), token },
      );
    for (let i = 0; i < signupPerAddress.points; i++) expect((await register('203.0.113.20')).status).toBe(201);
    expectRateLimited(await register('203.0.113.20'), MESSAGES.auth.tooManySignups, signupPerAddress.durationSeconds);

    expect((await register('203.0.113.21')).status).toBe(201);
    const admin = await t.api.post('/auth/login', { email: TEST_ADMIN.email, password: TEST_ADMIN.password }, from('203.0.113.20'));
    expect(admin.status).toBe(200);
    expect((await register('203.0.113.20', admin.body.token, 'agent')).status).toBe(201);
  });

  it('limits new-password submissions per address', async () => {
    const submit = (address: string) =>
      t.api.post('/auth/reset-password', { token: `guessed-${Math.random()}`, newPassword: 'Guess9$Pass' }, from(address));
    for (let i = 0; i < resetSubmitPerAddress.points; i++) {
      const res = await submit('203.0.113.30');
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(MESSAGES.auth.resetInvalid);
    }
    expectRateLimited(await submit('203.0.113.30'), MESSAGES.auth.tooManyResetAttempts, resetSubmitPerAddress.durationSeconds);
    expect((await submit('203.0.113.31')).status).toBe(400);
  });

  it('limits comments per user, and another user keeps commenting', async () => {
    const owner = await insertUser(t, { name: 'Chatty Chad' });
    const agent = await insertUser(t, { role: 'agent', name: 'Agent Calm' });
    const ticket = await createTicket(t.api, owner.token);
    const comment = (token: string, n: number) => t.api.post(`/tickets/${ticket.id}/comments`, { content: `Any news? (${n})` }, { token });

    for (let i = 0; i < commentPerUser.points; i++) expect((await comment(owner.token, i)).status).toBe(201);
    expectRateLimited(await comment(owner.token, 99), MESSAGES.tickets.tooManyComments, commentPerUser.durationSeconds);

    expect((await comment(agent.token, 1)).status).toBe(201);
    const stored = await t.api.get(`/tickets/${ticket.id}`, { token: owner.token });
    expect(stored.body.ticket.comments).toHaveLength(commentPerUser.points + 1);
  });
});

describe('the per-address sign-in budget', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({}, { rateLimits: { loginPerAddress: { points: 2, durationSeconds: 60 } } });
  });
  afterAll(() => ifSetUp(t)?.close());

  it('counts failed sign-ins only, and once spent refuses even the right password', async () => {
    const account = await insertUser(t);
    const login = (password: string) => t.api.post('/auth/login', { email: account.user.email, password });
    for (let i = 0; i < 3; i++) expect((await login(STRONG_PASSWORD)).status).toBe(200);
    expect((await login('Wrong123!')).status).toBe(401);
    expect((await t.api.post('/auth/login', { email: uniqueEmail('ghost'), password: 'Wrong123!' })).status).toBe(401);
    expect((await login(STRONG_PASSWORD)).body).toEqual({ success: false, message: MESSAGES.auth.tooManyLoginsFromAddress });
  });

  it('is not overrun by guesses sent all at once', async () => {
    const server = await startTestServer({}, { rateLimits: { loginPerAddress: { points: 3, durationSeconds: 60 } } });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 8 }, () =>
          server.api.post('/auth/login', { email: uniqueEmail('burst'), password: 'Wrong123!' }).then((r) => r.status),
        ),
      );
      expect(statuses.filter((s) => s === 401)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    } finally {
      await server.close();
    }
  });
});
