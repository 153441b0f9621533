import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_AT_HEADER, READ_END_HEADER } from '@helpdesk/protocol';
import { createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { socketClients } from '../../test/socketClients.js';

describe('X-Read-At and X-Read-End (docs/api.md#real-time-events)', () => {
  let t: TestServer;
  let agent: Account, owner: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer();
    [agent, owner] = await Promise.all([insertUser(t, { role: 'agent' }), insertUser(t)]);
  });
  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(t)?.close();
  });

  it('stamps each API answer with when the server began it, after any change announced before the request', async () => {
    const staff = await sockets.listen(t.url, agent.token);
    const before = Date.now();
    const ticket = await createTicket(t.api, owner.token);
    const announced = await staff.next('ticket-changed', (e) => e.ticket.id === ticket.id);
    const read = await t.api.get(`/tickets/${ticket.id}`, { token: agent.token });
    const readAt = Number(read.headers.get(READ_AT_HEADER));
    expect(announced.at).toBeGreaterThanOrEqual(before);
    expect(readAt).toBeGreaterThanOrEqual(announced.at!);
    expect(readAt).toBeLessThanOrEqual(Date.now());
    // Refusals are stamped too; pages outside the API are not.
    expect((await t.api.get('/tickets/999999', { token: agent.token })).headers.get(READ_AT_HEADER)).toMatch(/^\d+$/);
    expect((await fetch(`${t.url}/robots.txt`)).headers.get(READ_AT_HEADER)).toBeNull();
  });

  it('stamps when the server had read the answer, and each event with when its commit was asked for', async () => {
    const staff = await sockets.listen(t.url, agent.token);
    // A read that ended before a change's commit was asked for cannot hold it.
    const earlier = await t.api.get('/tickets/stats', { token: agent.token });
    const earlierEnd = Number(earlier.headers.get(READ_END_HEADER));
    expect(earlierEnd).toBeGreaterThanOrEqual(Number(earlier.headers.get(READ_AT_HEADER)));
    const ticket = await createTicket(t.api, owner.token);
    const announced = await staff.next('ticket-changed', (e) => e.ticket.id === ticket.id);
    expect(announced.committing).toBeGreaterThanOrEqual(earlierEnd);
    expect(announced.committing).toBeLessThanOrEqual(announced.at!);
    const later = await t.api.get('/tickets/stats', { token: agent.token });
    expect(Number(later.headers.get(READ_END_HEADER))).toBeGreaterThanOrEqual(announced.at!);
    expect((await fetch(`${t.url}/robots.txt`)).headers.get(READ_END_HEADER)).toBeNull();
  });
});
