import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, logIn, signUp, TEST_ADMIN, type Account } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import { socketClients } from '../socketClients.js';
import { startCluster, type Cluster } from './cluster.js';

/** Short, so a killed process's ghosts clear in seconds here (1.25 × TTL; 25 s with the default 20 s). */
const PRESENCE_TTL_MS = 2_000;
const CLEARED_WITHIN_MS = PRESENCE_TTL_MS * 1.25 + 3_000;

/** Presence and notifications cross server processes through Redis; a killed process leaves no ghost viewer. */
describe('working together across two server processes', () => {
  let cluster: Cluster;
  let a: Cluster['nodes'][number];
  let b: Cluster['nodes'][number];
  let admin: Account, agent: Account, colleague: Account, owner: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    cluster = await startCluster({ env: { PRESENCE_TTL_MS: String(PRESENCE_TTL_MS) } });
    [a, b] = cluster.nodes as [typeof a, typeof b];
    admin = await logIn(a.api, TEST_ADMIN.email, TEST_ADMIN.password);
    agent = await signUp(a.api, { role: 'agent', name: 'Agent Across' });
    colleague = await signUp(b.api, { role: 'agent', name: 'Colleague Cleo' });
    owner = await signUp(b.api, { name: 'Owner Olive' });
  });
  afterEach(() => sockets.closeAll());
  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(cluster)?.stop();
  });

  it('shows a viewer and their typing on A to staff on B, never to the owner', async () => {
    const ticket = await createTicket(a.api, owner.token);
    const [agentOnA, colleagueOnB, ownerOnB] = await Promise.all([
      sockets.listen(a.url, agent.token),
      sockets.listen(b.url, colleague.token),
      sockets.listen(b.url, owner.token),
    ]);
    agentOnA.socket.emit('ticket:view', { ticketId: ticket.id });
    colleagueOnB.socket.emit('ticket:view', { ticketId: ticket.id });
    await colleagueOnB.next('presence', (e) => e.ticketId === ticket.id && e.viewers.length === 2);
    agentOnA.socket.emit('ticket:typing', { ticketId: ticket.id, typing: true });
    const typing = await colleagueOnB.next('presence', (e) => e.ticketId === ticket.id && e.viewers.some((v) => v.typing));
    expect(typing.viewers).toEqual([
      { id: agent.user.id, name: 'Agent Across', typing: true },
      { id: colleague.user.id, name: 'Colleague Cleo', typing: false },
    ]);
    expect(ownerOnB.events.presence).toEqual([]);
  });

  it('delivers a mention written through A to the person on B, live', async () => {
    const ticket = await createTicket(b.api, owner.token);
    const colleagueOnB = await sockets.listen(b.url, colleague.token);
    const res = await a.api.post(
      `/tickets/${ticket.id}/comments`,
      { content: 'Cleo, please look at this one', internal: true, mentions: [colleague.user.id] },
      { token: agent.token },
    );
    expect(res.status).toBe(201);
    const { notification } = await colleagueOnB.next('notification', (e) => e.notification.ticketId === ticket.id);
    expect(notification).toMatchObject({ type: 'mention', by: { id: agent.user.id }, excerpt: 'Cleo, please look at this one' });
    const unread = await a.api.get('/notifications?unread=1', { token: colleague.token });
    expect(unread.body.unread).toBe(1);
  });

  it('clears the viewers of a killed process within the presence TTL', async () => {
    const ticket = await createTicket(a.api, owner.token);
    const [agentOnB, adminOnA] = await Promise.all([sockets.listen(b.url, agent.token), sockets.listen(a.url, admin.token)]);
    agentOnB.socket.emit('ticket:view', { ticketId: ticket.id });
    await adminOnA.next('presence', (e) => e.ticketId === ticket.id && e.viewers.some((v) => v.id === agent.user.id));

    const killedAt = Date.now();
    b.process.child.kill('SIGKILL');
    await b.process.exited;
    const cleared = await adminOnA.next(
      'presence',
      (e) => e.ticketId === ticket.id && e.viewers.length === 0 && Date.now() > killedAt,
      CLEARED_WITHIN_MS,
    );
    expect(cleared.viewers).toEqual([]);
    expect(Date.now() - killedAt).toBeLessThan(CLEARED_WITHIN_MS);
  });
});
