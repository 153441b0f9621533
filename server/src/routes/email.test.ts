import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ENV, createCast } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { deliver, INBOUND_ENV, SUPPORT } from '../../test/inboundMail.js';
import { startTestServer, type TestServer } from '../../test/server.js';

describe('Email admin calls (docs/api.md#email-admin)', () => {
  let t: TestServer;
  let cast: Awaited<ReturnType<typeof createCast>>;

  beforeAll(async () => {
    t = await startTestServer({
      ...ADMIN_ENV,
      ...INBOUND_ENV,
      IMAP_URL: 'imaps://helpdesk:very-secret-password@imap.example.test/INBOX',
      IMAP_POLL_MS: '30000',
    });
    cast = await createCast(t);
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
  });

  it('shows admins the settings in force, never a password', async () => {
    const res = await t.api.get('/email/settings', { token: cast.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({
      supportAddress: SUPPORT,
      smtp: { host: '127.0.0.1', port: t.server.inboundSmtpPort },
      imap: { url: 'imaps://helpdesk@imap.example.test/INBOX', doneFolder: 'Processed', pollMs: 30_000 },
      createUsers: true,
      maxBytes: 36 * 1024 * 1024,
      maxPerSenderPerHour: 20,
    });
    expect(JSON.stringify(res.body)).not.toContain('very-secret-password');
  });

  it('lists the newest messages first with their status and reason, paged by id', async () => {
    const first = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'First', text: 'One.' });
    const second = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: 'Second',
      text: 'Two.',
      headers: { Precedence: 'bulk' },
    });
    const page = await t.api.get('/email/inbound?limit=1', { token: cast.admin.token });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      hasMore: true,
      messages: [{ id: second.id, status: 'ignored', reason: 'precedence', subject: 'Second' }],
    });
    const older = await t.api.get(`/email/inbound?limit=1&before=${second.id}`, { token: cast.admin.token });
    expect(older.body.messages).toMatchObject([{ id: first.id, status: 'ticket', ticketId: first.ticketId, from: cast.owner.user.email }]);
  });

  it('keeps every call but the raw download to admins, and validates ids and limits', async () => {
    for (const [method, path] of [
      ['GET', '/email/settings'],
      ['GET', '/email/inbound'],
      ['POST', '/email/inbound/1/retry'],
    ] as const) {
      const res = await t.api.request(method, path, { token: cast.agent.token });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { message: 'Only administrators can perform this action' } });
      const anonymous = await t.api.request(method, path);
      expect(anonymous.status).toBe(401);
    }
    expect((await t.api.get('/email/inbound?limit=500', { token: cast.admin.token })).body).toMatchObject({
      message: 'Limit must be a whole number from 1 to 100',
    });
    expect((await t.api.post('/email/inbound/abc/retry', undefined, { token: cast.admin.token })).status).toBe(400);
    expect(await t.api.post('/email/inbound/999999/retry', undefined, { token: cast.admin.token })).toMatchObject({
      status: 404,
      body: { message: 'Inbound message not found' },
    });
    expect((await t.api.get('/email/inbound/999999/raw', { token: cast.agent.token })).status).toBe(404);
  });

  it('retries only a failed message', async () => {
    const row = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'Fine', text: 'Filed fine.' });
    expect(await t.api.post(`/email/inbound/${row.id}/retry`, undefined, { token: cast.admin.token })).toMatchObject({
      status: 409,
      body: { message: 'Only a failed message can be retried' },
    });
  });
});
