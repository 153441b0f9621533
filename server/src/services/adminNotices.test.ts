import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { insertNotifications } from '../db/queries/notifications.js';
import { insertSlaNotifications } from '../db/queries/slaTickets.js';
import { executedRows } from '../db/rows.js';

interface Listed {
  id: number;
  ticketId: number;
  type: string;
  readAt: string | null;
}

/**
 * The admins' notices (an SLA mark on an unassigned ticket): stored once, listed and counted for each
 * admin, read by each on their own, never seen by anyone else.
 */
describe("the admins' notices", () => {
  let t: TestServer;
  let first: Account, second: Account, agent: Account, owner: Account;

  beforeAll(async () => {
    t = await startTestServer();
    first = await insertUser(t, { role: 'admin', name: 'First Admin' });
    second = await insertUser(t, { role: 'admin', name: 'Second Admin' });
    agent = await insertUser(t, { role: 'agent', name: 'Agent Ann' });
    owner = await insertUser(t, { name: 'Owner Olive' });
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
  });

  const notice = async (ticketId: number, type: 'sla_warning' | 'sla_breached' = 'sla_breached') => {
    const [row] = await insertSlaNotifications(t.server.database.db, [
      { userId: null, type, ticketId, byId: owner.user.id, excerpt: `Notice on ${ticketId}` },
    ]);
    if (!row) throw new Error('no notice written');
    return row.id;
  };
  const bell = async (account: Account, unreadOnly = false) => {
    const res = await t.api.get(`/notifications${unreadOnly ? '?unread=true' : ''}`, { token: account.token });
    expect(res.status).toBe(200);
    return res.body as { notifications: Listed[]; unread: number };
  };
  const markAll = async (account: Account) => {
    const res = await t.api.post('/notifications/read', {}, { token: account.token });
    expect(res.status).toBe(200);
    return res.body.unread as number;
  };

  it('lists one stored notice for every admin, beside their own, and for nobody else', async () => {
    await markAll(first);
    await markAll(second);
    const ticket = await createTicket(t.api, owner.token);
    const id = await notice(ticket.id);
    await insertNotifications(t.server.database.db, [
      { userId: first.user.id, type: 'mention', ticketId: ticket.id, byId: owner.user.id, excerpt: 'Own' },
    ]);
    const [stored] = await executedRows(
      t.server.database.db,
      sql`select count(*)::int as n from notifications where ticket_id = ${ticket.id} and type = 'sla_breached'`,
    );
    expect(stored?.n).toBe(1);

    const mine = await bell(first);
    expect(mine.unread).toBe(2);
    expect(mine.notifications.slice(0, 2).map((n) => n.type)).toEqual(['mention', 'sla_breached']);
    const theirs = await bell(second);
    expect(theirs.unread).toBe(1);
    expect(theirs.notifications[0]).toMatchObject({ id, ticketId: ticket.id, type: 'sla_breached', readAt: null });

    const agents = await bell(agent);
    expect(agents.notifications.some((n) => n.id === id)).toBe(false);
    // Marking someone else's notice by id changes nothing for anyone.
    expect((await t.api.post('/notifications/read', { ids: [id] }, { token: agent.token })).body.unread).toBe(agents.unread);
    expect((await bell(first)).unread).toBe(2);
    expect((await bell(owner)).notifications.some((n) => n.id === id)).toBe(false);
  });

  it('keeps each admin’s reads their own: by id, by ticket and all at once', async () => {
    await markAll(first);
    await markAll(second);
    const [a, b] = [await createTicket(t.api, owner.token), await createTicket(t.api, owner.token)];
    const onA = await notice(a.id);
    const alsoOnA = await notice(a.id, 'sla_warning');
    const onB = await notice(b.id);

    const byId = await t.api.post('/notifications/read', { ids: [onA] }, { token: first.token });
    expect(byId.body.unread).toBe(2);
    // Read again: counted once.
    expect((await t.api.post('/notifications/read', { ids: [onA] }, { token: first.token })).body.unread).toBe(2);
    const listed = await bell(first);
    expect(listed.notifications.find((n) => n.id === onA)?.readAt).not.toBeNull();
    expect(listed.notifications.find((n) => n.id === onB)?.readAt).toBeNull();
    expect((await bell(first, true)).notifications.map((n) => n.id)).toEqual([onB, alsoOnA]);
    expect((await bell(second)).unread).toBe(3);

    expect((await t.api.post('/notifications/read', { ticketId: a.id }, { token: second.token })).body.unread).toBe(1);
    expect((await bell(second, true)).notifications.map((n) => n.id)).toEqual([onB]);
    expect((await bell(first)).unread).toBe(2);

    expect(await markAll(first)).toBe(0);
    expect((await bell(first)).notifications.filter((n) => [onA, alsoOnA, onB].includes(n.id)).every((n) => n.readAt !== null)).toBe(true);
    expect((await bell(second)).unread).toBe(1);
    // A notice after the mark is unread again, and a single read above it still counts.
    const later = await notice(b.id, 'sla_warning');
    expect((await bell(first)).unread).toBe(1);
    expect((await bell(first, true)).notifications.map((n) => n.id)).toEqual([later]);
    expect((await t.api.post('/notifications/read', { ids: [later] }, { token: first.token })).body.unread).toBe(0);
    expect((await bell(second)).unread).toBe(2);
  });

  it('starts an admin made later after the notices already written, and drops them with their ticket', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const before = await notice(ticket.id);
    const newcomer = await insertUser(t, { role: 'admin', name: 'New Admin' });
    expect((await bell(newcomer)).notifications.some((n) => n.id === before)).toBe(false);
    expect((await bell(newcomer)).unread).toBe(0);
    const after = await notice(ticket.id, 'sla_warning');
    expect((await bell(newcomer)).notifications.map((n) => n.id)).toEqual([after]);
    await t.api.post('/notifications/read', { ids: [after] }, { token: newcomer.token });

    expect((await t.api.delete(`/tickets/${ticket.id}`, { token: first.token })).status).toBe(200);
    const left = await executedRows(
      t.server.database.db,
      sql`select (select count(*) from notifications where id in (${before}, ${after}))::int as notices,
        (select count(*) from admin_notice_reads where notification_id in (${before}, ${after}))::int as reads`,
    );
    expect(left[0]).toEqual({ notices: 0, reads: 0 });
    expect((await bell(newcomer)).notifications).toEqual([]);
  });
});
