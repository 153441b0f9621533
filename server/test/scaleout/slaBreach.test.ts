import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, TicketDetail } from '@helpdesk/protocol';
import { createTicket, logIn, signUp, TEST_ADMIN, type Account } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import { QUIET_MS, sentinel, socketClients } from '../socketClients.js';
import { startCluster, type Cluster } from './cluster.js';

const SCAN_MS = 200;
const oneMinute = { firstResponseMinutes: 1, resolutionMinutes: null };

/**
 * A real breach with two server processes scanning the same database: whichever holds the scan's lock
 * marks it, once. One history entry, one notification, one sla-changed per staff socket, none to the owner.
 */
describe('an SLA breach across two server processes', () => {
  let cluster: Cluster;
  let a: Cluster['nodes'][number];
  let b: Cluster['nodes'][number];
  let admin: Account, agent: Account, owner: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    cluster = await startCluster({ env: { SLA_SCAN_INTERVAL_MS: String(SCAN_MS) } });
    [a, b] = cluster.nodes as [typeof a, typeof b];
    admin = await logIn(a.api, TEST_ADMIN.email, TEST_ADMIN.password);
    agent = await signUp(a.api, { role: 'agent', name: 'Agent Across' });
    owner = await signUp(b.api, { name: 'Owner Olive' });
    // One minute to answer, no warning: the only mark the ticket can get is the breach.
    const policy = await a.api.post(
      '/sla/policies',
      { name: 'Fast', warnBeforeMinutes: 0, targets: { low: oneMinute, medium: oneMinute, high: oneMinute, urgent: oneMinute } },
      { token: admin.token },
    );
    expect(policy.status).toBe(201);
  });
  afterEach(() => sockets.closeAll());
  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(cluster)?.stop();
  });

  it('is marked exactly once, and only staff hear of it', async () => {
    const ticket = await createTicket(b.api, owner.token, { priority: 'low' });
    expect((await a.api.put(`/tickets/${ticket.id}`, { assignedAgentId: agent.user.id }, { token: admin.token })).status).toBe(200);
    const [agentOnA, adminOnB, ownerOnA, ownerOnB] = await Promise.all([
      sockets.listen(a.url, agent.token),
      sockets.listen(b.url, admin.token),
      sockets.listen(a.url, owner.token),
      sockets.listen(b.url, owner.token),
    ]);
    // Two minutes of the clock already gone: the ticket was opened two minutes ago, as far as SLA goes.
    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    await client.connect();
    try {
      await client.query(`update tickets set sla_running_since = now() - interval '2 minutes' where id = $1`, [ticket.id]);
    } finally {
      await client.end();
    }
    // A priority change re-targets from the clock, through the server's own code: the deadline has passed.
    expect((await b.api.put(`/tickets/${ticket.id}`, { priority: 'medium' }, { token: agent.token })).status).toBe(200);

    const [toAgent, toAdmin] = await Promise.all([
      agentOnA.next('sla-changed', (e) => e.ticketId === ticket.id && e.sla?.state === 'breached', 10_000),
      adminOnB.next('sla-changed', (e) => e.ticketId === ticket.id && e.sla?.state === 'breached', 10_000),
    ]);
    expect(toAgent.history).toEqual([expect.objectContaining({ type: 'sla', from: 'first_response', to: 'breached' })]);
    expect(toAdmin.history).toEqual(toAgent.history);
    await agentOnA.next('notification', (e) => e.notification.ticketId === ticket.id && e.notification.type === 'sla_breached');

    // Several more scans in both processes find nothing left to mark.
    await new Promise((resolve) => setTimeout(resolve, SCAN_MS * 5 + QUIET_MS));
    await sentinel(a.api, admin.token, [agentOnA, adminOnB, ownerOnA, ownerOnB]);
    expect(agentOnA.events['sla-changed'].filter((e) => e.ticketId === ticket.id)).toHaveLength(1);
    expect(adminOnB.events['sla-changed'].filter((e) => e.ticketId === ticket.id)).toHaveLength(1);
    expect(agentOnA.events.notification.filter((e) => e.notification.ticketId === ticket.id)).toHaveLength(1);
    for (const ownerSocket of [ownerOnA, ownerOnB]) {
      expect(ownerSocket.events['sla-changed']).toEqual([]);
      expect(ownerSocket.events.notification).toEqual([]);
      expect(ownerSocket.events['ticket-changed'].some((e) => 'sla' in e.ticket)).toBe(false);
    }

    const staffView: TicketDetail = (await a.api.get(`/tickets/${ticket.id}`, { token: agent.token })).body.ticket;
    expect(staffView.sla?.state).toBe('breached');
    expect(staffView.history.filter((h) => h.type === 'sla')).toHaveLength(1);
    const ownerView: TicketDetail = (await b.api.get(`/tickets/${ticket.id}`, { token: owner.token })).body.ticket;
    expect(ownerView).not.toHaveProperty('sla');
    expect(ownerView.history.some((h) => h.type === 'sla')).toBe(false);
    const notifications: Notification[] = (await b.api.get('/notifications', { token: agent.token })).body.notifications;
    expect(notifications.filter((n) => n.ticketId === ticket.id && n.type === 'sla_breached')).toHaveLength(1);
    const ownerNotifications: Notification[] = (await a.api.get('/notifications', { token: owner.token })).body.notifications;
    expect(ownerNotifications).toEqual([]);
  });
});
