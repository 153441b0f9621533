import { eq, sql } from 'drizzle-orm';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, WEBHOOK_RETRY_DELAYS_MS, type Notification } from '@helpdesk/protocol';
import { tickets, webhookDeliveries, webhooks } from '../db/schema/index.js';
import { createUnitOfWork } from '../db/unitOfWork.js';
import { actorRef } from '../events/bus.js';
import { createLogger } from '../lib/logger.js';
import { createReadMemo } from '../services/readMemo.js';
import { ADMIN_ENV, createCast, createTicket, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhookReceiver.js';
import { queueWebhooks } from './queueWebhooks.js';
import { createWebhookSender } from './sender.js';

const M = MESSAGES.webhooks;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const METRICS_TOKEN = 'webhook-scrape-token-0123456789';

/** docs/api.md#webhooks: what each change sends, how failures are retried, and when an endpoint is turned off. */
describe('webhook deliveries', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  let admin: Account, agent: Account, owner: Account;
  /** The sender's clock runs this far ahead of the real one: tests move it to reach retries. */
  let ahead = 0;
  const at = (ms = ahead) => new Date(Date.now() + ms);

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestServer(
      { ...ADMIN_ENV, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', METRICS_TOKEN },
      { webhooks: { pollMs: 3_600_000, timeoutMs: 2_000, now: () => at() } },
    );
    ({ admin, agent, owner } = await createCast(t));
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(receiver)?.close();
  });

  /** An endpoint at `path` of the receiver: its id and secret. */
  const endpoint = async (path: string, events: string[], extra: object = {}) => {
    const res = await t.api.post('/webhooks', { url: receiver.url(path), events, ...extra }, { token: admin.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.webhook.id as number, secret: res.body.secret as string };
  };
  /** Lets the pass a commit nudged finish, then sends whatever is due at the sender's clock. */
  const sent = async () => {
    await t.server.webhooks.idle();
    await t.server.webhooks.passOnce(at());
  };
  const deliveriesOf = async (id: number) =>
    (await t.api.get(`/webhooks/${id}/deliveries?limit=100`, { token: admin.token })).body.deliveries;
  const verified = (secret: string, path: string) =>
    receiver.at(path).map((hook) => new StandardWebhook(secret).verify(hook.body, hook.headers as Record<string, string>));

  it('sends ticket.created, ticket.updated (with the previous values) and ticket.deleted, shaped like the staff socket events', async () => {
    const { secret } = await endpoint('/tickets', ['ticket.created', 'ticket.updated', 'ticket.deleted']);
    const ticket = await createTicket(t.api, owner.token, { title: 'Webhook printer', priority: 'low' });
    expect((await t.api.put(`/tickets/${ticket.id}`, { priority: 'high', status: 'in_progress' }, { token: agent.token })).status).toBe(
      200,
    );
    expect((await t.api.delete(`/tickets/${ticket.id}`, { token: owner.token })).status).toBe(403);
    const own = await createTicket(t.api, owner.token, { title: 'Owner deletes this' });
    expect((await t.api.delete(`/tickets/${own.id}`, { token: owner.token })).status).toBe(200);
    await sent();

    // Deliveries due together are sent side by side: found by what they are, not by when they came.
    const bodies = verified(secret, '/tickets') as { type: string; timestamp: string; data: any }[];
    expect(bodies.map((b) => b.type).sort()).toEqual(['ticket.created', 'ticket.created', 'ticket.deleted', 'ticket.updated']);
    for (const body of bodies) expect(Object.keys(body)).toEqual(['type', 'timestamp', 'data']);
    const find = (type: string, id: number) => bodies.find((b) => b.type === type && b.data.ticket.id === id);
    const [created, updated, deleted] = [
      find('ticket.created', ticket.id),
      find('ticket.updated', ticket.id),
      find('ticket.deleted', own.id),
    ];
    expect(created!.data).toEqual({
      ticket: expect.objectContaining({ id: ticket.id, title: 'Webhook printer' }),
      by: { id: owner.user.id, name: owner.user.name },
    });
    expect(updated!.data).toMatchObject({
      ticket: { id: ticket.id, priority: 'high', status: 'in_progress', version: 2 },
      by: { id: agent.user.id, name: agent.user.name },
      previous: { priority: 'low', status: 'open' },
      history: expect.arrayContaining([expect.objectContaining({ type: 'priority', from: 'low', to: 'high' })]),
    });
    expect(deleted!.data).toMatchObject({
      ticket: { id: own.id },
      by: { id: owner.user.id },
      previous: { id: own.id, title: 'Owner deletes this' },
    });
    expect(Date.parse(created!.timestamp)).toBeLessThanOrEqual(Date.now());
    // Each delivery has a message id of its own, sent as webhook-id.
    expect(new Set(receiver.at('/tickets').map((hook) => hook.headers['webhook-id'])).size).toBe(4);
    expect(receiver.at('/tickets')[0]!.headers['content-type']).toBe('application/json');
  });

  it('sends comment.created for replies, and internal notes only to endpoints that include them', async () => {
    const publicOnly = await endpoint('/comments', ['comment.created']);
    const withNotes = await endpoint('/notes', ['comment.created'], { includeInternal: true });
    const ticket = await createTicket(t.api, owner.token);
    const reply = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'We are on it.' }, { token: agent.token });
    const note = await t.api.post(
      `/tickets/${ticket.id}/comments`,
      { content: 'Vendor bug, see KB.', internal: true },
      { token: agent.token },
    );
    expect([reply.status, note.status]).toEqual([201, 201]);
    await sent();
    const [onlyReply] = verified(publicOnly.secret, '/comments') as { type: string; data: any }[];
    expect(receiver.at('/comments')).toHaveLength(1);
    expect(onlyReply).toMatchObject({
      type: 'comment.created',
      data: { ticketId: ticket.id, comment: { content: 'We are on it.', internal: false }, history: { type: 'comment' }, commentCount: 1 },
    });
    const both = verified(withNotes.secret, '/notes') as { data: any }[];
    expect(both.map((b) => [b.data.comment.content, b.data.comment.internal]).sort()).toEqual([
      ['Vendor bug, see KB.', true],
      ['We are on it.', false],
    ]);
  });

  it('sends sla.warning and sla.breached when the scanner marks them', async () => {
    const targets = { urgent: { firstResponseMinutes: 60, resolutionMinutes: 480 } };
    expect((await t.api.post('/sla/policies', { name: 'Webhook SLA', targets }, { token: admin.token })).status).toBe(201);
    const { secret } = await endpoint('/sla', ['sla.warning', 'sla.breached']);
    const ticket = await createTicket(t.api, owner.token, { priority: 'urgent' });
    const due = (columns: Partial<typeof tickets.$inferInsert>) =>
      t.server.database.db
        .update(tickets)
        .set({ ...columns, slaNextMarkAt: new Date(Date.now() - 1000) })
        .where(eq(tickets.id, ticket.id));
    await due({ slaResponseWarnAt: new Date(Date.now() - 1000), slaResponseDueAt: new Date(Date.now() + 10 * MINUTE) });
    expect(await t.server.services.slaScan()).toBe(1);
    await due({ slaResponseDueAt: new Date(Date.now() - 1000) });
    expect(await t.server.services.slaScan()).toBe(1);
    await sent();
    const marks = verified(secret, '/sla') as { type: string; data: any }[];
    expect(marks).toHaveLength(2);
    const [warning, breach] = ['sla.warning', 'sla.breached'].map((type) => marks.find((mark) => mark.type === type));
    expect(warning).toMatchObject({
      type: 'sla.warning',
      data: { ticketId: ticket.id, sla: { state: 'warning' }, history: [{ type: 'sla', from: 'first_response', to: 'warning' }] },
    });
    expect(breach).toMatchObject({
      type: 'sla.breached',
      data: { ticketId: ticket.id, sla: { state: 'breached' }, history: [{ type: 'sla', from: 'first_response', to: 'breached' }] },
    });
  });

  it('sends csat.received when an owner answers the survey of their resolved ticket', async () => {
    const { secret } = await endpoint('/csat', ['csat.received']);
    const ticket = await createTicket(t.api, owner.token);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'resolved' }, { token: agent.token })).status).toBe(200);
    const answered = await t.api.post(`/tickets/${ticket.id}/csat`, { rating: 'good', comment: 'Fixed fast' }, { token: owner.token });
    expect(answered.status).toBe(200);
    await sent();
    const [received] = verified(secret, '/csat') as { type: string; data: any }[];
    expect(receiver.at('/csat')).toHaveLength(1);
    expect(received).toMatchObject({
      type: 'csat.received',
      data: { ticketId: ticket.id, csat: { rating: 'good', comment: 'Fixed fast', at: expect.any(String) } },
    });
  });

  it('retries a failing endpoint after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h with the same webhook-id, then gives up', async () => {
    const { id, secret } = await endpoint('/flaky', ['ticket.created']);
    receiver.answer('/flaky', ...Array.from({ length: 8 }, () => ({ status: 503 })));
    const start = ahead;
    await createTicket(t.api, owner.token);
    await sent();
    const seen: number[] = [];
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      const [delivery] = await deliveriesOf(id);
      expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: 503, lastError: 'Answered 503 Service Unavailable' });
      // Counted from the failure: the attempt's start and what it took, then the delay.
      seen.push(Date.parse(delivery.nextAttemptAt) - Date.parse(delivery.lastAttemptAt) - delivery.durationMs);
      // A moment before it is due nothing is sent; at the time, it is.
      ahead += delay - 1000;
      await sent();
      expect(receiver.at('/flaky')).toHaveLength(seen.length);
      ahead += 1000;
      await sent();
      expect(receiver.at('/flaky')).toHaveLength(seen.length + 1);
    }
    expect(seen.map((gap) => Math.round(gap / 1000) * 1000)).toEqual([...WEBHOOK_RETRY_DELAYS_MS]);
    const [given] = await deliveriesOf(id);
    expect(given).toMatchObject({ status: 'failed', attempts: 8, lastStatusCode: 503, nextAttemptAt: null });
    const hooks = receiver.at('/flaky');
    expect(new Set(hooks.map((hook) => hook.headers['webhook-id']))).toEqual(new Set([given.messageId]));
    expect(new Set(hooks.map((hook) => hook.body)).size).toBe(1);
    // The first attempt's signature checks out now; the later ones were signed at their own (moved) times.
    expect(new StandardWebhook(secret).verify(hooks[0]!.body, hooks[0]!.headers as Record<string, string>)).toMatchObject({
      type: 'ticket.created',
    });
    expect(hooks.map((hook) => Number(hook.headers['webhook-timestamp']))).toEqual(
      [...hooks.map((hook) => Number(hook.headers['webhook-timestamp']))].sort(),
    );
    ahead = start;
    // Not disabled: under five days of failures.
    expect((await t.api.get('/webhooks', { token: admin.token })).body.webhooks.find((w: { id: number }) => w.id === id).active).toBe(true);
    await t.api.delete(`/webhooks/${id}`, { token: admin.token });
  });

  it('does not follow a redirect: a 3xx is a failure, and its target never hears of it', async () => {
    const { id } = await endpoint('/moved', ['ticket.created']);
    receiver.answer('/moved', { status: 302, headers: { location: receiver.url('/elsewhere') } });
    await createTicket(t.api, owner.token);
    await sent();
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: 302, lastError: M.redirected(302, receiver.url('/elsewhere')) });
    expect(receiver.at('/elsewhere')).toHaveLength(0);
    await t.api.delete(`/webhooks/${id}`, { token: admin.token });
  });

  it('counts no answer within the timeout as a failure', async () => {
    const { id } = await endpoint('/slow', ['ticket.created']);
    receiver.answer('/slow', 'hang');
    await createTicket(t.api, owner.token);
    await sent();
    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: null, lastError: 'No answer within 2 s' });
    expect(delivery.durationMs).toBeGreaterThanOrEqual(1900);
    await t.api.delete(`/webhooks/${id}`, { token: admin.token });
  });

  it('keeps sending to the other endpoints while one does not answer', async () => {
    const hanging = await endpoint('/hangs', ['ticket.created']);
    const healthy = await endpoint('/healthy', ['ticket.updated']);
    receiver.answer('/hangs', 'hang');
    // No pass is asked for: the commits' nudges alone send, as in a running server.
    const ticket = await createTicket(t.api, owner.token);
    const [hung] = await receiver.waitFor('/hangs', 1);
    // /hangs waits out its 2 s timeout; a change committed meanwhile reaches /healthy at once.
    const committed = Date.now();
    expect((await t.api.put(`/tickets/${ticket.id}`, { priority: 'high' }, { token: agent.token })).status).toBe(200);
    const [updated] = await receiver.waitFor('/healthy', 1);
    expect(updated!.receivedAt - committed).toBeLessThan(1_000);
    expect(updated!.receivedAt).toBeLessThan(hung!.receivedAt + 2_000);
    await t.server.webhooks.idle();
    expect((await deliveriesOf(hanging.id))[0]).toMatchObject({ status: 'pending', lastError: 'No answer within 2 s' });
    for (const { id } of [hanging, healthy]) await t.api.delete(`/webhooks/${id}`, { token: admin.token });
  });

  it('sends a retry about 5 s after the failure, be it an error answer or a timeout', async () => {
    const answered = await endpoint('/error', ['ticket.created']);
    const timedOut = await endpoint('/timeout', ['ticket.created']);
    receiver.answer('/error', { status: 500 });
    receiver.answer('/timeout', 'hang');
    // Nothing but the sender's own wake-up sends the retries: its poll is an hour here.
    await createTicket(t.api, owner.token);
    const [[error, afterError], [hung, afterTimeout]] = await Promise.all([
      receiver.waitFor('/error', 2, 9_000),
      receiver.waitFor('/timeout', 2, 11_000),
    ]);
    // The 500 is answered as it arrives; the hanging attempt fails 2 s after it arrived.
    const errorRetry = afterError!.receivedAt - error!.receivedAt;
    const timeoutRetry = afterTimeout!.receivedAt - (hung!.receivedAt + 2_000);
    expect(errorRetry).toBeGreaterThanOrEqual(4_500);
    expect(errorRetry).toBeLessThan(8_000);
    expect(timeoutRetry).toBeGreaterThanOrEqual(4_500);
    expect(timeoutRetry).toBeLessThan(8_000);
    await t.server.webhooks.idle();
    const [delivered] = await deliveriesOf(timedOut.id);
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2 });
    for (const { id } of [answered, timedOut]) await t.api.delete(`/webhooks/${id}`, { token: admin.token });
  });

  const adminNotices = async () =>
    ((await t.api.get('/notifications', { token: admin.token })).body.notifications as Notification[]).filter(
      (n) => n.type === 'webhook_disabled',
    );

  it('turns an endpoint off when it answers 410, fails what it still had, and tells every admin', async () => {
    const { id } = await endpoint('/gone', ['ticket.created', 'ticket.updated']);
    // The first delivery fails and waits for its retry; the second is answered 410.
    receiver.answer('/gone', { status: 500 }, { status: 410 });
    const ticket = await createTicket(t.api, owner.token);
    await sent();
    await t.api.put(`/tickets/${ticket.id}`, { priority: 'urgent' }, { token: agent.token });
    await sent();
    const webhook = (await t.api.get('/webhooks', { token: admin.token })).body.webhooks.find((w: { id: number }) => w.id === id);
    expect(webhook).toMatchObject({ active: false, disabledReason: 'Webhook to 127.0.0.1 was turned off: it answered 410 Gone' });
    const log = await deliveriesOf(id);
    const outcomes = log.map((d: { status: string; lastStatusCode: number | null }) => [d.status, d.lastStatusCode]);
    expect(outcomes).toHaveLength(2);
    expect(outcomes).toEqual([
      ['failed', 410],
      ['failed', 500],
    ]);
    // The retry it was waiting for will not come.
    expect(log[1].lastError).toBe(M.turnedOff);
    ahead += MINUTE;
    await sent();
    expect(receiver.at('/gone')).toHaveLength(2);
    const [notice] = await adminNotices();
    expect(notice).toMatchObject({ type: 'webhook_disabled', ticketId: null, excerpt: webhook.disabledReason, readAt: null });

    // Turned on again: its reason is cleared, and it is sent to once more.
    const on = await t.api.put(`/webhooks/${id}`, { active: true }, { token: admin.token });
    expect(on.body.webhook).toMatchObject({ active: true, disabledReason: null });
    await createTicket(t.api, owner.token);
    await sent();
    expect(receiver.at('/gone')).toHaveLength(3);
    await t.api.delete(`/webhooks/${id}`, { token: admin.token });
  });

  it('turns an endpoint off after five days of failures without a success', async () => {
    const { id } = await endpoint('/down', ['ticket.created']);
    receiver.answer('/down', ...Array.from({ length: 10 }, () => ({ status: 500 })));
    await createTicket(t.api, owner.token);
    await sent();
    const start = ahead;
    ahead += 5 * DAY - MINUTE;
    await createTicket(t.api, owner.token);
    await sent();
    expect((await t.api.get('/webhooks', { token: admin.token })).body.webhooks.find((w: { id: number }) => w.id === id).active).toBe(true);
    ahead += 2 * MINUTE;
    await createTicket(t.api, owner.token);
    await sent();
    const webhook = (await t.api.get('/webhooks', { token: admin.token })).body.webhooks.find((w: { id: number }) => w.id === id);
    expect(webhook).toMatchObject({
      active: false,
      disabledReason: 'Webhook to 127.0.0.1 was turned off: its deliveries failed for 5 days',
    });
    expect((await adminNotices()).map((n) => n.excerpt)).toContain(webhook.disabledReason);
    expect((await deliveriesOf(id)).every((d: { status: string }) => d.status === 'failed')).toBe(true);
    ahead = start;
  });

  it('queues nothing for a change that rolls back', async () => {
    const { id } = await endpoint('/rollback', ['ticket.created']);
    const ticket = await createTicket(t.api, owner.token);
    const before: number = (await deliveriesOf(id)).length;
    const unitOfWork = createUnitOfWork(
      t.server.database.db,
      t.server.bus,
      queueWebhooks(createReadMemo({ memoVersions: t.server.database.versions() }, 1)),
    );
    const event = { ticketId: ticket.id, ownerId: owner.user.id, actor: actorRef({ ...owner.user }), ticket };
    await expect(
      unitOfWork((_tx, emit) => {
        emit('ticket.created', event);
        return Promise.reject(new Error('the change failed'));
      }),
    ).rejects.toThrow('the change failed');
    expect(await deliveriesOf(id)).toHaveLength(before);
    await unitOfWork((_tx, emit) => {
      emit('ticket.created', event);
      return Promise.resolve();
    });
    expect(await deliveriesOf(id)).toHaveLength(before + 1);
  });

  it('prunes finished deliveries older than 30 days', async () => {
    const { id } = await endpoint('/old', ['ticket.created']);
    await createTicket(t.api, owner.token);
    await createTicket(t.api, owner.token);
    await sent();
    const [newer, older] = await deliveriesOf(id);
    await t.server.database.db
      .update(webhookDeliveries)
      .set({ createdAt: sql`now() - interval '31 days'` })
      .where(eq(webhookDeliveries.id, older.id));
    // A sender prunes at most every ten minutes (the five days' test ran its clock ahead).
    ahead = 6 * DAY;
    await t.server.webhooks.passOnce(at());
    expect((await deliveriesOf(id)).map((d: { id: number }) => d.id)).toEqual([newer.id]);
  });

  it('counts attempts by result and the deliveries waiting, with no address, URL or id in a label', async () => {
    await t.server.webhooks.idle();
    const scrape = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await scrape.text();
    for (const result of ['delivered', 'retry', 'failed', 'refused']) {
      expect(text).toMatch(new RegExp(`^helpdesk_webhook_deliveries_total\\{result="${result}"\\} \\d+$`, 'm'));
    }
    expect(Number(/^helpdesk_webhook_deliveries_total\{result="delivered"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(5);
    expect(Number(/^helpdesk_webhook_deliveries_total\{result="retry"\} (\d+)$/m.exec(text)?.[1])).toBeGreaterThan(5);
    expect(text).toMatch(/^helpdesk_webhook_queue_depth \d+$/m);
    expect(text).not.toContain('127.0.0.1');
  });
});

describe('two senders on one database', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await startTestServer(
      { ...ADMIN_ENV, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' },
      { webhooks: { pollMs: 3_600_000 } },
    );
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(receiver)?.close();
  });

  it('send each delivery once: a claimed row is skipped by the other', async () => {
    const { admin, owner } = await createCast(t);
    // The server's own sender stays out of it, as if it were a third process that is busy.
    await t.server.webhooks.stop();
    const made = await t.api.post('/webhooks', { url: receiver.url('/pair'), events: ['ticket.created'] }, { token: admin.token });
    for (let i = 0; i < 12; i++) await createTicket(t.api, owner.token);
    const logger = createLogger('silent');
    const withTransaction = createUnitOfWork(t.server.database.db, t.server.bus);
    const senders = [1, 2].map(() =>
      createWebhookSender({
        db: t.server.database.db,
        withTransaction,
        logger,
        rules: { allowHttp: true, allowPrivate: true },
        pollMs: 3_600_000,
        batchSize: 3,
        concurrency: 2,
      }),
    );
    const attempted = await Promise.all(senders.map((sender) => sender.passOnce()));
    expect(attempted[0]! + attempted[1]!).toBe(12);
    const ids = receiver.at('/pair').map((hook) => hook.headers['webhook-id']);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    const rows = await t.server.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, made.body.webhook.id));
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(Array.from({ length: 12 }, () => ['delivered', 1]));
    await t.server.database.db.delete(webhooks);
  });
});
