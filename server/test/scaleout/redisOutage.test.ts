import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type TicketChangedEvent } from '@helpdesk/protocol';
import { createTicket, logIn, signUp, TEST_ADMIN, type Account } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import { QUIET_MS, socketClients, type Listener } from '../socketClients.js';
import { startTcpProxy, upstreamOf, type TcpProxy } from '../tcpProxy.js';
import { sharedServices, startCluster, type Cluster } from './cluster.js';

/**
 * Redis goes away and comes back. Requests keep working, events still reach sockets on the process
 * that emitted them, and when Redis returns the sockets are resynchronised and cross-process
 * delivery resumes.
 */
describe('when Redis drops and returns', () => {
  let proxy: TcpProxy;
  let cluster: Cluster;
  let a: Cluster['nodes'][number];
  let b: Cluster['nodes'][number];
  let admin: Account, owner: Account;
  const sockets = socketClients();

  const createdEvent = (listener: Listener, id: number, timeoutMs?: number) =>
    listener.next('ticket-changed', (e: TicketChangedEvent) => e.action === 'created' && e.ticket.id === id, timeoutMs);

  beforeAll(async () => {
    proxy = await startTcpProxy(upstreamOf(sharedServices().redisUrl, 6379));
    proxy.cut(); // the first test starts the processes while Redis cannot be reached
    cluster = await startCluster({ redisUrl: (direct) => proxy.url(direct) });
    [a, b] = cluster.nodes as [typeof a, typeof b];
    admin = await logIn(a.api, TEST_ADMIN.email, TEST_ADMIN.password);
    owner = await signUp(a.api, { name: 'Owner Olive' });
  });

  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(cluster)?.stop();
    await ifSetUp(proxy)?.close();
  });

  /** Retries until an event from A reaches a fresh socket on B: the stream readers reconnect on their own schedule. */
  const crossProcessDelivery = async () => {
    const onB = await sockets.listen(b.url, admin.token);
    await expect
      .poll(
        async () => {
          const probe = await createTicket(a.api, owner.token, { title: 'Probe across processes' });
          return createdEvent(onB, probe.id, 1_000).then(
            () => true,
            () => false,
          );
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);
  };

  it('starts and serves without Redis, and joins the others once Redis can be reached', async () => {
    // Longer than a few reconnect attempts: the processes must not give up (or crash) meanwhile.
    await sleep(2_500);
    for (const node of cluster.nodes) expect(node.process.child.exitCode).toBeNull();
    const [staffOnA, staffOnB] = await Promise.all([sockets.listen(a.url, admin.token), sockets.listen(b.url, admin.token)]);
    const early = await createTicket(a.api, owner.token, { title: 'Before Redis was there' });
    await createdEvent(staffOnA, early.id, 1_000);

    proxy.restore();
    // Sockets that may have missed events are sent to reconnect once each process reaches Redis.
    expect(await staffOnA.disconnected(10_000)).toBe('transport close');
    expect(await staffOnB.disconnected(10_000)).toBe('transport close');
    await crossProcessDelivery();
  });

  it('keeps same-process delivery and the API working while Redis is away, then resumes across processes', async () => {
    const [staffOnA, staffOnB] = await Promise.all([sockets.listen(a.url, admin.token), sockets.listen(b.url, admin.token)]);
    const before = await createTicket(a.api, owner.token, { title: 'Before the outage' });
    await Promise.all([createdEvent(staffOnA, before.id), createdEvent(staffOnB, before.id)]);

    proxy.cut();
    // A real wait: time for the processes to see their Redis connections close, which no event tells the test.
    await sleep(300);
    const started = Date.now();
    const during = await createTicket(a.api, owner.token, { title: 'During the outage' });
    expect(Date.now() - started).toBeLessThan(2_000);
    // The emitting process delivers at once; the other cannot hear it without Redis.
    await createdEvent(staffOnA, during.id, 1_000);
    // A real wait, not a sentinel: with Redis away nothing B's socket gets is ordered after A's emits.
    await sleep(QUIET_MS);
    expect(staffOnB.events['ticket-changed'].map((e) => e.ticket.id)).not.toContain(during.id);
    // Rate-limited routes fall back to per-process counting instead of failing.
    const wrong = await b.api.post('/auth/login', { email: owner.user.email, password: 'Not-the-password1' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe(MESSAGES.auth.invalidCredentials);

    proxy.restore();
    // Each process drops its sockets' transport when Redis returns, so clients reconnect and re-fetch
    // what they may have missed; these test sockets do not reconnect, so they simply end.
    expect(await staffOnA.disconnected(10_000)).toBe('transport close');
    expect(await staffOnB.disconnected(10_000)).toBe('transport close');

    await crossProcessDelivery();
    for (const node of cluster.nodes) expect(node.process.child.exitCode).toBeNull();
  });
});
