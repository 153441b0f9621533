import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ENV, STRONG_PASSWORD, TEST_ADMIN, logIn, signUp } from '../../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { ifSetUp } from '../../test/hooks.js';
import { createApiClient } from '../../test/http.js';
import { startServerProcess, type ServerProcess } from '../../test/serverProcess.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhookReceiver.js';

/** The secret of the first link `link` finds in the outbox's .eml files, newest first, undoing quoted-printable first. */
async function secretFromOutbox(dataDir: string, link: RegExp): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const files = (await readdir(outbox)).filter((f) => f.endsWith('.eml')).sort();
  for (const file of files.reverse()) {
    const raw = await readFile(path.join(outbox, file), 'utf8');
    const decoded = raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    const match = link.exec(decoded);
    if (match) return decodeURIComponent(match[1]!);
  }
  throw new Error(`no link ${String(link)} in the outbox`);
}

/** The secret once a mail with it is in the outbox (written after commit, so polled). */
async function awaitSecret(dataDir: string, link: RegExp): Promise<string | undefined> {
  for (let i = 0; i < 50; i++) {
    const secret = await secretFromOutbox(dataDir, link).catch(() => undefined);
    if (secret) return secret;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

/** What the process writes at the most verbose level, while the sign-in and reset flows run. */
describe('the log of a server process', () => {
  let dataDir: string;
  let database: TestDatabase;
  let server: ServerProcess;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-log-'));
    database = await createTestDatabase();
    server = await startServerProcess({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'trace',
      SEED_DEMO: 'false',
      PUBLIC_URL: 'http://helpdesk.test',
      JWT_SECRET: 'log-test-secret-that-is-long-enough-for-hs256',
      ...ADMIN_ENV,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      ...(database.target.kind === 'postgres' && { DATABASE_URL: database.target.url }),
    });
  });
  afterAll(async () => {
    await ifSetUp(server)?.stop();
    await ifSetUp(database)?.drop();
    await ifSetUp(receiver)?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('carries no password, password hash, session token, reset link secret or webhook secret', async () => {
    const api = createApiClient(server.url);
    const account = await signUp(api, { name: 'Quiet Quinn' });
    const login = await api.post('/auth/login', { email: account.user.email, password: STRONG_PASSWORD });
    expect(login.status).toBe(200);
    expect((await api.post('/auth/login', { email: account.user.email, password: 'Wrong-Guess1!' })).status).toBe(401);

    expect((await api.post('/auth/request-password-reset', { email: account.user.email })).status).toBe(200);
    const token = await awaitSecret(dataDir, /reset-password\?token=([A-Za-z0-9._~%-]+)/);
    expect(token).toBeDefined();
    // The link as the browser opens it, then the form's submissions: a wrong token and the right one.
    await fetch(`${server.url}/reset-password?token=${encodeURIComponent(token!)}`);
    expect((await api.post('/auth/reset-password', { token: `${token}x`, newPassword: 'Quiet9$New' })).status).toBe(400);
    expect((await api.post('/auth/reset-password', { token, newPassword: 'Quiet9$New' })).status).toBe(200);

    // A webhook made, its secret rotated, a delivery signed with it.
    const admin = await logIn(api, TEST_ADMIN.email, TEST_ADMIN.password);
    const made = await api.post('/webhooks', { url: receiver.url('/log'), events: ['ticket.created'] }, { token: admin.token });
    expect(made.status).toBe(201);
    const rotated = await api.post(`/webhooks/${made.body.webhook.id}/rotate-secret`, undefined, { token: admin.token });
    expect((await api.post(`/webhooks/${made.body.webhook.id}/test`, undefined, { token: admin.token })).status).toBe(200);
    await expect.poll(() => receiver.received.length).toBe(1);
    const webhookSecrets = [made.body.secret as string, rotated.body.secret as string].map((secret) => secret.slice('whsec_'.length));

    // A survey link: its token is in the path of its page and of its API calls. (The reset ended the
    // earlier sessions.)
    const owner = await logIn(api, account.user.email, 'Quiet9$New');
    const ticket = await api.post(
      '/tickets',
      { title: 'A quiet printer', description: 'It prints nothing at all.', priority: 'low' },
      { token: owner.token },
    );
    expect(ticket.status).toBe(201);
    const resolved = await api.put(`/tickets/${ticket.body.ticket.id}`, { status: 'resolved' }, { token: admin.token });
    expect(resolved.status).toBe(200);
    const survey = await awaitSecret(dataDir, /\/rate\/([A-Za-z0-9_-]+)\?rating=/);
    expect(survey).toBeDefined();
    await fetch(`${server.url}/rate/${survey!}?rating=good`);
    expect((await api.get(`/csat/${survey!}`)).status).toBe(200);
    expect((await api.post(`/csat/${survey!}`, { rating: 'good' })).status).toBe(200);

    expect(await server.stop()).toBe(0);
    const log = server.output();
    expect(log).toContain('mail written to outbox');
    expect(log).toContain('/api/auth/reset-password');
    expect(log).toContain('/api/csat/[redacted]');
    expect(log).toContain('webhook secret rotated');
    for (const secret of [
      token!,
      encodeURIComponent(token!),
      account.token,
      login.body.token,
      STRONG_PASSWORD,
      'Wrong-Guess1!',
      'Quiet9$New',
      '$argon2',
      admin.token,
      TEST_ADMIN.password,
      ...webhookSecrets,
      owner.token,
      survey!,
      receiver.received[0]!.headers['webhook-signature'] as string,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
