import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type TicketChangedEvent } from '@helpdesk/protocol';
import { createTicket, logIn, signUp, TEST_ADMIN, type Account } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import { QUIET_MS, socketClients, type Listener } from '../socketClients.js';
import { startTcpProxy, upstreamOf, type TcpProxy } from '../tcpProxy.js';
import { sharedServices, startCluster, type Cluster } from './cluster.js';

/**
 * One process loses Redis while the other keeps it, then gets it back. Each side's clients must end
 * up with every event the other side emitted meanwhile: the cut process replays what it sent only to
 * its own sockets, marked late; it reads what the others sent from the stream, and only then sends
 * its own clients to re-read.
 */
describe('when one process alone is cut from Redis', () => {
  let proxy: TcpProxy;
  let cluster: Cluster;
  let a: Cluster['nodes'][number];
  let b: Cluster['nodes'][number];
  let admin: Account, owner: Account, agent: Account;
  const sockets = socketClients();

  const changed = (listener: Listener, id: number, action: TicketChangedEvent['action'], version?: number, timeoutMs?: number) =>
    listener.next(
      'ticket-changed',
      (e) =>
        e.ticket.id === id && e.action === action && (version === undefined || (e.action !== 'deleted' && e.ticket.version === version)),
      timeoutMs,
    );
  const changesOf = (listener: Listener, id: number) =>
    listener.events['ticket-changed']
      .filter((e) => e.ticket.id === id)
      .map((e) => (e.action === 'deleted' ? 'deleted' : `v${e.ticket.version}`));

  beforeAll(async () => {
    proxy = await startTcpProxy(upstreamOf(sharedServices().redisUrl, 6379));
    // Process A (index 0) reaches Redis through the proxy; B directly.
    cluster = await startCluster({ redisUrl: (direct, index) => (index === 0 ? proxy.url(direct) : direct) });
    [a, b] = cluster.nodes as [typeof a, typeof b];
    admin = await logIn(a.api, TEST_ADMIN.email, TEST_ADMIN.password);
    owner = await signUp(a.api, { name: 'Owner Olive' });
    agent = await signUp(a.api, { role: 'agent', name: 'Agent Avery', as: admin.token });
  });

  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(cluster)?.stop();
    await ifSetUp(proxy)?.close();
  });

  it('gives each side what the other emitted meanwhile, once, and re-reads only where the cut was', async () => {
    const [staffOnA, staffOnB, agentOnB] = await Promise.all([
      sockets.listen(a.url, admin.token),
      sockets.listen(b.url, admin.token),
      sockets.listen(b.url, agent.token),
    ]);
    // The processes hear each other before the cut: the streams are read on both sides.
    await expect
      .poll(
        async () => {
          const probe = await createTicket(a.api, owner.token, { title: 'Probe across processes' });
          return changed(staffOnB, probe.id, 'created', undefined, 1_000).then(
            () => true,
            () => false,
          );
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);
    const earlier = await createTicket(b.api, owner.token, { title: 'Raised before the cut' });
    await Promise.all([changed(staffOnA, earlier.id, 'created'), changed(staffOnB, earlier.id, 'created')]);

    proxy.cut();
    // A real wait: time for A to see its Redis connections close, which no event tells the test.
    await sleep(300);
    const cutAt = Date.now();

    // Through A: its own sockets hear at once.
    const raised = await createTicket(a.api, owner.token, { title: 'Raised on the cut process' });
    await changed(staffOnA, raised.id, 'created', 1, 1_000);
    const started = await a.api.put(`/tickets/${raised.id}`, { status: 'in_progress' }, { token: admin.token });
    expect(started.status).toBe(200);
    await changed(staffOnA, raised.id, 'updated', 2, 1_000);
    const note = await a.api.post(
      `/tickets/${raised.id}/comments`,
      { content: 'Avery, can you take this?', internal: true, mentions: [agent.user.id] },
      { token: admin.token },
    );
    expect(note.status).toBe(201);
    await staffOnA.next('comment-added', (e) => e.comment.id === note.body.comment.id, 1_000);
    // Through B: B's sockets hear at once.
    const urgent = await b.api.put(`/tickets/${earlier.id}`, { priority: 'urgent' }, { token: admin.token });
    expect(urgent.status).toBe(200);
    await changed(staffOnB, earlier.id, 'updated', 2, 1_000);
    // A real wait, not a sentinel: nothing is ordered across the cut.
    await sleep(QUIET_MS);
    expect(changesOf(staffOnB, raised.id)).toEqual([]);
    expect(agentOnB.events.notification).toEqual([]);
    expect(changesOf(staffOnA, earlier.id)).toEqual(['v1']);

    const restoredAt = Date.now();
    proxy.restore();

    // B's clients get A's events in the order they happened, each with when A first announced it.
    await changed(staffOnB, raised.id, 'updated', 2, 15_000);
    expect(changesOf(staffOnB, raised.id)).toEqual(['v1', 'v2']);
    const replayedNote = await staffOnB.next('comment-added', (e) => e.comment.id === note.body.comment.id);
    const bell = await agentOnB.next('notification', (e) => e.notification.ticketId === raised.id);
    const replayed = [...staffOnB.events['ticket-changed'].filter((e) => e.ticket.id === raised.id), replayedNote, bell];
    for (const event of replayed) expect(event.at).toSatisfy((at: number) => at >= cutAt && at < restoredAt);
    expect(bell.notification.type).toBe('mention');

    // A's clients get B's change from the stream first, then are sent to re-read: nothing older can follow their read.
    expect(await staffOnA.disconnected(15_000)).toBe('transport close');
    expect(changesOf(staffOnA, earlier.id)).toEqual(['v1', 'v2']);
    // What A's sockets had already were not sent to them again.
    expect(changesOf(staffOnA, raised.id)).toEqual(['v1', 'v2']);
    expect(staffOnA.events['comment-added'].filter((e) => e.comment.id === note.body.comment.id)).toHaveLength(1);

    // B's clients keep their connection: they missed nothing.
    expect(staffOnB.socket.connected).toBe(true);
    expect(agentOnB.socket.connected).toBe(true);
    const after = await createTicket(a.api, owner.token, { title: 'Raised after the return' });
    const heard = await changed(staffOnB, after.id, 'created', 1, 5_000);
    expect(heard.at).toBeGreaterThan(restoredAt);
    for (const node of cluster.nodes) expect(node.process.child.exitCode).toBeNull();
  });

  it('ends on the other process the sockets of an account deleted on the cut one, once Redis returns', async () => {
    const leaving = await signUp(b.api, { name: 'Leaving Lee' });
    const [leaverOnB, staffOnB] = await Promise.all([sockets.listen(b.url, leaving.token), sockets.listen(b.url, admin.token)]);
    proxy.cut();
    await sleep(300); // as above: for A to see the cut
    expect((await a.api.delete(`/users/${leaving.user.id}`, { token: admin.token })).status).toBe(200);
    proxy.restore();
    // B's socket of the account is sent to reconnect, and its handshake is refused; the others stay.
    expect(await leaverOnB.disconnected(15_000)).toBe('transport close');
    expect(await sockets.refusedHandshake(b.url, { token: leaving.token })).toBe(MESSAGES.auth.sessionInvalid);
    expect(staffOnB.socket.connected).toBe(true);
  });
});
