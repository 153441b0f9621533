import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MESSAGES, WEBHOOK_EVENTS } from '@helpdesk/protocol';
import { webhooks } from '../db/schema/index.js';
import { isPublicAddress } from '../lib/publicAddress.js';
import { createLogger } from '../lib/logger.js';
import { ADMIN_ENV, createCast, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhookReceiver.js';

const M = MESSAGES.webhooks;
const OPEN_ENV = { ...ADMIN_ENV, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' };

/** docs/api.md#webhooks over real HTTP: managing endpoints, their secrets, tests, logs and retries. */
describe('webhooks API', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  let admin: Account, agent: Account, owner: Account;
  const logLines: string[] = [];

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestServer(OPEN_ENV, {
      logger: createLogger('debug', { write: (line: string) => void logLines.push(line) }),
      webhooks: { pollMs: 3_600_000 },
    });
    ({ admin, agent, owner } = await createCast(t));
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(receiver)?.close();
  });

  const create = (body: object, who: Account = admin) => t.api.post('/webhooks', body, { token: who.token });
  const hookBody = (path: string, extra: object = {}) => ({ url: receiver.url(path), events: ['ticket.created'], ...extra });
  const drained = async () => {
    await t.server.webhooks.idle();
    await t.server.webhooks.passOnce();
  };

  it('answers the secret once, at creation, and never in a list or an edit', async () => {
    const res = await create({ ...hookBody('/crud'), description: '  CRM sync ' });
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(res.body.webhook).toMatchObject({
      url: receiver.url('/crud'),
      description: 'CRM sync',
      events: ['ticket.created'],
      includeInternal: false,
      active: true,
      disabledReason: null,
    });
    const listed = await t.api.get('/webhooks', { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks).toContainEqual(res.body.webhook);
    const edited = await t.api.put(
      `/webhooks/${res.body.webhook.id}`,
      { events: ['ticket.updated', 'ticket.created'] },
      { token: admin.token },
    );
    expect(edited.status).toBe(200);
    expect(edited.body.webhook.events).toEqual(['ticket.created', 'ticket.updated']);
    for (const answer of [listed.body, edited.body]) expect(JSON.stringify(answer)).not.toContain(res.body.secret.slice(6));
    expect(logLines.join('\n')).not.toContain(res.body.secret.slice(6));
  });

  it('says what is wrong with an endpoint asked for', async () => {
    const bad = await create({ url: 'ftp://example.com/x', description: 'x'.repeat(201), events: ['ticket.created', 'ticket.eaten'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      url: 'Webhook URL must be an https URL of at most 2000 characters',
      description: M.descriptionTooLong,
      events: `Events must be among: ${WEBHOOK_EVENTS.join(', ')}`,
    });
    expect(bad.body.errors.events).toBe(
      'Events must be among: ticket.created, ticket.updated, ticket.deleted, comment.created, sla.warning, sla.breached, csat.received',
    );
    const none = await create({ url: 'https://example.com/hook', events: [] });
    expect(none.body.errors).toEqual({ events: 'Choose at least one event' });
    const long = await create({ url: `https://example.com/${'a'.repeat(2000)}`, events: ['ticket.created'] });
    expect(long.body.message).toBe(M.urlInvalid);
    const flags = await create({ url: 'https://example.com/hook', events: ['ticket.created'], includeInternal: 'yes', active: 1 });
    expect(flags.body.errors).toEqual({ includeInternal: M.includeInternalInvalid, active: M.activeInvalid });
    expect((await create({ url: 'not a url', events: ['ticket.created'] })).body.message).toBe(M.urlInvalid);
    const missing = await t.api.put('/webhooks/999999', { active: false }, { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(M.notFound);
  });

  it('is for admins only: 403 to an agent and a user, 401 signed out', async () => {
    for (const who of [agent, owner]) {
      const res = await create(hookBody('/nobody'), who);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(MESSAGES.http.adminOnly);
      expect((await t.api.get('/webhooks', { token: who.token })).status).toBe(403);
    }
    expect((await t.api.post('/webhooks', hookBody('/nobody'))).status).toBe(401);
  });

  it('rotates the secret: the next delivery is signed with the new one, verified by standardwebhooks', async () => {
    const made = await create({ ...hookBody('/rotate'), events: ['ticket.created'] });
    const id = made.body.webhook.id as number;
    const rotated = await t.api.post(`/webhooks/${id}/rotate-secret`, undefined, { token: admin.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(made.body.secret);
    expect(rotated.body.webhook.id).toBe(id);

    const queued = await t.api.post(`/webhooks/${id}/test`, undefined, { token: admin.token });
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({ message: M.testQueued, delivery: { event: 'webhook.test', status: 'pending' } });
    await drained();
    const [hook] = receiver.at('/rotate');
    expect(hook!.json).toMatchObject({ type: 'webhook.test', data: { webhookId: id } });
    expect(hook!.headers['webhook-id']).toBe(queued.body.delivery.messageId);
    const headers = hook!.headers as Record<string, string>;
    expect(new StandardWebhook(rotated.body.secret).verify(hook!.body, headers)).toEqual(hook!.json);
    expect(() => new StandardWebhook(made.body.secret).verify(hook!.body, headers)).toThrow();
  });

  it('lists a webhook’s deliveries newest first, a page at a time, and retries a failed one', async () => {
    const { body } = await create(hookBody('/log'));
    const id = body.webhook.id as number;
    receiver.answer('/log', { status: 500 });
    for (let i = 0; i < 3; i++) await t.api.post(`/webhooks/${id}/test`, undefined, { token: admin.token });
    await drained();
    const page = await t.api.get(`/webhooks/${id}/deliveries?limit=2`, { token: admin.token });
    expect(page.status).toBe(200);
    expect(page.body.hasMore).toBe(true);
    const [newest, second] = page.body.deliveries;
    expect(newest.id).toBeGreaterThan(second.id);
    const rest = await t.api.get(`/webhooks/${id}/deliveries?limit=2&before=${second.id}`, { token: admin.token });
    expect(rest.body).toMatchObject({ hasMore: false, deliveries: [expect.objectContaining({ status: 'pending', attempts: 1 })] });
    const failedOne = rest.body.deliveries[0];
    expect(failedOne).toMatchObject({ lastStatusCode: 500, lastError: 'Answered 500 Internal Server Error' });
    expect(failedOne.durationMs).toBeGreaterThanOrEqual(0);
    expect(newest).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null });

    // Only a failed delivery may be sent again; one given up on may.
    const pending = await t.api.post(`/webhooks/deliveries/${failedOne.id}/retry`, undefined, { token: admin.token });
    expect(pending.status).toBe(400);
    expect(pending.body.message).toBe(M.retryNotFailed);
    await t.api.put(`/webhooks/${id}`, { active: false }, { token: admin.token });
    const turnedOff = (await t.api.get(`/webhooks/${id}/deliveries`, { token: admin.token })).body.deliveries[2];
    expect(turnedOff).toMatchObject({ id: failedOne.id, status: 'failed', lastError: M.turnedOff });
    const inactive = await t.api.post(`/webhooks/deliveries/${failedOne.id}/retry`, undefined, { token: admin.token });
    expect(inactive.body.message).toBe(M.retryInactive);
    expect((await t.api.post(`/webhooks/${id}/test`, undefined, { token: admin.token })).body.message).toBe(M.testInactive);
    await t.api.put(`/webhooks/${id}`, { active: true }, { token: admin.token });
    const retried = await t.api.post(`/webhooks/deliveries/${failedOne.id}/retry`, undefined, { token: admin.token });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ message: M.retried, delivery: { status: 'pending', attempts: 0 } });
    await drained();
    const after = (await t.api.get(`/webhooks/${id}/deliveries`, { token: admin.token })).body.deliveries[2];
    expect(after).toMatchObject({ id: failedOne.id, status: 'delivered', attempts: 1 });
    const again = receiver.at('/log').filter((hook) => hook.headers['webhook-id'] === failedOne.messageId);
    expect(again).toHaveLength(2);

    expect((await t.api.post('/webhooks/deliveries/999999/retry', undefined, { token: admin.token })).body.message).toBe(
      M.deliveryNotFound,
    );
    expect((await t.api.get(`/webhooks/${id}/deliveries?limit=500`, { token: admin.token })).status).toBe(400);
  });

  it('deletes a webhook with its log', async () => {
    const { body } = await create(hookBody('/gone'));
    const res = await t.api.delete(`/webhooks/${body.webhook.id}`, { token: admin.token });
    expect(res.body).toEqual({ success: true, message: M.deleted });
    expect((await t.api.delete(`/webhooks/${body.webhook.id}`, { token: admin.token })).status).toBe(404);
    expect((await t.api.get(`/webhooks/${body.webhook.id}/deliveries`, { token: admin.token })).status).toBe(404);
  });

  it('keeps at most 20 webhooks', async () => {
    const count = (await t.api.get('/webhooks', { token: admin.token })).body.webhooks.length as number;
    for (let i = count; i < LIMITS.webhooks.max; i++) expect((await create(hookBody(`/many-${i}`))).status).toBe(201);
    const over = await create(hookBody('/one-more'));
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('There can be at most 20 webhooks. Delete one to add another.');
    await t.server.database.db.delete(webhooks).where(eq(webhooks.url, receiver.url('/many-19')));
    expect((await create(hookBody('/one-more'))).status).toBe(201);
  });
});

describe('webhook addresses with WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE off', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  let admin: Account;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestServer(ADMIN_ENV, { webhooks: { pollMs: 3_600_000 } });
    ({ admin } = await createCast(t));
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(receiver)?.close();
  });

  it('refuses http, localhost and private literal addresses when made or changed', async () => {
    const post = (url: string) => t.api.post('/webhooks', { url, events: ['ticket.created'] }, { token: admin.token });
    expect((await post('http://example.com/hook')).body.errors).toEqual({ url: M.urlInvalid });
    for (const url of [
      'https://localhost/hook',
      'https://api.localhost/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://192.168.0.10/hook',
      'https://169.254.169.254/latest',
      'https://100.64.0.1/hook',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://0.0.0.0/hook',
      'https://0x7f.1/hook',
    ]) {
      const res = await post(url);
      expect({ url, status: res.status, errors: res.body.errors }).toEqual({ url, status: 400, errors: { url: M.urlNotPublic } });
    }
    const made = await post('https://hooks.example.com/in');
    expect(made.status).toBe(201);
    const changed = await t.api.put(`/webhooks/${made.body.webhook.id}`, { url: 'https://10.0.0.1/in' }, { token: admin.token });
    expect(changed.body.errors).toEqual({ url: M.urlNotPublic });
  });

  it('fails a delivery to a name that resolves to a private address, with the reason recorded, sending nothing', async () => {
    // This machine's name: accepted when made (a name is not known until resolved), loopback once resolved.
    const host = hostname();
    expect((await lookup(host, { all: true })).map(({ address }) => isPublicAddress(address))).not.toContain(true);
    const url = `https://${host}:${new URL(receiver.url()).port}/hook`;
    const made = await t.api.post('/webhooks', { url, events: ['ticket.created'] }, { token: admin.token });
    expect(made.status).toBe(201);
    const id = made.body.webhook.id as number;
    await t.api.post(`/webhooks/${id}/test`, undefined, { token: admin.token });
    await t.server.webhooks.idle();
    const [delivery] = (await t.api.get(`/webhooks/${id}/deliveries`, { token: admin.token })).body.deliveries;
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastStatusCode: null,
      lastError: `Refused: ${host} is not a public address`,
    });
    expect(receiver.received).toHaveLength(0);
  });
});
