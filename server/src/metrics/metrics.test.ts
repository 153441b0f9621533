import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import { emailOutbox, tickets } from '../db/schema/index.js';
import { RETRY_DELAYS_MS } from '../mail/outboxSender.js';
import { ADMIN_ENV, createCast, createTicket, insertUser, queuedMails, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { INBOUND_ENV, SUPPORT, deliver } from '../../test/inboundMail.js';
import { startMailReceiver, type MailReceiver } from '../../test/mailReceiver.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { parseSettings } from '../settings.js';
import { socketClients } from '../../test/socketClients.js';

const TOKEN = 'scrape-token-0123456789abcdef';

/** The value of one sample of Prometheus' text format, its labels matched whatever their order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** Every label value of the text, to check none names a person, an address or a ticket. */
const labelValues = (text: string) =>
  [...text.matchAll(/\{(.*)\}/g)].flatMap((m) => [...m[1]!.matchAll(/\w+="((?:[^"\\]|\\.)*)"/g)].map((v) => v[1]!));

const scrape = (url: string, token?: string) =>
  fetch(`${url}/metrics`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

describe('the metrics settings', () => {
  it('take a token of 16–256 characters without spaces and a port, and refuse anything else at start', () => {
    expect(parseSettings({}).metrics).toEqual({ token: undefined, port: undefined });
    expect(parseSettings({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' }).metrics).toEqual({ token: TOKEN, port: 9464 });
    expect(() => parseSettings({ METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN: must be 16-256 characters without spaces');
    expect(() => parseSettings({ METRICS_TOKEN: 'has a space in it somewhere' })).toThrow('METRICS_TOKEN');
    expect(() => parseSettings({ METRICS_PORT: '70000' })).toThrow('METRICS_PORT');
  });
});

describe('metrics off (no METRICS_TOKEN, no METRICS_PORT)', () => {
  let t: TestServer;
  let clientDir: string;

  beforeAll(async () => {
    // A built client answers every other page path with index.html: /metrics must not be one of them.
    clientDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-client-'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><title>HelpDesk</title>');
    t = await startTestServer({ CLIENT_DIR: clientDir });
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it('answers /metrics 404, with or without a token, while other page paths get the client', async () => {
    for (const token of [undefined, TOKEN]) {
      const res = await scrape(t.url, token);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, message: MESSAGES.http.notFound });
    }
    expect(t.server.metricsPort).toBeUndefined();
    const page = await fetch(`${t.url}/tickets/1`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>HelpDesk</title>');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestServer;
  let smtp: MailReceiver;
  let admin: Account, agent: Account, owner: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    // Mail to busy… and gone… is refused (451, 550); the rest is taken.
    smtp = await startMailReceiver({
      beforeAccept(mail) {
        if (mail.to.some((to) => to.startsWith('busy'))) throw Object.assign(new Error('Mailbox busy'), { responseCode: 451 });
        if (mail.to.some((to) => to.startsWith('gone'))) throw Object.assign(new Error('No such user'), { responseCode: 550 });
      },
    });
    t = await startTestServer(
      { ...ADMIN_ENV, ...INBOUND_ENV, SMTP_URL: smtp.url, METRICS_TOKEN: TOKEN },
      { rateLimits: { login: { points: 1, durationSeconds: 60 } }, mail: { pollMs: 3_600_000 } },
    );
    ({ admin, agent, owner } = await createCast(t));
  });
  afterEach(() => sockets.closeAll());
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(smtp)?.close();
  });

  const figures = async () => {
    const res = await scrape(t.url, TOKEN);
    expect(res.status).toBe(200);
    return res.text();
  };

  it('asks for the token: none or a wrong one is 401, the right one the text format with the process defaults', async () => {
    for (const token of [undefined, 'scrape-token-0123456789abcdeX', `${TOKEN}x`]) {
      const res = await scrape(t.url, token);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ success: false, message: MESSAGES.auth.authRequired });
    }
    expect((await fetch(`${t.url}/metrics`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const res = await scrape(t.url, TOKEN);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('times requests by method, route template and status, never by the path an id is in', async () => {
    const ticket = await createTicket(t.api, owner.token);
    expect((await t.api.get(`/tickets/${ticket.id}`, { token: agent.token })).status).toBe(200);
    expect((await t.api.get('/tickets/987654', { token: agent.token })).status).toBe(404);
    expect((await t.api.get('/no-such-call', { token: agent.token })).status).toBe(404);
    const text = await figures();
    const count = (labels: Record<string, string>) => sample(text, 'helpdesk_http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route: '/api/tickets/:id', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/api/tickets/:id', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'POST', route: '/api/tickets', status: '201' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
    const bucket = sample(text, 'helpdesk_http_request_duration_seconds_bucket', {
      method: 'GET',
      route: '/api/tickets/:id',
      status: '200',
      le: '+Inf',
    });
    expect(bucket).toBe(count({ method: 'GET', route: '/api/tickets/:id', status: '200' }));

    const values = labelValues(text);
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) {
      expect(value).not.toMatch(/@|\/\d+(\/|$)/);
      for (const person of [admin, agent, owner]) expect(value).not.toContain(person.user.name);
    }
  });

  it('shows tickets by status from the counters, and this process’s sockets', async () => {
    const open = await createTicket(t.api, owner.token);
    const resolved = await createTicket(t.api, owner.token);
    expect((await t.api.put(`/tickets/${resolved.id}`, { status: 'resolved' }, { token: agent.token })).status).toBe(200);
    const rows = await t.server.database.db.select({ status: tickets.status }).from(tickets);
    const expected = (status: string) => rows.filter((row) => row.status === status).length;
    await sockets.listen(t.url, agent.token);
    await sockets.listen(t.url, owner.token);

    const text = await figures();
    for (const status of ['open', 'in_progress', 'pending', 'resolved', 'closed'])
      expect(sample(text, 'helpdesk_tickets', { status }), status).toBe(expected(status));
    expect(expected('open')).toBeGreaterThanOrEqual(1);
    expect(open.status).toBe('open');
    expect(sample(text, 'helpdesk_socket_connections')).toBe(2);
  });

  it('counts rate-limit refusals by limit', async () => {
    const wrong = () => t.api.post('/auth/login', { email: owner.user.email, password: 'Wrong-password-1' });
    expect((await wrong()).status).toBe(401);
    expect((await wrong()).status).toBe(429);
    expect(sample(await figures(), 'helpdesk_rate_limit_refusals_total', { limit: 'login' })).toBe(1);
  });

  it('counts mail out by result and shows the outbox’s depth', async () => {
    const db = t.server.database.db;
    // The earlier tests' changes sent mail of their own.
    t.server.mailer.nudge();
    await t.server.mailer.idle();
    const before = await figures();
    const added = (text: string, result: string) =>
      (sample(text, 'helpdesk_mail_out_total', { result }) ?? 0) - (sample(before, 'helpdesk_mail_out_total', { result }) ?? 0);
    const later = new Date(Date.now() + 3_600_000);
    await db.insert(emailOutbox).values([
      ...queuedMails('ok', 2, { to: 'reader' }),
      ...queuedMails('busy', 1, { to: 'busy' }),
      // On its last try: every refusal is retried until then, a 5xx too.
      ...queuedMails('gone', 1, { to: 'gone' }).map((mail) => ({ ...mail, attempts: RETRY_DELAYS_MS.length })),
    ]);
    await db.insert(emailOutbox).values(queuedMails('later', 3, { to: 'later' }).map((mail) => ({ ...mail, nextAttemptAt: later })));
    t.server.mailer.nudge();
    await t.server.mailer.idle();
    expect(smtp.mails.filter((mail) => mail.to.some((to) => to.startsWith('reader')))).toHaveLength(2);

    const text = await figures();
    expect(added(text, 'sent')).toBe(2);
    expect(added(text, 'retry')).toBe(1);
    expect(added(text, 'failed')).toBe(1);
    // The one to try again and the three not due yet.
    const queued = await db.select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.status, 'queued'));
    expect(queued.length).toBeGreaterThanOrEqual(4);
    expect(sample(text, 'helpdesk_mail_outbox_depth')).toBe(queued.length);
  });

  it('counts mail in by how it was filed', async () => {
    const sender = await insertUser(t, { name: 'Mailing Mia' });
    const row = await deliver(t, { from: sender.user.email, to: SUPPORT, subject: 'The scanner jams', text: 'Every morning.' });
    expect(row.status).toBe('ticket');
    const loop = await deliver(t, {
      from: sender.user.email,
      to: SUPPORT,
      subject: 'Out of office',
      text: 'Away.',
      headers: { 'Auto-Submitted': 'auto-replied' },
    });
    expect(loop.status).toBe('ignored');
    // Counted once the worker has read the filed row back, a moment after the row says it was filed.
    const filed = async () => {
      const text = await figures();
      return ['ticket', 'ignored'].map((result) => sample(text, 'helpdesk_mail_in_total', { result }));
    };
    await expect.poll(filed).toEqual([1, 1]);
    const text = await figures();
    expect(labelValues(text).some((value) => value.includes(sender.user.email))).toBe(false);
  });

  it('counts service-level breaches by target, once each', async () => {
    const policy = await t.api.post(
      '/sla/policies',
      {
        name: 'Breaches counted',
        targets: {
          low: { firstResponseMinutes: 60, resolutionMinutes: 240 },
          medium: { firstResponseMinutes: 60, resolutionMinutes: 240 },
          high: { firstResponseMinutes: 60, resolutionMinutes: 240 },
          urgent: { firstResponseMinutes: 60, resolutionMinutes: 240 },
        },
      },
      { token: admin.token },
    );
    expect(policy.status).toBe(201);
    // A new policy is applied to the open tickets in the background: done before the due times are set.
    await t.server.services.slaReapply.idle();
    const ticket = await createTicket(t.api, owner.token);
    const past = new Date(Date.now() - 1000);
    await t.server.database.db
      .update(tickets)
      .set({ slaResponseDueAt: past, slaResponseWarnedAt: new Date(), slaNextMarkAt: past })
      .where(eq(tickets.id, ticket.id));
    // The server's own interval scan may hold or mark it first; either way it is marked, and counted, once.
    expect(await t.server.services.slaScan()).toBeLessThanOrEqual(1);
    const breaches = async () => sample(await figures(), 'helpdesk_sla_breaches_total', { target: 'first_response' });
    await expect.poll(breaches).toBe(1);
    expect(await t.server.services.slaScan()).toBe(0);
    expect(await breaches()).toBe(1);
    expect(sample(await figures(), 'helpdesk_sla_breaches_total', { target: 'resolution' })).toBe(0);
  });
});

describe('METRICS_PORT: a listener of its own', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ METRICS_PORT: '0', HOST: '127.0.0.1' });
  });
  afterAll(() => ifSetUp(t)?.close());

  it('serves /metrics there without a token when none is set, and nothing on the app’s port', async () => {
    const own = `http://127.0.0.1:${t.server.metricsPort}`;
    expect(t.server.metricsPort).toBeGreaterThan(0);
    const res = await scrape(own);
    expect(res.status).toBe(200);
    expect(sample(await res.text(), 'helpdesk_socket_connections')).toBe(0);
    expect((await fetch(`${own}/api/tickets`)).status).toBe(404);
    expect((await fetch(`${own}/metrics`, { method: 'DELETE' })).status).toBe(404);
    expect((await scrape(t.url)).status).toBe(404);
  });

  it('asks for METRICS_TOKEN there too when it is set', async () => {
    const other = await startTestServer({ METRICS_PORT: '0', HOST: '127.0.0.1', METRICS_TOKEN: TOKEN });
    try {
      const own = `http://127.0.0.1:${other.server.metricsPort}`;
      const refused = await scrape(own);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ success: false, message: MESSAGES.auth.authRequired });
      expect((await scrape(own, TOKEN)).status).toBe(200);
      expect((await scrape(other.url, TOKEN)).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
