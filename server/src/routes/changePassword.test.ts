import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import { STRONG_PASSWORD, insertUser, logIn } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import type { ApiResponse } from '../../test/http.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { socketClients } from '../../test/socketClients.js';

const NEW_PASSWORD = 'Changed456!';
const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

function expectFieldError(res: ApiResponse, field: string, message: string) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, message, errors: { [field]: message } });
}

describe('PUT /api/users/password (Settings → Change password)', () => {
  let t: TestServer;
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer(
      { TRUST_PROXY: 'true' },
      {
        rateLimits: {
          passwordChangePerUser: { points: 3, durationSeconds: 900 },
          passwordChangePerAddress: { points: 6, durationSeconds: 900 },
        },
      },
    );
  });
  afterEach(() => sockets.closeAll());
  afterAll(() => ifSetUp(t)?.close());

  it('changes the password, keeps this session with a fresh token and signs out every other session and socket', async () => {
    const account = await insertUser(t, { name: 'Changing Chloe' });
    const otherTab = await logIn(t.api, account.user.email, STRONG_PASSWORD);
    const otherSocket = await sockets.listen(t.url, otherTab.token);

    const res = await t.api.put(
      '/users/password',
      { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD },
      { token: account.token, ...from('198.51.100.1') },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, token: expect.any(String), user: account.user, message: MESSAGES.users.passwordChanged });
    expect(JSON.stringify(res.body)).not.toMatch(/argon|hash/i);

    expect((await t.api.get('/auth/verify', { token: res.body.token })).status).toBe(200);
    expect((await t.api.get('/auth/verify', { token: account.token })).status).toBe(401);
    expect((await t.api.get('/auth/verify', { token: otherTab.token })).status).toBe(401);
    expect(await otherSocket.disconnected()).toBe('io server disconnect');

    expect((await t.api.post('/auth/login', { email: account.user.email, password: STRONG_PASSWORD }, from('198.51.100.1'))).status).toBe(
      401,
    );
    expect((await t.api.post('/auth/login', { email: account.user.email, password: NEW_PASSWORD }, from('198.51.100.1'))).status).toBe(200);
  });

  it('refuses a wrong current password on the field, without signing anybody out', async () => {
    const account = await insertUser(t);
    const res = await t.api.put(
      '/users/password',
      { currentPassword: 'Wrong123!', newPassword: NEW_PASSWORD },
      { token: account.token, ...from('198.51.100.2') },
    );
    expectFieldError(res, 'currentPassword', MESSAGES.users.currentPasswordWrong);
    expect((await t.api.get('/auth/verify', { token: account.token })).status).toBe(200);
  });

  it('applies the sign-up rules to the new password and asks for the current one', async () => {
    const account = await insertUser(t);
    const put = (body: unknown) => t.api.put('/users/password', body, { token: account.token, ...from('198.51.100.3') });
    expectFieldError(await put({ newPassword: NEW_PASSWORD }), 'currentPassword', MESSAGES.users.currentPasswordRequired);
    expectFieldError(
      await put({ currentPassword: '', newPassword: NEW_PASSWORD }),
      'currentPassword',
      MESSAGES.users.currentPasswordRequired,
    );
    expectFieldError(
      await put({ currentPassword: STRONG_PASSWORD, newPassword: 'weakpassword' }),
      'newPassword',
      MESSAGES.validation.passwordWeak,
    );
    expectFieldError(
      await put({ currentPassword: STRONG_PASSWORD, newPassword: 'Ab1!' }),
      'newPassword',
      MESSAGES.validation.passwordTooShort,
    );
    expectFieldError(await put({ currentPassword: STRONG_PASSWORD }), 'newPassword', MESSAGES.validation.passwordRequired);
    expectFieldError(
      await put({ currentPassword: STRONG_PASSWORD, newPassword: STRONG_PASSWORD }),
      'newPassword',
      MESSAGES.users.newPasswordSame,
    );
    expect((await t.api.put('/users/password', { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(401);
    expect((await t.api.get('/auth/verify', { token: account.token })).status).toBe(200);
  });

  it('limits attempts per account, whatever address they come from', async () => {
    const account = await insertUser(t);
    const attempt = (address: string) =>
      t.api.put('/users/password', { currentPassword: 'Guess123!', newPassword: NEW_PASSWORD }, { token: account.token, ...from(address) });
    for (let i = 0; i < 3; i++) expect((await attempt(`198.51.100.${10 + i}`)).status).toBe(400);
    const refused = await attempt('198.51.100.20');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, message: MESSAGES.users.tooManyPasswordChanges });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Even the right password waits until the budget is back: a guess that lands is not let through.
    const right = await t.api.put(
      '/users/password',
      { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD },
      { token: account.token, ...from('198.51.100.21') },
    );
    expect(right.status).toBe(429);
  });

  it('limits attempts per address over all accounts, and leaves other addresses alone', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const account = await insertUser(t);
      const res = await t.api.put(
        '/users/password',
        { currentPassword: 'Guess123!', newPassword: NEW_PASSWORD },
        { token: account.token, ...from('198.51.100.30') },
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 429]);
    const elsewhere = await insertUser(t);
    const res = await t.api.put(
      '/users/password',
      { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD },
      { token: elsewhere.token, ...from('198.51.100.31') },
    );
    expect(res.status).toBe(200);
  });
});
