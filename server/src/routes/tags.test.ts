import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Ticket } from '@helpdesk/protocol';
import { RARE_TAG_TICKETS } from '../db/queries/ticketFilters.js';
import { ADMIN_ENV, createCast, createTicket, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { sentinel, socketClients } from '../../test/socketClients.js';

const BAD_TAG = 'Tags are 1-40 letters, digits, - or _';

/** Tags (docs/api.md#tags): staff's own labels, never shown to the ticket's owner. */
describe('tags', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account, other: Account;
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent, owner, other } = await createCast(t));
  });
  afterEach(() => sockets.closeAll());
  afterAll(() => ifSetUp(t)?.close());

  const setTags = (ticket: Ticket, tags: unknown, by: Account = agent, extra: object = {}) =>
    t.api.put(`/tickets/${ticket.id}`, { tags, ...extra }, { token: by.token });
  const detailOf = async (id: number, by: Account) => (await t.api.get(`/tickets/${id}`, { token: by.token })).body.ticket;

  it("staff set a ticket's tags: lower-cased, repeats dropped, sorted, recorded in history and counted in GET /tags", async () => {
    const ticket = await createTicket(t.api, owner.token);
    const res = await setTags(ticket, ['VIP', 'printer-3', 'vip', 'Ünïcode_ok'], agent, { expectedVersion: ticket.version });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ticket.tags).toEqual(['printer-3', 'vip', 'ünïcode_ok']);
    expect(res.body.ticket.version).toBe(ticket.version + 1);
    const detail = await detailOf(ticket.id, agent);
    expect(detail.tags).toEqual(['printer-3', 'vip', 'ünïcode_ok']);
    expect(detail.history.at(-1)).toMatchObject({ type: 'tags', from: null, to: 'printer-3,vip,ünïcode_ok' });
    // The same set again changes nothing: no version, no entry.
    const again = await setTags(ticket, ['vip', 'printer-3', 'ünïcode_ok']);
    expect(again.body.ticket.version).toBe(ticket.version + 1);
    const tags = await t.api.get('/tags', { token: agent.token });
    expect(tags.status).toBe(200);
    expect(tags.body.success).toBe(true);
    expect(tags.body.tags).toEqual(
      expect.arrayContaining([
        { tag: 'vip', count: 1 },
        { tag: 'printer-3', count: 1 },
      ]),
    );
    // Removing one moves its count; a tag on no ticket is no longer suggested.
    await setTags(ticket, ['vip']);
    const after = (await t.api.get('/tags', { token: admin.token })).body.tags as { tag: string; count: number }[];
    expect(after.find((x) => x.tag === 'printer-3')).toBeUndefined();
    expect(after.find((x) => x.tag === 'vip')).toEqual({ tag: 'vip', count: 1 });
  });

  it.each([[['has space']], [['']], [['x'.repeat(41)]], [['semi;colon']], ['vip'], [[7]]])(
    'refuses the tags %j with the documented text',
    async (tags) => {
      const ticket = await createTicket(t.api, owner.token);
      const res = await setTags(ticket, tags);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: BAD_TAG });
      expect((await detailOf(ticket.id, agent)).tags).toEqual([]);
    },
  );

  it('refuses more than 20 tags, in PUT and in bulk', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    const res = await setTags(ticket, many);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MESSAGES.tickets.tooManyTags(20));
    expect((await setTags(ticket, many.slice(0, 20))).status).toBe(200);
    const bulk = await t.api.post('/tickets/bulk', { ids: [ticket.id], changes: { addTags: ['one-more'] } }, { token: agent.token });
    expect(bulk.status).toBe(200);
    expect(bulk.body.failed).toEqual([{ id: ticket.id, message: MESSAGES.tickets.tooManyTags(20) }]);
    expect((await detailOf(ticket.id, agent)).tags).toHaveLength(20);
  });

  it('a stale expectedVersion is a 409 and the tags stay', async () => {
    const ticket = await createTicket(t.api, owner.token);
    await t.api.put(`/tickets/${ticket.id}`, { priority: 'high' }, { token: agent.token });
    const res = await setTags(ticket, ['late'], agent, { expectedVersion: ticket.version });
    expect(res.status).toBe(409);
    expect(res.body.ticket.tags).toEqual([]);
    expect((await detailOf(ticket.id, agent)).tags).toEqual([]);
  });

  it('the owner may neither set tags nor see them: absent from every answer, list, stats filter and history', async () => {
    const ticket = await createTicket(t.api, owner.token);
    expect(ticket).not.toHaveProperty('tags');
    const denied = await setTags(ticket, ['mine'], owner);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(MESSAGES.tickets.fieldForbidden('tags'));
    expect((await setTags(ticket, ['secret-label'])).status).toBe(200);

    const detail = await detailOf(ticket.id, owner);
    expect(detail).not.toHaveProperty('tags');
    expect(detail.history.map((h: { type: string }) => h.type)).not.toContain('tags');
    const list = await t.api.get('/tickets?limit=100', { token: owner.token });
    expect(JSON.stringify(list.body)).not.toContain('secret-label');
    expect(list.body.tickets.every((x: Ticket) => !('tags' in x))).toBe(true);
    const edited = await t.api.put(`/tickets/${ticket.id}`, { priority: 'low' }, { token: owner.token });
    expect(edited.body.ticket).not.toHaveProperty('tags');
    // Paging back from the owner's newest entry passes over the tags entry without showing it.
    const newest = (await detailOf(ticket.id, owner)).history.at(-1);
    const older = await t.api.get(`/tickets/${ticket.id}/history?before=${newest.id}`, { token: owner.token });
    expect(older.body.history.map((h: { type: string }) => h.type)).toEqual(['created']);
    expect(JSON.stringify(older.body)).not.toContain('secret-label');
    const stale = await t.api.put(`/tickets/${ticket.id}`, { priority: 'high', expectedVersion: 1 }, { token: owner.token });
    expect(stale.status).toBe(409);
    expect(stale.body.ticket).not.toHaveProperty('tags');
    const reply = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Done', status: 'resolved' }, { token: owner.token });
    expect(reply.status).toBe(201);
    expect(reply.body.ticket).not.toHaveProperty('tags');
    // Filtering by a tag would tell the owner their ticket's tags: staff only.
    for (const path of ['/tickets?tag=secret-label', '/tickets/stats?tag=secret-label', '/tickets?search=tag:secret-label', '/tags']) {
      const res = await t.api.get(path, { token: owner.token });
      expect(res.status, path).toBe(403);
      expect(res.body.message).toBe(MESSAGES.http.staffOnly);
    }
  });

  it("events carry the tags to staff and never to the owner room; a staff owner gets staff's copy once", async () => {
    const ticket = await createTicket(t.api, owner.token);
    const ownerSocket = await sockets.listen(t.url, owner.token);
    const staffSocket = await sockets.listen(t.url, agent.token);
    await setTags(ticket, ['live-tag']);
    const staffEvent = await staffSocket.next('ticket-changed', (e) => e.ticket.id === ticket.id);
    expect(staffEvent.action === 'updated' && staffEvent.ticket.tags).toEqual(['live-tag']);
    expect(staffEvent.action === 'updated' && staffEvent.previous.tags).toEqual([]);
    expect(staffEvent.action === 'updated' && staffEvent.history.map((h) => h.type)).toEqual(['tags']);
    const ownerEvent = await ownerSocket.next('ticket-changed', (e) => e.ticket.id === ticket.id);
    expect(ownerEvent.action).toBe('updated');
    expect(ownerEvent.ticket).not.toHaveProperty('tags');
    expect(ownerEvent.action === 'updated' && ownerEvent.history).toEqual([]);
    expect(JSON.stringify(ownerSocket.events)).not.toContain('live-tag');

    // An agent's own ticket: one event, with the tags.
    const own = await createTicket(t.api, agent.token);
    await setTags(own, ['self']);
    await sentinel(t.api, admin.token, [staffSocket]);
    const ownEvents = staffSocket.events['ticket-changed'].filter((e) => e.ticket.id === own.id && e.action === 'updated');
    expect(ownEvents).toHaveLength(1);
    expect(ownEvents[0]?.action === 'updated' && ownEvents[0].ticket.tags).toEqual(['self']);
  });

  it("bulk addTags and removeTags change each ticket's own set, with history, and other users' tickets are unaffected", async () => {
    const a = await createTicket(t.api, owner.token);
    const b = await createTicket(t.api, other.token);
    const c = await createTicket(t.api, other.token);
    await setTags(a, ['keep', 'drop']);
    const res = await t.api.post(
      '/tickets/bulk',
      { ids: [a.id, b.id], changes: { addTags: ['Bulk-Added'], removeTags: ['drop'] } },
      { token: agent.token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.failed).toEqual([]);
    expect(res.body.updated.map((x: Ticket) => [x.id, x.tags])).toEqual([
      [a.id, ['bulk-added', 'keep']],
      [b.id, ['bulk-added']],
    ]);
    expect((await detailOf(b.id, agent)).history.at(-1)).toMatchObject({ type: 'tags', to: 'bulk-added' });
    expect((await detailOf(c.id, agent)).tags).toEqual([]);
    const bad = await t.api.post('/tickets/bulk', { ids: [a.id], changes: { addTags: ['no good'] } }, { token: agent.token });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(BAD_TAG);
    const none = await t.api.post('/tickets/bulk', { ids: [a.id], changes: { addTags: [] } }, { token: agent.token });
    expect(none.status).toBe(400);
  });

  it('tag= filters the list, the stats and a saved view, also combined with status and sort', async () => {
    const tag = `only-${Date.now()}`;
    const one = await createTicket(t.api, owner.token, { title: 'Tagged open one' });
    const two = await createTicket(t.api, owner.token, { title: 'Tagged closed two' });
    await createTicket(t.api, owner.token, { title: 'Not tagged at all' });
    await setTags(one, [tag]);
    await setTags(two, [tag, 'other']);
    await t.api.put(`/tickets/${two.id}`, { status: 'closed' }, { token: agent.token });

    const list = await t.api.get(`/tickets?tag=${tag.toUpperCase()}&sort=createdAt`, { token: agent.token });
    expect(list.status).toBe(200);
    expect(list.body.tickets.map((x: Ticket) => x.id)).toEqual([one.id, two.id]);
    expect(list.body.total).toBe(2);
    const open = await t.api.get(`/tickets?tag=${tag}&status=open`, { token: agent.token });
    expect(open.body.tickets.map((x: Ticket) => x.id)).toEqual([one.id]);
    const stats = await t.api.get(`/tickets/stats?tag=${tag}`, { token: agent.token });
    expect(stats.body.stats).toMatchObject({ total: 2, open: 1, closed: 1 });
    const typed = await t.api.get(`/tickets?search=${encodeURIComponent(`tag:${tag} status:closed`)}`, { token: agent.token });
    expect(typed.body.tickets.map((x: Ticket) => x.id)).toEqual([two.id]);
    const bad = await t.api.get('/tickets?tag=not%20a%20tag', { token: agent.token });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(BAD_TAG);

    const view = await t.api.post('/views', { name: 'Tagged', filters: { tag } }, { token: agent.token });
    expect(view.status, JSON.stringify(view.body)).toBe(201);
    expect(view.body.view.filters).toEqual({ tag });
    const counts = await t.api.get('/views/counts', { token: agent.token });
    expect(counts.body.counts[view.body.view.id]).toBe(2);
  });

  it('a common tag (past the rare-tag cut) lists and counts the same way, straight off the list order', async () => {
    const tag = `common-${Date.now()}`;
    const n = RARE_TAG_TICKETS + 5;
    const db = t.server.database.db;
    // Direct inserts: the counts' trigger sees them as it sees the API's writes.
    await db.execute(sql`
      insert into tickets (title, description, user_id, status, tags, created_at, updated_at)
      select 'Bulk tagged ' || g, 'Inserted for the common-tag path', ${owner.user.id}, case when g % 3 = 0 then 'closed' else 'open' end::ticket_status,
             array[${tag}]::text[], now() - g * interval '1 minute', now() + g * interval '1 second'
      from generate_series(1, ${n}) g`);
    const page = await t.api.get(`/tickets?tag=${tag}&limit=5`, { token: agent.token });
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(n);
    expect(page.body.tickets.map((x: Ticket) => x.title)).toEqual([1, 2, 3, 4, 5].map((i) => `Bulk tagged ${i}`));
    const closed = await t.api.get(`/tickets?tag=${tag}&status=closed&limit=2`, { token: agent.token });
    expect(closed.body.tickets.map((x: Ticket) => x.title)).toEqual(['Bulk tagged 3', 'Bulk tagged 6']);
    expect(closed.body.total).toBe(Math.floor(n / 3));
    // In orders its rows do not carry: a few (closed) read by id off the tag's rows, many
    // (unassigned, every one) walked; both give the order's page and the exact count.
    const titles = async (query: string) => {
      const res = await t.api.get(`/tickets?tag=${tag}&${query}`, { token: agent.token });
      expect(res.status).toBe(200);
      return { titles: res.body.tickets.map((x: Ticket) => x.title), total: res.body.total };
    };
    const closedCount = Math.floor(n / 3);
    const newestClosed = 3 * closedCount;
    expect(await titles('status=closed&sort=-updatedAt&limit=2')).toEqual({
      titles: [`Bulk tagged ${newestClosed}`, `Bulk tagged ${newestClosed - 3}`],
      total: closedCount,
    });
    expect(await titles('status=closed&sort=updatedAt&limit=2&page=2')).toEqual({
      titles: ['Bulk tagged 9', 'Bulk tagged 12'],
      total: closedCount,
    });
    expect(await titles('status=closed&sort=-lastActivityAt&limit=2&page=200')).toEqual({ titles: [], total: closedCount });
    expect(await titles('assignee=none&sort=-updatedAt&limit=2')).toEqual({
      titles: [`Bulk tagged ${n}`, `Bulk tagged ${n - 1}`],
      total: n,
    });
    const stats = await t.api.get(`/tickets/stats?tag=${tag}`, { token: agent.token });
    expect(stats.body.stats).toMatchObject({ total: n, closed: Math.floor(n / 3), open: n - Math.floor(n / 3) });
    expect((await t.api.get('/tags', { token: agent.token })).body.tags[0]).toEqual({ tag, count: n });
  });
});
