import { and, count, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Ticket, type TicketDetail } from '@helpdesk/protocol';
import { notifications as notificationRows, ticketHistory, tickets } from '../db/schema/index.js';
import { MIN_BATCH } from '../db/shrinkingBatch.js';
import { ADMIN_ENV, createCast, createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { cancelWideUpdates } from '../../test/slowStatements.js';
import { sentinel, socketClients } from '../../test/socketClients.js';

const MINUTE = 60_000;
const none = { firstResponseMinutes: null, resolutionMinutes: null };
/** Around the clock, so deadlines are plain arithmetic: medium 60/240 minutes, urgent 15/60. */
const TARGETS = {
  low: none,
  medium: { firstResponseMinutes: 60, resolutionMinutes: 240 },
  high: none,
  urgent: { firstResponseMinutes: 15, resolutionMinutes: 60 },
};
const plus = (iso: string, minutes: number) => new Date(new Date(iso).getTime() + minutes * MINUTE).toISOString();
/** Within a second of: the deadline counts from the ticket's clock start, taken beside its createdAt. */
const near = (actual: string | null | undefined, expected: string) =>
  expect(Math.abs(new Date(actual ?? 0).getTime() - new Date(expected).getTime())).toBeLessThan(1000);

/** docs/api.md#service-levels on tickets over real HTTP and sockets: pending, the clock, the scanner. */
describe('service levels on tickets', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account;
  let policyId: number;
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent, owner } = await createCast(t));
    const created = await t.api.post('/sla/policies', { name: 'Everyone', targets: TARGETS }, { token: admin.token });
    expect(created.status).toBe(201);
    policyId = created.body.policy.id;
  });
  afterEach(() => sockets.closeAll());
  afterAll(() => ifSetUp(t)?.close());

  const detail = async (id: number, who: Account): Promise<TicketDetail> => {
    const res = await t.api.get(`/tickets/${id}`, { token: who.token });
    expect(res.status).toBe(200);
    return res.body.ticket;
  };
  const put = (id: number, body: object, who: Account = agent) => t.api.put(`/tickets/${id}`, body, { token: who.token });
  const comment = (id: number, content: string, who: Account, extra: object = {}) =>
    t.api.post(`/tickets/${id}/comments`, { content, ...extra }, { token: who.token });
  /** Moves a ticket's due times into the past, as if its deadline had come: what the scanner looks for. */
  const dueNow = (id: number, columns: Partial<typeof tickets.$inferInsert>) =>
    t.server.database.db
      .update(tickets)
      .set({ ...columns, slaNextMarkAt: new Date(Date.now() - 1000) })
      .where(eq(tickets.id, id));

  it('starts the clock at creation: staff see the deadlines, the owner never sees `sla` (REST and socket)', async () => {
    const ticket = await createTicket(t.api, owner.token);
    expect(ticket).not.toHaveProperty('sla');
    const staffView = await detail(ticket.id, agent);
    expect(staffView.sla).toMatchObject({ policyId, firstRespondedAt: null, state: 'ok' });
    near(staffView.sla?.firstResponseDueAt, plus(ticket.createdAt, 60));
    near(staffView.sla?.resolutionDueAt, plus(ticket.createdAt, 240));
    expect(await detail(ticket.id, owner)).not.toHaveProperty('sla');
    const ownRows = (await t.api.get('/tickets?limit=100', { token: owner.token })).body.tickets as Ticket[];
    expect(ownRows.length).toBeGreaterThan(0);
    expect(ownRows.some((row) => 'sla' in row)).toBe(false);
    const staffRows = (await t.api.get('/tickets?limit=100', { token: agent.token })).body.tickets as Ticket[];
    expect(staffRows.find((row) => row.id === ticket.id)?.sla?.policyId).toBe(policyId);

    const ownerSocket = await sockets.listen(t.url, owner.token);
    const staffSocket = await sockets.listen(t.url, agent.token);
    expect((await put(ticket.id, { priority: 'urgent' })).status).toBe(200);
    const toStaff = await staffSocket.next('ticket-changed', (e) => e.ticket.id === ticket.id);
    const toOwner = await ownerSocket.next('ticket-changed', (e) => e.ticket.id === ticket.id);
    if (toStaff.action !== 'updated' || toOwner.action !== 'updated') throw new Error('expected updates');
    // A priority change re-targets: urgent's 15 minutes from the same start.
    near(toStaff.ticket.sla?.firstResponseDueAt, plus(ticket.createdAt, 15));
    expect(toStaff.previous.sla?.firstResponseDueAt).toBe(staffView.sla?.firstResponseDueAt);
    expect(toOwner.ticket).not.toHaveProperty('sla');
    expect(toOwner.previous).not.toHaveProperty('sla');
  });

  it('records the first response from a staff member’s public reply only: not a note, a status change or the owner', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const ownerSocket = await sockets.listen(t.url, owner.token);
    const staffSocket = await sockets.listen(t.url, agent.token);
    expect((await comment(ticket.id, 'Looking into it internally', agent, { internal: true })).status).toBe(201);
    expect((await put(ticket.id, { status: 'in_progress' })).status).toBe(200);
    expect((await comment(ticket.id, 'Any news on this?', owner)).status).toBe(201);
    expect((await detail(ticket.id, agent)).sla?.firstRespondedAt).toBeNull();

    expect((await comment(ticket.id, 'We are on it, sorry for the wait.', agent)).status).toBe(201);
    const sla = (await detail(ticket.id, agent)).sla;
    expect(sla?.firstRespondedAt).not.toBeNull();
    expect(sla?.firstResponseDueAt).toBeNull();
    const event = await staffSocket.next('sla-changed', (e) => e.ticketId === ticket.id);
    expect(event.sla).toEqual(sla);
    await sentinel(t.api, agent.token, [ownerSocket, staffSocket]);
    expect(ownerSocket.events['sla-changed']).toEqual([]);
    // A later reply changes nothing.
    await comment(ticket.id, 'Still on it.', agent);
    expect((await detail(ticket.id, agent)).sla?.firstRespondedAt).toBe(sla?.firstRespondedAt);
  });

  it('lets staff set pending (the owner may not), pauses the clock, and the owner’s answer reopens the ticket', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const refused = await put(ticket.id, { status: 'pending' }, owner);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MESSAGES.sla.pendingForbidden);

    expect((await put(ticket.id, { status: 'pending' })).body.ticket.status).toBe('pending');
    const paused = (await detail(ticket.id, agent)).sla;
    expect(paused).toMatchObject({ state: 'paused', firstResponseDueAt: null, resolutionDueAt: null });
    const listed = (await t.api.get('/tickets?status=pending&limit=100', { token: agent.token })).body.tickets as Ticket[];
    expect(listed.map((row) => row.id)).toContain(ticket.id);
    expect((await t.api.get('/tickets?sla=paused&limit=100', { token: agent.token })).body.tickets.map((r: Ticket) => r.id)).toContain(
      ticket.id,
    );
    const stats = (await t.api.get('/tickets/stats?status=pending', { token: agent.token })).body.stats;
    expect(stats.pending).toBe(stats.total);
    expect(stats.pending).toBeGreaterThan(0);

    const ownerSocket = await sockets.listen(t.url, owner.token);
    expect((await comment(ticket.id, 'Here is the log you asked for.', owner)).status).toBe(201);
    const reopened = await ownerSocket.next('ticket-changed', (e) => e.ticket.id === ticket.id);
    if (reopened.action !== 'updated') throw new Error('expected an update');
    expect(reopened.ticket.status).toBe('open');
    expect(reopened.history).toEqual([expect.objectContaining({ type: 'status', from: 'pending', to: 'open' })]);
    const after = await detail(ticket.id, agent);
    expect(after.status).toBe('open');
    expect(after.history.some((h) => h.type === 'status' && h.from === 'pending' && h.to === 'open')).toBe(true);
    expect(after.sla?.state).toBe('ok');
    // The time spent waiting did not count: the deadline is no earlier than before the pause.
    expect(new Date(after.sla?.resolutionDueAt ?? 0).getTime()).toBeGreaterThanOrEqual(new Date(plus(ticket.createdAt, 240)).getTime());
  });

  it('sets pending in bulk, and stops the clock at resolution; a reopen runs on', async () => {
    const [a, b] = [await createTicket(t.api, owner.token), await createTicket(t.api, owner.token)];
    const bulk = await t.api.post('/tickets/bulk', { ids: [a.id, b.id], changes: { status: 'pending' } }, { token: agent.token });
    expect(bulk.body.failed).toEqual([]);
    expect(bulk.body.updated.map((row: Ticket) => row.sla?.state)).toEqual(['paused', 'paused']);

    expect((await put(a.id, { status: 'resolved' })).status).toBe(200);
    expect((await detail(a.id, agent)).sla).toMatchObject({ state: 'met', resolutionDueAt: null });
    expect((await comment(a.id, 'It broke again.', owner)).status).toBe(201);
    const reopened = await detail(a.id, agent);
    expect(reopened.status).toBe('open');
    expect(reopened.sla?.state).toBe('ok');
    expect(reopened.sla?.resolutionDueAt).not.toBeNull();
  });

  it('filters by SLA state and sorts by the earliest open deadline, for staff only', async () => {
    const later = await createTicket(t.api, owner.token); // medium: first response in 60 minutes
    const sooner = await createTicket(t.api, owner.token, { priority: 'urgent' }); // 15 minutes
    const without = await createTicket(t.api, owner.token, { priority: 'low' }); // no targets
    const ids = new Set([later.id, sooner.id, without.id]);
    const order = async (sort: string) =>
      ((await t.api.get(`/tickets?sort=${sort}&limit=100`, { token: agent.token })).body.tickets as Ticket[])
        .map((row) => row.id)
        .filter((id) => ids.has(id));
    expect(await order('slaDueAt')).toEqual([sooner.id, later.id, without.id]);
    expect(await order('-slaDueAt')).toEqual([later.id, sooner.id, without.id]);

    // Under a filter that leaves no clock running, every deadline is null: the order is the id's.
    for (const id of [later.id, sooner.id]) expect((await put(id, { status: 'resolved' })).status).toBe(200);
    const resolved = async (sort: string) =>
      ((await t.api.get(`/tickets?status=resolved&sort=${sort}&limit=100`, { token: agent.token })).body.tickets as Ticket[])
        .map((row) => row.id)
        .filter((id) => ids.has(id));
    expect(await resolved('slaDueAt')).toEqual([later.id, sooner.id]);
    expect(await resolved('-slaDueAt')).toEqual([sooner.id, later.id]);

    const ok = (await t.api.get('/tickets?sla=ok&limit=100', { token: agent.token })).body;
    expect(ok.tickets.every((row: Ticket) => row.sla?.state === 'ok')).toBe(true);
    expect((await t.api.get('/tickets/stats?sla=ok', { token: agent.token })).body.stats.total).toBe(ok.total);

    for (const path of ['/tickets?sla=ok', '/tickets/stats?sla=ok', '/tickets?sort=slaDueAt']) {
      const res = await t.api.get(path, { token: owner.token });
      expect(res.status, path).toBe(403);
      expect(res.body.message).toBe(MESSAGES.http.staffOnly);
    }
    const bad = await t.api.get('/tickets?sla=late', { token: agent.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.sla).toBe(MESSAGES.sla.filterInvalid);
    const views = (await t.api.get('/views', { token: agent.token })).body.views;
    expect(views).toContainEqual(expect.objectContaining({ name: 'SLA at risk', filters: { sla: 'warning' }, sort: 'slaDueAt' }));
  });

  it('the scanner marks a breach once: a staff-only history entry, the assignee notified, sla-changed to staff alone', async () => {
    const ticket = await createTicket(t.api, owner.token);
    expect((await put(ticket.id, { assignedAgentId: agent.user.id })).status).toBe(200);
    await dueNow(ticket.id, { slaResponseDueAt: new Date(Date.now() - 1000), slaResponseWarnedAt: new Date() });
    const ownerSocket = await sockets.listen(t.url, owner.token);
    const staffSocket = await sockets.listen(t.url, agent.token);

    expect(await t.server.services.slaScan()).toBeGreaterThanOrEqual(1);
    const event = await staffSocket.next('sla-changed', (e) => e.ticketId === ticket.id);
    expect(event.sla?.state).toBe('breached');
    expect(event.history).toEqual([expect.objectContaining({ type: 'sla', from: 'first_response', to: 'breached' })]);
    const notice = await staffSocket.next('notification', (e) => e.notification.ticketId === ticket.id);
    expect(notice.notification).toMatchObject({ type: 'sla_breached', by: { id: owner.user.id } });

    // A pass with nothing due writes nothing, so the answers every process keeps survive it.
    const before = (await t.server.database.versions().current())!;
    expect(await t.server.services.slaScan()).toBe(0);
    expect((await t.server.database.versions().current())!.stamp).toBe(before.stamp);
    const staffView = await detail(ticket.id, agent);
    expect(staffView.sla?.state).toBe('breached');
    expect(staffView.history.filter((h) => h.type === 'sla')).toHaveLength(1);
    const ownerView = await detail(ticket.id, owner);
    expect(ownerView.history.some((h) => h.type === 'sla')).toBe(false);
    expect((await t.api.get('/tickets?sla=breached&limit=100', { token: agent.token })).body.tickets.map((r: Ticket) => r.id)).toContain(
      ticket.id,
    );
    const notifications = (await t.api.get('/notifications', { token: agent.token })).body.notifications;
    expect(
      notifications.filter((n: { ticketId: number; type: string }) => n.ticketId === ticket.id && n.type === 'sla_breached'),
    ).toHaveLength(1);
    await sentinel(t.api, agent.token, [ownerSocket, staffSocket]);
    expect(ownerSocket.events['sla-changed']).toEqual([]);
    expect(ownerSocket.events.notification).toEqual([]);
  });

  it('marks each due ticket once when workers scan side by side, batch after batch', async () => {
    const due = [];
    for (let i = 0; i < 7; i += 1) {
      const ticket = await createTicket(t.api, owner.token, { title: `Side by side ${i}` });
      expect((await put(ticket.id, { assignedAgentId: agent.user.id })).status).toBe(200);
      await dueNow(ticket.id, { slaResponseDueAt: new Date(Date.now() - 1000), slaResponseWarnedAt: new Date() });
      due.push(ticket.id);
    }
    // Two workers, two tickets a batch: each takes rows the other has not locked, until none is left.
    expect(await t.server.services.slaScan(undefined, { workers: 2, batch: 2 })).toBe(7);
    expect(await t.server.services.slaScan(undefined, { workers: 2, batch: 2 })).toBe(0);
    const notifications = (await t.api.get('/notifications?limit=100', { token: agent.token })).body.notifications as {
      ticketId: number;
      type: string;
    }[];
    for (const id of due) {
      expect((await detail(id, agent)).history.filter((h) => h.type === 'sla')).toHaveLength(1);
      expect(notifications.filter((n) => n.ticketId === id && n.type === 'sla_breached')).toHaveLength(1);
    }
  });

  it('passes over a ticket a writer holds without waiting for it, and marks it on the next pass', async () => {
    const ticket = await createTicket(t.api, owner.token, { title: 'Held by a writer' });
    await dueNow(ticket.id, { slaResponseDueAt: new Date(Date.now() - 1000), slaResponseWarnedAt: new Date() });
    const slaEntries = async () => (await detail(ticket.id, agent)).history.filter((h) => h.type === 'sla');
    if (t.server.database.kind === 'postgres') {
      // A writer locks the ticket, then (its trigger) the SLA row; a scan locks them the other way round.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      const writer = t.server.database.db.transaction(async (tx) => {
        await tx.execute(sql`select id from tickets where id = ${ticket.id} for update`);
        locked();
        await held;
        await tx.update(tickets).set({ title: 'Held by a writer, edited' }).where(eq(tickets.id, ticket.id));
      });
      await holding;
      try {
        await t.server.services.slaScan();
        // Read beside the writer: the API's detail would wait on its lock (the read mark's key check).
        const entries = await t.server.database.db
          .select({ id: ticketHistory.id })
          .from(ticketHistory)
          .where(and(eq(ticketHistory.ticketId, ticket.id), eq(ticketHistory.type, 'sla')));
        expect(entries).toEqual([]);
      } finally {
        release();
        await writer;
      }
    }
    expect(await t.server.services.slaScan()).toBeGreaterThanOrEqual(1);
    expect(await slaEntries()).toEqual([expect.objectContaining({ from: 'first_response', to: 'breached' })]);
    expect((await detail(ticket.id, agent)).sla?.state).toBe('breached');
  });

  it('marks in smaller batches, and re-applies so, when a batch runs past the statement timeout', async () => {
    // A statement changing more than `over` tickets is cancelled, so each pass must shrink its batches below it.
    const over = MIN_BATCH + 5;
    const db = t.server.database.db;
    const due: number[] = [];
    for (let i = 0; i < MIN_BATCH + 15; i += 1) due.push((await createTicket(t.api, owner.token, { title: `Slow machine ${i}` })).id);
    await db
      .update(tickets)
      .set({ slaResponseDueAt: new Date(Date.now() - 1000), slaResponseWarnedAt: new Date(), slaNextMarkAt: new Date(Date.now() - 1000) })
      .where(inArray(tickets.id, due));
    const undo = await cancelWideUpdates(db, 'tickets', over);
    try {
      expect(await t.server.services.slaScan(undefined, { workers: 1 })).toBe(due.length);
      const notifications = (await t.api.get('/notifications?limit=100', { token: admin.token })).body.notifications as {
        ticketId: number;
        type: string;
      }[];
      for (const id of due) {
        const ticket = await detail(id, agent);
        expect(ticket.sla?.state).toBe('breached');
        // The cancelled batches left nothing behind: one entry and one notice each.
        expect(ticket.history.filter((h) => h.type === 'sla')).toHaveLength(1);
        expect(notifications.filter((n) => n.ticketId === id && n.type === 'sla_breached')).toHaveLength(1);
      }
      // The re-apply of an edited policy (its batch of LIMITS.sla.reapplyBatch) shrinks the same way.
      const targets = { ...TARGETS, medium: { firstResponseMinutes: 90, resolutionMinutes: 300 } };
      expect((await t.api.put(`/sla/policies/${policyId}`, { name: 'Everyone', targets }, { token: admin.token })).status).toBe(200);
      await t.server.services.slaReapply.idle();
      const open = await db
        .select({ id: tickets.id })
        .from(tickets)
        .where(inArray(tickets.status, ['open', 'in_progress']));
      expect(open.length).toBeGreaterThan(over);
      for (const { id } of open) {
        const ticket = await detail(id, agent);
        if (ticket.priority === 'medium') near(ticket.sla?.resolutionDueAt, plus(ticket.createdAt, 300));
      }
    } finally {
      await undo();
      await t.api.put(`/sla/policies/${policyId}`, { name: 'Everyone', targets: TARGETS }, { token: admin.token });
      await t.server.services.slaReapply.idle();
    }
  });

  it('warns at once for a target shorter than the warning, notifying every admin of an unassigned ticket', async () => {
    const second = await insertUser(t, { role: 'admin', name: 'Second Admin' });
    const ticket = await createTicket(t.api, owner.token, { priority: 'urgent' }); // 15 < 30 minutes warning
    const [adminSocket, rootSocket, agentSocket] = await Promise.all([
      sockets.listen(t.url, second.token),
      sockets.listen(t.url, admin.token),
      sockets.listen(t.url, agent.token),
    ]);
    expect(await t.server.services.slaScan()).toBeGreaterThanOrEqual(1);
    const notice = await adminSocket.next('notification', (e) => e.notification.ticketId === ticket.id);
    expect(notice.notification.type).toBe('sla_warning');
    expect(notice.notification.excerpt).toBe(MESSAGES.sla.notificationExcerpt('first_response', 'warning', ticket.title));
    // One emit for both admins' rooms: each admin's socket gets one copy, an agent's none.
    await sentinel(t.api, admin.token, [adminSocket, rootSocket, agentSocket]);
    const about = (listener: typeof adminSocket) => listener.events.notification.filter((e) => e.notification.ticketId === ticket.id);
    expect(about(adminSocket)).toHaveLength(1);
    expect(about(rootSocket)).toEqual(about(adminSocket));
    expect(about(agentSocket)).toEqual([]);
    const rootNotices = (await t.api.get('/notifications', { token: admin.token })).body.notifications;
    expect(rootNotices.some((n: { ticketId: number; type: string }) => n.ticketId === ticket.id && n.type === 'sla_warning')).toBe(true);
    // Stored once for every admin, with no recipient of its own.
    const stored = await t.server.database.db
      .select({ userId: notificationRows.userId })
      .from(notificationRows)
      .where(and(eq(notificationRows.ticketId, ticket.id), eq(notificationRows.type, 'sla_warning')));
    expect(stored).toEqual([{ userId: null }]);
    expect((await detail(ticket.id, agent)).sla?.state).toBe('warning');
    const atRisk = (await t.api.get('/tickets?sla=warning&sort=slaDueAt&limit=100', { token: agent.token })).body.tickets;
    expect(atRisk.map((r: Ticket) => r.id)).toContain(ticket.id);
  });

  it('re-applies an edited policy to open tickets in the background', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const staffSocket = await sockets.listen(t.url, agent.token);
    const edited = await t.api.put(
      `/sla/policies/${policyId}`,
      { name: 'Everyone', targets: { ...TARGETS, medium: { firstResponseMinutes: 120, resolutionMinutes: 480 } } },
      { token: admin.token },
    );
    expect(edited.status).toBe(200);
    const event = await staffSocket.next('sla-changed', (e) => e.ticketId === ticket.id);
    await t.server.services.slaReapply.idle();
    near(event.sla?.firstResponseDueAt, plus(ticket.createdAt, 120));
    near((await detail(ticket.id, agent)).sla?.resolutionDueAt, plus(ticket.createdAt, 480));
    await t.api.put(`/sla/policies/${policyId}`, { name: 'Everyone', targets: TARGETS }, { token: admin.token });
    await t.server.services.slaReapply.idle();
  });

  it('leaves a ticket no policy covers without `sla`: null for staff', async () => {
    const ticket = await createTicket(t.api, owner.token);
    await t.api.put(`/sla/policies/${policyId}`, { name: 'Everyone', targets: TARGETS, active: false }, { token: admin.token });
    await t.server.services.slaReapply.idle();
    expect((await detail(ticket.id, agent)).sla).toBeNull();
    const fresh = await createTicket(t.api, owner.token);
    expect((await detail(fresh.id, agent)).sla).toBeNull();
    // Answered while no policy covered it: a policy chosen later finds the first response given.
    expect((await comment(fresh.id, 'Answered without a policy.', agent)).status).toBe(201);
    await t.api.put(`/sla/policies/${policyId}`, { name: 'Everyone', targets: TARGETS, active: true }, { token: admin.token });
    await t.server.services.slaReapply.idle();
    expect((await detail(ticket.id, agent)).sla?.policyId).toBe(policyId);
    expect((await detail(fresh.id, agent)).sla).toMatchObject({ policyId, firstResponseDueAt: null });
    expect((await detail(fresh.id, agent)).sla?.firstRespondedAt).not.toBeNull();
  });

  it('counts each SLA state exactly from the maintained counters, whatever moved the tickets there', async () => {
    // Every way a state moves, on top of the tickets the tests above left in each state: the scanner
    // (warning, breach), pending and back, a resolution, an assignment, a deletion, no policy at all.
    const mine = await createTicket(t.api, owner.token, { title: 'Mine, then breached' });
    expect((await put(mine.id, { assignedAgentId: agent.user.id, tags: ['vip'] })).status).toBe(200);
    await dueNow(mine.id, { slaResponseDueAt: new Date(Date.now() - 1000), slaResponseWarnedAt: new Date() });
    const warn = await createTicket(t.api, owner.token, { title: 'About to be late' });
    await dueNow(warn.id, { slaResponseWarnAt: new Date(Date.now() - 1000) });
    expect(await t.server.services.slaScan()).toBeGreaterThanOrEqual(2);
    const waiting = await createTicket(t.api, owner.token, { title: 'Waiting' });
    expect((await put(waiting.id, { status: 'pending', assignedAgentId: agent.user.id })).status).toBe(200);
    const done = await createTicket(t.api, owner.token, { title: 'Done and dusted' });
    expect((await put(done.id, { status: 'resolved' })).status).toBe(200);
    const gone = await createTicket(t.api, owner.token, { title: 'Gone for good' });
    await dueNow(gone.id, { slaResponseDueAt: new Date(Date.now() - 1000), slaResponseWarnedAt: new Date() });
    await t.server.services.slaScan();
    expect((await t.api.delete(`/tickets/${gone.id}`, { token: admin.token })).status).toBe(200);

    const db = t.server.database.db;
    const counted = async (where: SQL) => (await db.select({ n: count() }).from(tickets).where(where))[0]?.n ?? 0;
    const states = ['ok', 'warning', 'breached', 'paused'] as const;
    for (const state of states) {
      const inState = eq(tickets.slaState, state);
      const cases: [string, SQL][] = [
        ['', inState],
        ['&status=open', and(inState, eq(tickets.status, 'open'))!],
        ['&assignee=me', and(inState, eq(tickets.assignedAgentId, agent.user.id))!],
        ['&assignee=none&priority=medium', and(inState, isNull(tickets.assignedAgentId), eq(tickets.priority, 'medium'))!],
        // A tag as well: counted off the index instead, the same answer.
        ['&tag=vip', and(inState, sql`${tickets.tags} @> array['vip']::text[]`)!],
      ];
      for (const [filters, where] of cases) {
        const expected = await counted(where);
        const list = (await t.api.get(`/tickets?sla=${state}${filters}&limit=5`, { token: agent.token })).body;
        expect(list.total, `${state}${filters}`).toBe(expected);
        expect(list.totalCapped ?? false).toBe(false);
        const cards = (await t.api.get(`/tickets/stats?sla=${state}${filters}`, { token: agent.token })).body.stats;
        expect(cards.total, `stats ${state}${filters}`).toBe(expected);
        expect(cards.open, `open ${state}${filters}`).toBe(await counted(and(where, eq(tickets.status, 'open'))!));
      }
    }
    expect(await counted(eq(tickets.slaState, 'warning'))).toBeGreaterThan(0);
    expect(await counted(and(eq(tickets.slaState, 'breached'), eq(tickets.assignedAgentId, agent.user.id))!)).toBeGreaterThan(0);
    // The built-in "SLA at risk" view counts the warnings.
    const counts = (await t.api.get('/views/counts', { token: agent.token })).body.counts;
    expect(counts['-4']).toBe(await counted(eq(tickets.slaState, 'warning')));
  });
});
