import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ViewCountsEvent } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { sentinel, socketClients, type Listener } from '../../test/socketClients.js';
import { VIEW_COUNTS_INTERVAL_MS } from './viewCountsPush.js';

/** The counts of searched saved views, pushed over real sockets to the rooms that may see them and no others. */
describe('view-counts pushes', () => {
  let t: TestServer;
  let admin: Account, agentA: Account, agentB: Account, endUser: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, owner: endUser } = await createCast(t));
    agentA = await insertUser(t, { role: 'agent', name: 'Agent A' });
    agentB = await insertUser(t, { role: 'agent', name: 'Agent B' });
  });
  afterEach(() => sockets.closeAll());
  afterAll(() => ifSetUp(t)?.close());

  const makeView = async (who: Account, name: string, filters: object, shared = false): Promise<number> => {
    const res = await t.api.post('/views', { name, filters, shared }, { token: who.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.view.id as number;
  };
  const fresh = async (who: Account) => (await t.api.get('/views/counts', { token: who.token })).body.counts as Record<string, number>;
  const pushed = (listener: Listener, viewId: number, count?: number) =>
    listener.next('view-counts', (e) => viewId in e.counts && (count === undefined || e.counts[viewId] === count));
  const ids = (events: ViewCountsEvent[]) => [...new Set(events.flatMap((e) => Object.keys(e.counts).map(Number)))].sort((a, b) => a - b);

  it('sends a searched view only to the rooms that see it, once a second at most, and only when a change can move it', async () => {
    const team = await makeView(admin, 'Team printers', { search: 'printer' }, true);
    const teamMine = await makeView(admin, 'My printers', { search: 'printer', assignee: 'me' }, true);
    const privateA = await makeView(agentA, 'A: open printers', { search: 'printer', status: 'open' });
    const filterOnlyA = await makeView(agentA, 'A: urgent', { priority: 'urgent' });
    const privateB = await makeView(agentB, 'B: VPN', { search: 'vpn' });

    const [a, b, root, user] = await Promise.all([
      sockets.listen(t.url, agentA.token),
      sockets.listen(t.url, agentB.token),
      sockets.listen(t.url, admin.token),
      sockets.listen(t.url, endUser.token),
    ]);

    // A new printer ticket: the team view moves for all staff, agent A's open-printers view in A's room
    // only; A's socket, in both rooms, gets them in one message.
    const ticket = await createTicket(t.api, endUser.token, { title: 'Printer on fire', description: 'Smoke on floor 3' });
    const [toA, toB, toAdmin] = await Promise.all([pushed(a, team, 1), pushed(b, team, 1), pushed(root, team, 1)]);
    expect(toA.counts).toEqual({ [team]: 1, [privateA]: 1 });
    expect(toB.counts).toEqual({ [team]: 1 });
    expect(toAdmin.counts).toEqual({ [team]: 1 });
    const firstToA = Date.now();

    // Agent B assigns it to A and starts it, at once: A's room gets both of its moved views in one
    // message, a second after the last one; nothing moved for the team view.
    const assigned = await t.api.put(
      `/tickets/${ticket.id}`,
      { assignedAgentId: agentA.user.id, status: 'in_progress' },
      { token: agentB.token },
    );
    expect(assigned.status).toBe(200);
    const second = await pushed(a, teamMine, 1);
    expect(Date.now() - firstToA).toBeGreaterThanOrEqual(VIEW_COUNTS_INTERVAL_MS - 100);
    expect(second.counts).toEqual({ [teamMine]: 1, [privateA]: 0 });
    expect(await fresh(agentA)).toMatchObject({ [team]: 1, [teamMine]: 1, [privateA]: 0 });

    // A comment and a change no searched view can see move nothing.
    expect((await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Still smoking' }, { token: endUser.token })).status).toBe(201);
    const other = await createTicket(t.api, endUser.token, { title: 'Mailbox full', description: 'Quota reached' });
    expect((await t.api.put(`/tickets/${other.id}`, { priority: 'urgent' }, { token: agentB.token })).status).toBe(200);

    // An admin deletes the printer ticket (its owner no longer may: support has answered it): the team
    // view for staff, and A's `me` view in A's room.
    expect((await t.api.delete(`/tickets/${ticket.id}`, { token: admin.token })).status).toBe(200);
    await Promise.all([pushed(a, team, 0), pushed(b, team, 0), pushed(root, team, 0), pushed(a, teamMine, 0)]);
    // Every emit of the earlier rounds reached these sockets before the last round's; the end user's
    // socket is in no staff room, so a later public event marks the end for it.
    await sentinel(t.api, admin.token, [user]);

    expect(ids(a.events['view-counts'])).toEqual([team, teamMine, privateA].sort((x, y) => x - y));
    expect(ids(b.events['view-counts'])).toEqual([team]);
    expect(ids(root.events['view-counts'])).toEqual([team]);
    expect(user.events['view-counts']).toEqual([]);
    // Two rounds for the staff room and three for A's room, one message a round to A's socket (in both);
    // none for the comment or the mailbox ticket.
    expect(b.events['view-counts']).toHaveLength(2);
    expect(a.events['view-counts']).toHaveLength(3);
    // The filter-only view (moved by clients) and B's VPN view (never matched) were never pushed.
    expect(a.events['view-counts'].some((e) => filterOnlyA in e.counts || privateB in e.counts)).toBe(false);
    for (const who of [agentA, agentB, admin]) expect((await fresh(who))[team]).toBe(0);
    expect(await fresh(agentA)).toMatchObject({ [teamMine]: 0, [privateA]: 0 });
  });

  it("gives a staff member one message with staff's counts and their own when a change moves both", async () => {
    const word = `zeppelin${Date.now()}`;
    const owner = await insertUser(t, { role: 'agent', name: 'Agent Owner' });
    const colleague = await insertUser(t, { role: 'agent', name: 'Agent Colleague' });
    const shared = await makeView(admin, 'Team zeppelins', { search: word }, true);
    const own = await makeView(owner, 'My zeppelins', { search: word });
    const [mine, theirs] = await Promise.all([sockets.listen(t.url, owner.token), sockets.listen(t.url, colleague.token)]);

    await createTicket(t.api, endUser.token, { title: `The ${word} leaks`, description: 'Helium everywhere' });
    const [toOwner, toColleague] = await Promise.all([pushed(mine, own, 1), pushed(theirs, shared, 1)]);
    expect(toOwner.counts).toEqual({ [shared]: 1, [own]: 1 });
    expect(toColleague.counts).toEqual({ [shared]: 1 });
    // Every emit of that round reached these sockets before the sentinel: staff's copy skipped the owner.
    await sentinel(t.api, admin.token, [mine, theirs]);
    expect(mine.events['view-counts']).toHaveLength(1);
    expect(theirs.events['view-counts']).toHaveLength(1);
  });

  it("counts a view again when a ticket of the requester its words name changes, whatever the ticket's text", async () => {
    const name = `Quill${Date.now()} Penn`;
    const requester = await insertUser(t, { name });
    const byName = await makeView(agentB, 'B: Quill', { search: name.split(' ')[0]!.toLowerCase() });
    const b = await sockets.listen(t.url, agentB.token);
    const ticket = await createTicket(t.api, requester.token, { title: 'Broken chair', description: 'The left leg.' });
    await pushed(b, byName, 1);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, { token: agentB.token })).status).toBe(200);
    expect((await fresh(agentB))[byName]).toBe(1);
    expect((await t.api.delete(`/tickets/${ticket.id}`, { token: admin.token })).status).toBe(200);
    await pushed(b, byName, 0);
  });
});
