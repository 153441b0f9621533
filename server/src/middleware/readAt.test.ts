import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_AT_HEADER } from '@helpdesk/protocol';
import { createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { socketClients } from '../../test/socketClients.js';

describe('X-Read-At (docs/api.md#real-time-events)', () => {
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
});
