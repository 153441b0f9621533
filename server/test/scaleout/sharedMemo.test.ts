import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, logIn, signUp, TEST_ADMIN, type Account } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import { startTcpProxy, upstreamOf, type TcpProxy } from '../tcpProxy.js';
import { sharedServices, startCluster, type Cluster } from './cluster.js';

/**
 * Each process keeps answers (services/readMemo.ts) while the table versions in Redis say nothing
 * they read has changed (scaleout/sharedVersions.ts). Whether a process served a kept answer is seen
 * from outside: the test changes a row straight in PostgreSQL, which no process sees, so a kept
 * answer still shows the row as it was and a fresh read shows the change.
 */
describe('answers kept on each process, with every write seen by all through Redis', () => {
  let proxy: TcpProxy;
  let cluster: Cluster;
  let a: Cluster['nodes'][number];
  let b: Cluster['nodes'][number];
  let database: pg.Client;
  let admin: Account, agent: Account, owner: Account;
  let ticketId: number;

  beforeAll(async () => {
    proxy = await startTcpProxy(upstreamOf(sharedServices().redisUrl, 6379));
    // Process A (index 0) reaches Redis through the proxy, so it alone can be cut; B directly.
    cluster = await startCluster({ redisUrl: (direct, index) => (index === 0 ? proxy.url(direct) : direct) });
    [a, b] = cluster.nodes as [typeof a, typeof b];
    database = new pg.Client({ connectionString: cluster.databaseUrl });
    await database.connect();
    admin = await logIn(a.api, TEST_ADMIN.email, TEST_ADMIN.password);
    agent = await signUp(a.api, { role: 'agent', name: 'Agent Avery', as: admin.token });
    owner = await signUp(a.api, { name: 'Owner Olive' });
    ticketId = (await createTicket(a.api, owner.token, { title: 'Printer jams on tray two' })).id;
  });

  afterAll(async () => {
    await ifSetUp(database)?.end();
    await ifSetUp(cluster)?.stop();
    await ifSetUp(proxy)?.close();
  });

  /** The ticket as the agent's list shows it, read through `node`. */
  const listed = async (node: typeof a) => {
    const res = await node.api.get('/tickets?limit=100', { token: agent.token });
    expect(res.status).toBe(200);
    const ticket = (res.body.tickets as Array<{ id: number; title: string; priority: string }>).find((t) => t.id === ticketId);
    return { title: ticket?.title, priority: ticket?.priority };
  };
  /** A change no process sees: only a fresh read shows it. */
  const renameBehindTheServers = async (title: string) => {
    await database.query('update tickets set title = $1 where id = $2', [title, ticketId]);
  };

  it('serves a kept answer on B through a write on A to another table, and reads afresh after a write to its own', async () => {
    const before = await listed(b);
    await renameBehindTheServers('Renamed behind the servers');
    expect(await listed(b)).toEqual(before);

    // An article is written by A: the list never read articles, so B keeps its answer.
    const article = await a.api.post(
      '/knowledge',
      { title: 'Clearing a paper jam', content: 'Open tray two and pull gently.', keywords: ['printer'] },
      { token: agent.token },
    );
    expect(article.status).toBe(201);
    expect(await listed(b)).toEqual(before);

    // A changes a ticket: once A has answered, B's very next read is fresh.
    expect((await a.api.put(`/tickets/${ticketId}`, { priority: 'high' }, { token: agent.token })).status).toBe(200);
    expect(await listed(b)).toEqual({ title: 'Renamed behind the servers', priority: 'high' });
  });

  it('keeps answers on A for B’s writes the same way', async () => {
    const before = await listed(a);
    await renameBehindTheServers('Renamed again');
    expect(await listed(a)).toEqual(before);
    expect((await b.api.put(`/tickets/${ticketId}`, { priority: 'medium' }, { token: agent.token })).status).toBe(200);
    expect(await listed(a)).toEqual({ title: 'Renamed again', priority: 'medium' });
  });

  it('trusts no kept answer anywhere once A, cut from Redis, has answered a write; keeps answers again when A is back', async () => {
    const before = await listed(b);
    await renameBehindTheServers('Renamed while A is cut');
    expect(await listed(b)).toEqual(before);

    proxy.cut();
    try {
      // A cannot bump the versions: it answers only once B can no longer trust what it kept.
      expect((await a.api.put(`/tickets/${ticketId}`, { priority: 'low' }, { token: agent.token })).status).toBe(200);
      expect(await listed(b)).toEqual({ title: 'Renamed while A is cut', priority: 'low' });
      // A itself keeps nothing while it cannot read the versions, and still answers.
      await renameBehindTheServers('Seen fresh on A');
      expect(await listed(a)).toEqual({ title: 'Seen fresh on A', priority: 'low' });
    } finally {
      proxy.restore();
    }

    // Once A has its lease again, B keeps answers again.
    await expect
      .poll(
        async () => {
          const kept = await listed(b);
          await renameBehindTheServers(`Probe ${Date.now()}`);
          return (await listed(b)).title === kept.title;
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(true);
  });
});
