import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import { signUp, type Account } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import type { ApiResponse } from '../http.js';
import { socketClients } from '../socketClients.js';
import { startTcpProxy, upstreamOf, type TcpProxy } from '../tcpProxy.js';
import { sharedServices, startCluster, type Cluster } from './cluster.js';

interface Write {
  title: string;
  response: ApiResponse | Error;
}

/**
 * PostgreSQL goes away under load and comes back. The processes stay up, answer 503 with a clear
 * message meanwhile, recover by themselves, and every write they acknowledged is in the database.
 */
describe('when PostgreSQL drops and returns', () => {
  let proxy: TcpProxy;
  let cluster: Cluster;
  let user: Account;
  /** Signed up on the first process and never seen by the second, which must read its session row. */
  let stranger: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    proxy = await startTcpProxy(upstreamOf(sharedServices().postgresUrl, 5432));
    // The SLA scanner runs through the outage too: its lock's connection dies with the others.
    cluster = await startCluster({ databaseUrl: (direct) => proxy.url(direct), env: { SLA_SCAN_INTERVAL_MS: '200' } });
    user = await signUp(cluster.nodes[0]!.api, { name: 'Writer Wendy' });
    stranger = await signUp(cluster.nodes[0]!.api, { name: 'Stranger Stan' });
  });

  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(cluster)?.stop();
    await ifSetUp(proxy)?.close();
  });

  it('answers 503 while it is away, recovers on its own, and keeps every acknowledged write', async () => {
    const writes: Write[] = [];
    let writing = true;
    // Several writers on each process, the whole time: before, during and after the outage, so the
    // cut lands in the middle of open transactions.
    const writers = [...cluster.nodes, ...cluster.nodes, ...cluster.nodes].map(async (node, n) => {
      for (let i = 0; writing; i++) {
        const title = `Outage write ${n}-${i}`;
        const response = await node.api
          .post('/tickets', { title, description: 'Written while the database may be away.' }, { token: user.token })
          .catch((e: unknown) => e as Error);
        writes.push({ title, response });
        await sleep(5);
      }
    });
    const acknowledged = () => writes.filter((w) => !(w.response instanceof Error) && w.response.status === 201).length;
    await expect.poll(acknowledged, { timeout: 10_000 }).toBeGreaterThan(10);

    proxy.cut();
    const [a, b] = cluster.nodes as [Cluster['nodes'][number], Cluster['nodes'][number]];
    await expect.poll(async () => (await a.api.get('/tickets', { token: user.token })).status, { timeout: 10_000 }).toBe(503);
    const list = await b.api.get('/tickets', { token: user.token });
    expect(list.status).toBe(503);
    expect(list.body).toEqual({ success: false, message: MESSAGES.http.unavailable });
    expect(list.headers.get('retry-after')).toBe('5');
    expect((await a.api.get('/health')).body).toEqual({ status: 'error', db: 'error' });
    // A socket handshake whose session row must be read is refused with the same message. One the
    // process keeps goes through: no write has changed it (a revocation is a write to users, and
    // none can land while the database is away), and the ticket writes before the cut only read users.
    expect(await sockets.refusedHandshake(b.url, { token: stranger.token })).toBe(MESSAGES.http.unavailable);
    await sockets.listen(b.url, user.token);
    await sleep(1_000);
    const during = writes.slice(-10).map((w) => (w.response instanceof Error ? w.response.message : w.response.status));
    expect(during).toEqual(Array(10).fill(503));

    proxy.restore();
    const recoveredAfter = writes.length;
    await expect.poll(async () => (await a.api.get('/health')).status, { timeout: 15_000 }).toBe(200);
    await expect
      .poll(() => writes.slice(recoveredAfter).filter((w) => !(w.response instanceof Error) && w.response.status === 201).length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(10);
    writing = false;
    await Promise.all(writers);

    // Both processes never stopped, and nothing else than 201 or 503 was ever answered, save the
    // refusal of a write the statement timeout stopped: six writers of one owner queue on the same
    // counter rows, and on a loaded machine one can wait past it. It says the write was not made.
    for (const node of cluster.nodes) expect(node.process.child.exitCode).toBeNull();
    const answers = writes.map((w) =>
      w.response instanceof Error ? w.response.message : w.response.status === 400 ? w.response.body.message : w.response.status,
    );
    expect(new Set(answers.filter((a) => a !== MESSAGES.http.changeTooSlow))).toEqual(new Set([201, 503]));

    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ title: string }>('select title from tickets where user_id = $1', [user.user.id]);
      const stored = new Set(rows.map((r) => r.title));
      const acked = writes.filter((w) => !(w.response instanceof Error) && w.response.status === 201);
      expect(acked.filter((w) => !stored.has(w.title))).toEqual([]);
      expect(acked.length).toBeGreaterThan(20);
    } finally {
      await db.end();
    }
  });
});
