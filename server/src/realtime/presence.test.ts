import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, type PresenceEvent, type Ticket } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { sentinel, socketClients, type Listener } from '../../test/socketClients.js';

/** Presence (docs/api.md#presence): staff see who is on a ticket and who types, nobody else does. */
describe('presence', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account, colleague: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent, owner } = await createCast(t));
    colleague = await insertUser(t, { role: 'agent', name: 'Colleague Cleo' });
  });
  afterEach(() => sockets.closeAll());
  afterAll(() => ifSetUp(t)?.close());

  const viewersOn = (listener: Listener, ticketId: number, match: (e: PresenceEvent) => boolean) =>
    listener.next('presence', (e) => e.ticketId === ticketId && match(e));

  it('shows staff who else is on a ticket and who types; the owner never hears of it', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const [agentSocket, colleagueSocket, ownerSocket] = await Promise.all([
      sockets.listen(t.url, agent.token),
      sockets.listen(t.url, colleague.token),
      sockets.listen(t.url, owner.token),
    ]);
    ownerSocket.socket.emit('ticket:view', { ticketId: ticket.id });
    agentSocket.socket.emit('ticket:view', { ticketId: ticket.id });
    const seen = await viewersOn(colleagueSocket, ticket.id, (e) => e.viewers.length > 0);
    // The owner's own view is not announced: presence is staff's view of staff.
    expect(seen.viewers).toEqual([{ id: agent.user.id, name: 'Agent Smith', typing: false }]);

    agentSocket.socket.emit('ticket:typing', { ticketId: ticket.id, typing: true });
    await viewersOn(colleagueSocket, ticket.id, (e) => e.viewers.some((v) => v.id === agent.user.id && v.typing));
    agentSocket.socket.emit('ticket:leave', { ticketId: ticket.id });
    await viewersOn(colleagueSocket, ticket.id, (e) => e.viewers.length === 0);

    await sentinel(t.api, admin.token, [ownerSocket]);
    expect(ownerSocket.events.presence).toEqual([]);
  });

  it('ignores malformed signals and tickets that do not exist', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const [agentSocket, colleagueSocket] = await Promise.all([sockets.listen(t.url, agent.token), sockets.listen(t.url, colleague.token)]);
    for (const bad of [{ ticketId: 'x' }, { ticketId: -1 }, null, 'hello', { ticketId: 2_000_000_000 }]) {
      agentSocket.socket.emit('ticket:view', bad as never);
    }
    agentSocket.socket.emit('ticket:typing', { ticketId: ticket.id, typing: 'yes' } as never);
    agentSocket.socket.emit('ticket:view', { ticketId: ticket.id });
    await viewersOn(colleagueSocket, ticket.id, (e) => e.viewers.length === 1);
    expect(colleagueSocket.events.presence.map((e) => e.ticketId)).toEqual([ticket.id]);
    expect(colleagueSocket.events.presence[0]!.viewers[0]!.typing).toBe(false);
  });

  it('clears a viewer whose socket goes away, and sends a newcomer who is already where', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const [agentSocket, colleagueSocket] = await Promise.all([sockets.listen(t.url, agent.token), sockets.listen(t.url, colleague.token)]);
    agentSocket.socket.emit('ticket:view', { ticketId: ticket.id });
    await viewersOn(colleagueSocket, ticket.id, (e) => e.viewers.length === 1);

    const late = await sockets.listen(t.url, admin.token);
    expect((await viewersOn(late, ticket.id, () => true)).viewers).toEqual([{ id: agent.user.id, name: 'Agent Smith', typing: false }]);

    agentSocket.socket.disconnect();
    await viewersOn(colleagueSocket, ticket.id, (e) => e.viewers.length === 0);
  });

  it('keeps a burst of views within the per-socket cap, and a leave still frees a place', async () => {
    const cap = LIMITS.presence.maxTicketsPerSocket;
    // One after another: sixteen inserts at once queue on the same counter rows, and a loaded machine
    // can take one past the statement timeout, which is not what this test is about.
    const tickets: Ticket[] = [];
    for (let i = 0; i < cap + 6; i += 1) tickets.push(await createTicket(t.api, owner.token));
    const [agentSocket, colleagueSocket] = await Promise.all([sockets.listen(t.url, agent.token), sockets.listen(t.url, colleague.token)]);
    const burst = tickets.slice(0, cap + 5);
    for (const ticket of burst) agentSocket.socket.emit('ticket:view', { ticketId: ticket.id });
    // Signals of one socket are handled in order: once the last one shows, every earlier one was decided.
    const last = tickets[cap + 5]!;
    agentSocket.socket.emit('ticket:leave', { ticketId: burst[0]!.id });
    agentSocket.socket.emit('ticket:view', { ticketId: last.id });
    await viewersOn(colleagueSocket, last.id, (e) => e.viewers.length === 1);
    await sentinel(t.api, admin.token, [colleagueSocket]);

    const latest = new Map<number, PresenceEvent>();
    for (const e of colleagueSocket.events.presence) latest.set(e.ticketId, e);
    const watched = [...latest.values()].filter((e) => e.viewers.some((v) => v.id === agent.user.id)).map((e) => e.ticketId);
    expect(watched).toHaveLength(cap);
    expect(watched).not.toContain(burst[0]!.id);
    expect(watched).toContain(last.id);
  });

  it('takes typing at most once a second per socket, keeping the latest state', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const [agentSocket, colleagueSocket] = await Promise.all([sockets.listen(t.url, agent.token), sockets.listen(t.url, colleague.token)]);
    agentSocket.socket.emit('ticket:view', { ticketId: ticket.id });
    await viewersOn(colleagueSocket, ticket.id, (e) => e.viewers.length === 1);
    const started = Date.now();
    for (let i = 0; i < 20; i++) agentSocket.socket.emit('ticket:typing', { ticketId: ticket.id, typing: i % 2 === 0 });
    agentSocket.socket.emit('ticket:typing', { ticketId: ticket.id, typing: true });
    // The first signal is taken at once; the flood's last one only when the second is over.
    await viewersOn(colleagueSocket, ticket.id, (e) => e.viewers[0]!.typing);
    const events = colleagueSocket.events.presence.filter((e) => e.ticketId === ticket.id);
    expect(events.length).toBeLessThanOrEqual(3);
    agentSocket.socket.emit('ticket:typing', { ticketId: ticket.id, typing: false });
    await viewersOn(colleagueSocket, ticket.id, (e) => e.viewers.length === 1 && !e.viewers[0]!.typing && Date.now() - started >= 1000);
    expect(colleagueSocket.events.presence.filter((e) => e.ticketId === ticket.id).length).toBeLessThanOrEqual(4);
  });
});
