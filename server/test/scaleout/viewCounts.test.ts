import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_COUNTS_INTERVAL_MS } from '../../src/realtime/viewCountsPush.js';
import { createTicket, logIn, signUp, TEST_ADMIN, type Account } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import { sentinel, socketClients, type Listener } from '../socketClients.js';
import { startCluster, type Cluster } from './cluster.js';

/**
 * Searched views' counts with two processes: the process where a change happens counts and emits
 * through Redis to the sockets of both, and a person gets one message a second whichever process sends.
 */
describe('view-counts across two processes', () => {
  let cluster: Cluster;
  let a: Cluster['nodes'][number];
  let b: Cluster['nodes'][number];
  let admin: Account, agent: Account, colleague: Account, owner: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    cluster = await startCluster();
    [a, b] = cluster.nodes as [typeof a, typeof b];
    admin = await logIn(a.api, TEST_ADMIN.email, TEST_ADMIN.password);
    agent = await signUp(a.api, { role: 'agent', name: 'Agent Across' });
    colleague = await signUp(b.api, { role: 'agent', name: 'Colleague Across' });
    owner = await signUp(b.api, { name: 'Owner Olive' });
  });
  afterEach(() => sockets.closeAll());
  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(cluster)?.stop();
  });

  it('reaches the right rooms on both processes, a second apart when both processes change tickets', async () => {
    const view = async (who: Account, name: string, shared: boolean) => {
      const res = await a.api.post('/views', { name, filters: { search: 'printer' }, shared }, { token: who.token });
      expect(res.status).toBe(201);
      return res.body.view.id as number;
    };
    const team = await view(admin, 'Printers', true);
    const mine = await view(agent, 'My printers', false);
    const [agentOnB, colleagueOnA, ownerOnB] = await Promise.all([
      sockets.listen(b.url, agent.token),
      sockets.listen(a.url, colleague.token),
      sockets.listen(b.url, owner.token),
    ]);
    const arrivals: number[] = [];
    colleagueOnA.socket.on('view-counts', (e) => {
      if (team in e.counts) arrivals.push(Date.now());
    });
    // The agent is in `staff` and in their own room, which both move: still one message a second.
    const agentArrivals: number[] = [];
    agentOnB.socket.on('view-counts', () => agentArrivals.push(Date.now()));
    const apart = (times: number[]) => times.slice(1).every((at, i) => at - times[i]! >= VIEW_COUNTS_INTERVAL_MS - 100);
    const pushed = (listener: Listener, viewId: number, count: number) =>
      listener.next('view-counts', (e) => e.counts[viewId] === count, 5_000);

    // One change on each process, back to back: the staff room hears the first at once and the
    // second a second later, from whichever process took the next slot.
    await createTicket(a.api, owner.token, { title: 'Printer offline', description: 'Offline on floor 2' });
    await createTicket(b.api, owner.token, { title: 'Printer jammed', description: 'Jammed on floor 4' });
    await Promise.all([pushed(colleagueOnA, team, 2), pushed(agentOnB, team, 2), pushed(agentOnB, mine, 2)]);
    expect(arrivals.length).toBeGreaterThanOrEqual(1);
    expect(apart(arrivals), JSON.stringify(arrivals)).toBe(true);

    // The private view went to its owner alone; the ticket owner's socket heard no count at all.
    await sentinel(b.api, admin.token, [ownerOnB, colleagueOnA, agentOnB]);
    expect(apart(agentArrivals), JSON.stringify(agentArrivals)).toBe(true);
    expect(colleagueOnA.events['view-counts'].some((e) => mine in e.counts)).toBe(false);
    expect(ownerOnB.events['view-counts']).toEqual([]);
  });
});
