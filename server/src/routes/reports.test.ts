import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type ReportSummary, type Ticket } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { moveFigureGeneration, writeFigures } from '../db/queries/reportFigures.js';
import { executedRows } from '../db/rows.js';
import { tickets } from '../db/schema/index.js';
import { figureRows } from '../reports/figureRows.js';
import type { FigureKeys, TotalCounter } from '../reports/reconcile.js';
import { todayIn } from '../reports/timeRange.js';
import { parseSettings } from '../settings.js';

const R = MESSAGES.reports;
const STAFF_ONLY = 'Only support staff can perform this action';
const ADMIN_ONLY = 'Only administrators can perform this action';
/** An assignee no account has: figures inserted straight under it stay apart from the API's. */
const GHOST = 2_000_000_000;
const HEADER =
  'id,title,status,priority,category,requester,assignee,createdAt,firstResponseAt,resolvedAt,firstResponseSeconds,resolutionSeconds,slaMet,csatRating,csatComment';

/** docs/api.md#reports over real HTTP: figures written with each change, read back per range and zone. */
describe('reports', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent, owner } = await createCast(t));
  });
  afterAll(() => ifSetUp(t)?.close());

  const get = (path: string, who: Account = agent) => t.api.get(path, { token: who.token });
  const summary = async (query = '', who: Account = agent): Promise<ReportSummary> => {
    const res = await get(`/reports/summary${query ? `?${query}` : ''}`, who);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.summary;
  };
  const put = async (id: number, body: object, who: Account = agent) => {
    const res = await t.api.put(`/tickets/${id}`, body, { token: who.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.ticket as Ticket;
  };
  const reply = async (id: number, who: Account = agent) => {
    const res = await t.api.post(`/tickets/${id}/comments`, { content: 'Looking into it.' }, { token: who.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };
  const breakdownBacklog = async (query = '') => {
    const res = await get(`/reports/breakdown${query ? `?${query}` : ''}`);
    expect(res.status).toBe(200);
    return {
      priority: Object.fromEntries(res.body.priority.map((row: { key: string; backlog: number }) => [row.key, row.backlog])),
      category: Object.fromEntries(res.body.category.map((row: { key: string; backlog: number }) => [row.key, row.backlog])),
    };
  };
  /** Figures as the writer would add them, straight to the tables: large or dated data without tickets. */
  const insertFigures = async (entries: { at: string; counter?: TotalCounter; n?: number; keys?: Partial<FigureKeys> }[]) => {
    const totals = entries.flatMap(({ at, counter = 'created', n = 1, keys }) =>
      Array.from({ length: n }, () => ({
        keys: { assigneeId: GHOST, priority: 'low', category: 'other', ...keys },
        at: new Date(at),
        counter,
        delta: 1,
      })),
    );
    await t.server.database.db.transaction(async (tx) => {
      await writeFigures(tx, [], figureRows({ totals, durations: [], backlog: [] }));
      // Hours long past change: kept figures must go, as a rebuild or a changed answer makes them.
      await moveFigureGeneration(tx);
    });
  };

  describe('figures kept with each change', () => {
    it('counts a new ticket as created and in the backlog, under its priority and category', async () => {
      const before = await summary();
      const beforeBilling = await summary('category=billing&priority=high');
      await createTicket(t.api, owner.token, { priority: 'high', category: 'billing' });
      const after = await summary();
      expect(after.created - before.created).toBe(1);
      expect(after.backlog - before.backlog).toBe(1);
      const billing = await summary('category=billing&priority=high');
      expect(billing.created - beforeBilling.created).toBe(1);
      expect(billing.backlog - beforeBilling.backlog).toBe(1);
      expect((await summary('assignee=none')).backlog).toBeGreaterThanOrEqual(1);
    });

    it('counts the first staff reply once, then resolution, reopen and re-resolution', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const before = await summary();
      await reply(ticket.id);
      await reply(ticket.id);
      const replied = await summary();
      expect(replied.firstResponse.count - before.firstResponse.count).toBe(1);
      expect(replied.firstResponse.p50).not.toBeNull();

      await put(ticket.id, { status: 'resolved' });
      const resolved = await summary();
      expect(resolved.resolved - before.resolved).toBe(1);
      expect(resolved.resolution.count - before.resolution.count).toBe(1);
      expect(resolved.backlog - before.backlog).toBe(-1);

      await put(ticket.id, { status: 'open' });
      const reopened = await summary();
      expect(reopened.reopened - before.reopened).toBe(1);
      expect(reopened.backlog - before.backlog).toBe(0);

      await put(ticket.id, { status: 'closed' });
      const again = await summary();
      expect(again.resolved - before.resolved).toBe(2);
      expect(again.resolution.count - before.resolution.count).toBe(2);
      expect(again.backlog - before.backlog).toBe(-1);
      const [metrics] = await executedRows(t.server.database.db, sql`select * from ticket_metrics where ticket_id = ${ticket.id}`);
      expect(metrics).toMatchObject({ status: 'closed', reopens: 1 });
      expect(metrics!.first_response_at).not.toBeNull();
      expect(metrics!.resolved_at).not.toBeNull();
    });

    it('counts an assignment under the new assignee and moves the backlog with the keys', async () => {
      const ticket = await createTicket(t.api, owner.token, { priority: 'low', category: 'account' });
      const before = await breakdownBacklog();
      const mineBefore = await summary('assignee=me');
      await put(ticket.id, { assignedAgentId: agent.user.id });
      const mine = await summary('assignee=me');
      expect(mine.backlog - mineBefore.backlog).toBe(1);

      await put(ticket.id, { priority: 'urgent', category: 'technical' });
      const after = await breakdownBacklog();
      expect(after.priority.low - before.priority.low).toBe(-1);
      expect(after.priority.urgent - before.priority.urgent).toBe(1);
      expect(after.category.account - before.category.account).toBe(-1);
      expect(after.category.technical - before.category.technical).toBe(1);
      // Filtered by a priority, the breakdown shows that priority alone.
      const urgent = await get('/reports/breakdown?priority=urgent');
      expect(urgent.body.priority.map((row: { key: string }) => row.key)).toEqual(['urgent']);

      const agents = await get('/reports/agents', admin);
      expect(agents.status).toBe(200);
      const row = agents.body.agents.find((a: { agent: { id: number } }) => a.agent.id === agent.user.id);
      expect(row).toMatchObject({ agent: { id: agent.user.id, name: 'Agent Smith' }, assigned: 1 });
      // Every staff account is listed, with figures or without.
      expect(agents.body.agents.map((a: { agent: { id: number } }) => a.agent.id)).toContain(admin.user.id);
    });

    it('takes a deleted ticket out of the backlog', async () => {
      const ticket = await createTicket(t.api, owner.token);
      const before = await summary();
      expect((await t.api.delete(`/tickets/${ticket.id}`, { token: owner.token })).status).toBe(200);
      const after = await summary();
      expect(after.backlog - before.backlog).toBe(-1);
      // What happened stays counted.
      expect(after.created).toBe(before.created);
    });

    it('counts a bulk resolution per ticket', async () => {
      const [a, b] = [await createTicket(t.api, owner.token), await createTicket(t.api, owner.token)];
      const before = await summary();
      const res = await t.api.post('/tickets/bulk', { ids: [a.id, b.id], changes: { status: 'resolved' } }, { token: agent.token });
      expect(res.body.updated).toHaveLength(2);
      const after = await summary();
      expect(after.resolved - before.resolved).toBe(2);
      expect(after.backlog - before.backlog).toBe(-2);
    });

    it('counts a survey answer once, and moves it when the answer changes', async () => {
      const ticket = await createTicket(t.api, owner.token);
      await put(ticket.id, { status: 'resolved' });
      const before = await summary();
      const answer = (rating: string) => t.api.post(`/tickets/${ticket.id}/csat`, { rating, comment: 'ok' }, { token: owner.token });
      expect((await answer('good')).status).toBe(200);
      const good = await summary();
      expect(good.csat.responses - before.csat.responses).toBe(1);
      expect(good.csat.good - before.csat.good).toBe(1);
      expect((await answer('bad')).status).toBe(200);
      const bad = await summary();
      expect(bad.csat.responses - before.csat.responses).toBe(1);
      expect(bad.csat.good - before.csat.good).toBe(0);
      expect(bad.csat.bad - before.csat.bad).toBe(1);
      expect(bad.csat.scorePct).toBe(Math.round((bad.csat.good / bad.csat.responses) * 1000) / 10);
    });

    it('moves an answer given days ago at its own hour, in a report already read and kept', async () => {
      const ticket = await createTicket(t.api, owner.token);
      await put(ticket.id, { status: 'resolved' });
      const answer = (rating: string) => t.api.post(`/tickets/${ticket.id}/csat`, { rating }, { token: owner.token });
      expect((await answer('good')).status).toBe(200);
      // As if it was answered three days ago: its record and its count move to that hour.
      const then = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 86_400_000);
      const { db } = t.server.database;
      const [held] = await executedRows(
        db,
        sql`update ticket_metrics set csat_at = ${then.toISOString()}::timestamptz where ticket_id = ${ticket.id}
          returning csat_assignee_id as "assigneeId", csat_priority as "priority", csat_category as "category"`,
      );
      const keys = held as unknown as FigureKeys;
      await db.transaction(async (tx) => {
        const moved = [
          { keys, at: new Date(), counter: 'csatGood' as const, delta: -1 },
          { keys, at: then, counter: 'csatGood' as const, delta: 1 },
        ];
        await writeFigures(tx, [], figureRows({ totals: moved, durations: [], backlog: [] }));
        await moveFigureGeneration(tx);
      });
      const day = then.toISOString().slice(0, 10);
      const thatDay = `from=${day}&to=${day}&tz=UTC&priority=${keys.priority}&category=${keys.category}`;
      const before = await summary(thatDay);
      expect(before.csat.good).toBeGreaterThanOrEqual(1);
      // The day has settled, so it is kept; the changed answer moves its count there and must show.
      expect((await answer('bad')).status).toBe(200);
      const after = await summary(thatDay);
      expect(after.csat.good - before.csat.good).toBe(-1);
      expect(after.csat.bad - before.csat.bad).toBe(1);
    });

    it('decides SLA targets at the reply: in time is met, after a breach mark is missed', async () => {
      const policy = await t.api.post(
        '/sla/policies',
        { name: 'Reports', targets: { medium: { firstResponseMinutes: 60, resolutionMinutes: 240 } } },
        { token: admin.token },
      );
      expect(policy.status).toBe(201);
      try {
        const [inTime, late] = [await createTicket(t.api, owner.token), await createTicket(t.api, owner.token)];
        await reply(inTime.id);
        await t.server.database.db
          .update(tickets)
          .set({
            slaResponseDueAt: new Date(Date.now() - 1000),
            slaResponseWarnedAt: new Date(),
            slaNextMarkAt: new Date(Date.now() - 1000),
          })
          .where(eq(tickets.id, late.id));
        expect(await t.server.services.slaScan()).toBeGreaterThanOrEqual(1);
        // The mark alone decides nothing: the late ticket's target counts once it is answered.
        expect((await summary()).sla.firstResponseMetPct).toBe(100);
        await reply(late.id);
        // One met of the two decided: the only targets decided in this suite.
        expect((await summary()).sla.firstResponseMetPct).toBe(50);
        const rows = await executedRows(
          t.server.database.db,
          sql`select ticket_id, sla_response_met, first_response_business_seconds from ticket_metrics where ticket_id in (${inTime.id}, ${late.id}) order by ticket_id`,
        );
        expect(rows.map((r) => r.sla_response_met)).toEqual([true, false]);
        expect(rows[0]!.first_response_business_seconds).not.toBeNull();
      } finally {
        await t.api.delete(`/sla/policies/${policy.body.policy.id}`, { token: admin.token });
      }
    });

    /** A policy for the test's own tickets, deleted after it. */
    const withPolicy = async (targets: object, run: () => Promise<void>) => {
      const policy = await t.api.post('/sla/policies', { name: 'Reports targets', targets }, { token: admin.token });
      expect(policy.status).toBe(201);
      try {
        await run();
      } finally {
        await t.api.delete(`/sla/policies/${policy.body.policy.id}`, { token: admin.token });
      }
    };
    /** The scanner marks the first response breached, as if its deadline had passed unanswered. */
    const breachFirstResponse = async (id: number) => {
      await t.server.database.db
        .update(tickets)
        .set({ slaResponseDueAt: new Date(Date.now() - 1000), slaResponseWarnedAt: new Date(), slaNextMarkAt: new Date(Date.now() - 1000) })
        .where(eq(tickets.id, id));
      expect(await t.server.services.slaScan()).toBeGreaterThanOrEqual(1);
    };
    /** Each exported ticket's `slaMet` cell, by id. */
    const csvSlaMet = async (assigneeId: number) => {
      const res = await fetch(`${t.url}/api/reports/tickets.csv?assignee=${assigneeId}`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(res.status).toBe(200);
      const lines = (await res.text())
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\n')
        .slice(1);
      return Object.fromEntries(lines.map((line) => line.split(',')).map((cells) => [Number(cells[0]), cells[12]]));
    };
    const metricsOf = async (ids: number[]) =>
      (
        await executedRows(
          t.server.database.db,
          sql`select sla_response_met, sla_resolution_met from ticket_metrics where ticket_id = any(${`{${ids.join(',')}}`}::int[]) order by ticket_id`,
        )
      ).map((row) => [row.sla_response_met, row.sla_resolution_met]);

    it('counts no target a ticket does not have, met or missed', async () => {
      const solo = await insertUser(t, { role: 'agent', name: 'Target Tess' });
      // Low has no targets; medium a first response alone.
      await withPolicy({ medium: { firstResponseMinutes: 60, resolutionMinutes: null } }, async () => {
        const none = await createTicket(t.api, owner.token, { priority: 'low', title: 'No target' });
        const inTime = await createTicket(t.api, owner.token, { title: 'Answered in time' });
        const late = await createTicket(t.api, owner.token, { title: 'Answered late' });
        for (const ticket of [none, inTime, late]) await put(ticket.id, { assignedAgentId: solo.user.id });
        await breachFirstResponse(late.id);
        for (const ticket of [none, inTime, late]) await reply(ticket.id);
        for (const ticket of [none, inTime]) await put(ticket.id, { status: 'resolved' });

        // One response met, one missed; no resolution target was ever set.
        expect((await summary(`assignee=${solo.user.id}`)).sla).toEqual({ firstResponseMetPct: 50, resolutionMetPct: null });
        const agents = (await get('/reports/agents', admin)).body.agents;
        expect(agents.find((a: { agent: { id: number } }) => a.agent.id === solo.user.id).slaMetPct).toBe(50);
        expect(await metricsOf([none.id, inTime.id, late.id])).toEqual([
          [null, null],
          [true, null],
          [false, null],
        ]);
        expect(await csvSlaMet(solo.user.id)).toEqual({ [none.id]: '', [inTime.id]: 'true', [late.id]: 'false' });
        // Without a target the ticket shows no service level, not a met one once resolved.
        expect((await get(`/tickets/${none.id}`)).body.ticket.sla).toBeNull();
      });
    });

    it('misses a breached first response at a resolution without a reply; one resolved before its deadline is not counted', async () => {
      const solo = await insertUser(t, { role: 'agent', name: 'Breach Bo' });
      await withPolicy({ medium: { firstResponseMinutes: 60, resolutionMinutes: 240 } }, async () => {
        const breached = await createTicket(t.api, owner.token, { title: 'Breached unanswered' });
        const early = await createTicket(t.api, owner.token, { title: 'Resolved early' });
        for (const ticket of [breached, early]) await put(ticket.id, { assignedAgentId: solo.user.id });
        await breachFirstResponse(breached.id);
        for (const ticket of [breached, early]) await put(ticket.id, { status: 'resolved' });

        const sla = async () => (await summary(`assignee=${solo.user.id}`)).sla;
        expect(await sla()).toEqual({ firstResponseMetPct: 0, resolutionMetPct: 100 });
        expect(await metricsOf([breached.id, early.id])).toEqual([
          [false, true],
          [null, true],
        ]);
        expect(await csvSlaMet(solo.user.id)).toEqual({ [breached.id]: 'false', [early.id]: 'true' });
        // A reply that comes after all counts as a first response, but the miss only once.
        await reply(breached.id);
        const after = await summary(`assignee=${solo.user.id}`);
        expect(after.firstResponse.count).toBe(1);
        expect(after.sla).toEqual({ firstResponseMetPct: 0, resolutionMetPct: 100 });
      });
    });
  });

  describe('reading', () => {
    it('sums day, week and month points in America/New_York across the March DST change', async () => {
      await insertFigures([
        { at: '2026-03-01T04:30:00Z' }, // Feb 28, 23:30 EST
        { at: '2026-03-01T05:30:00Z' }, // Mar 1, 00:30 EST
        { at: '2026-03-08T04:30:00Z' }, // Mar 7, 23:30 EST
        { at: '2026-03-09T03:30:00Z' }, // Mar 8, 23:30 EDT: that day had 23 hours
        { at: '2026-03-09T04:30:00Z', n: 2 }, // Mar 9, 00:30 EDT
        { at: '2026-03-09T04:30:00Z', counter: 'resolved' },
      ]);
      const series = async (query: string) => {
        const res = await get(`/reports/timeseries?assignee=${GHOST}&tz=America/New_York&${query}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body;
      };
      const days = await series('from=2026-03-07&to=2026-03-09');
      expect(days.interval).toBe('day');
      expect(days.points.map((p: { start: string; created: number }) => [p.start, p.created])).toEqual([
        ['2026-03-07', 1],
        ['2026-03-08', 1],
        ['2026-03-09', 2],
      ]);
      expect(days.points[2]).toMatchObject({ resolved: 1, reopened: 0, firstResponseP50: null, csatScorePct: null });
      const weeks = await series('from=2026-02-28&to=2026-03-09&interval=week');
      expect(weeks.points.map((p: { start: string; created: number }) => [p.start, p.created])).toEqual([
        ['2026-02-28', 2],
        ['2026-03-02', 2],
        ['2026-03-09', 2],
      ]);
      const months = await series('from=2026-02-28&to=2026-03-09&interval=month');
      expect(months.points.map((p: { start: string; created: number }) => [p.start, p.created])).toEqual([
        ['2026-02-28', 1],
        ['2026-03-01', 5],
      ]);
      const whole = await summary(`assignee=${GHOST}&tz=America/New_York&from=2026-03-08&to=2026-03-08`);
      expect(whole.created).toBe(1);
      // In UTC the same hours fall on other days.
      expect((await summary(`assignee=${GHOST}&tz=UTC&from=2026-03-09&to=2026-03-09`)).created).toBe(3);
    });

    it('reads a month in a zone off the UTC month row, plus and less the hours between', async () => {
      // In 2024, apart from the other tests' figures of the same assignee.
      await insertFigures([
        { at: '2024-01-31T16:00:00Z' }, // Feb 1, 01:00 in Tokyo; Jan 31 in New York
        { at: '2024-02-01T02:00:00Z' }, // Jan 31, 21:00 in New York
        { at: '2024-02-01T06:00:00Z' }, // Feb 1 in both
        { at: '2024-02-29T16:00:00Z' }, // Mar 1, 01:00 in Tokyo; Feb 29 in New York
        { at: '2024-03-01T03:00:00Z' }, // Feb 29, 22:00 in New York; Mar 1 in Tokyo
        { at: '2024-03-01T05:30:00Z' }, // Mar 1 in both
      ]);
      const created = async (tz: string) => {
        const res = await get(`/reports/timeseries?assignee=${GHOST}&tz=${tz}&from=2024-01-01&to=2024-03-31&interval=month`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body.points.map((p: { start: string; created: number }) => [p.start, p.created]);
      };
      expect(await created('America/New_York')).toEqual([
        ['2024-01-01', 2],
        ['2024-02-01', 3],
        ['2024-03-01', 1],
      ]);
      expect(await created('Asia/Tokyo')).toEqual([
        ['2024-01-01', 0],
        ['2024-02-01', 3],
        ['2024-03-01', 3],
      ]);
      expect(await created('UTC')).toEqual([
        ['2024-01-01', 1],
        ['2024-02-01', 3],
        ['2024-03-01', 2],
      ]);
    });

    it('cuts Asia/Kolkata days (UTC+5:30) at the nearest hour', async () => {
      await insertFigures([
        { at: '2026-01-09T18:00:00Z', keys: { category: 'billing' } }, // Jan 9, 23:30 IST
        { at: '2026-01-09T19:00:00Z', keys: { category: 'billing' } }, // Jan 10, 00:30 IST
        { at: '2026-01-10T20:00:00Z', keys: { category: 'billing' } }, // Jan 11, 01:30 IST
      ]);
      const res = await get(`/reports/timeseries?assignee=${GHOST}&category=billing&tz=Asia/Kolkata&from=2026-01-09&to=2026-01-11`);
      expect(res.body.points.map((p: { created: number }) => p.created)).toEqual([1, 1, 1]);
    });

    it('reads a year by its month rows and the days and hours at its edges, whatever the mix', async () => {
      const hours = Array.from({ length: 24 * 20 }, (_, i) => ({
        at: new Date(Date.UTC(2025, 5, 1) + i * 3_600_000).toISOString(),
        keys: { priority: 'urgent' },
      }));
      await insertFigures(hours);
      const year = await summary(`assignee=${GHOST}&priority=urgent&tz=Europe/Berlin&from=2025-01-01&to=2025-12-31`);
      expect(year.created).toBe(480);
      // June 1 in Berlin starts at 22:00 UTC on May 31: 2 hours of June 1 UTC fall on June 2 in Berlin.
      const first = await summary(`assignee=${GHOST}&priority=urgent&tz=Europe/Berlin&from=2025-06-01&to=2025-06-01`);
      expect(first.created).toBe(22);
      const weeks = await get(`/reports/timeseries?assignee=${GHOST}&priority=urgent&tz=Europe/Berlin&from=2025-01-01&to=2025-12-31`);
      expect(weeks.body.interval).toBe('week');
      expect(weeks.body.points[0].start).toBe('2025-01-01');
      expect(weeks.body.points[1].start).toBe('2025-01-06');
      expect(weeks.body.points.reduce((sum: number, p: { created: number }) => sum + p.created, 0)).toBe(480);
    });

    it('answers the backlog by age now, whatever the range', async () => {
      const hour = (daysAgo: number) => new Date(Math.floor((Date.now() - daysAgo * 86_400_000) / 3_600_000) * 3_600_000);
      const rows = [
        { createdAt: hour(0.2), status: 'open' },
        { createdAt: hour(2), status: 'pending' },
        { createdAt: hour(5), status: 'in_progress' },
        { createdAt: hour(10), status: 'open' },
        { createdAt: hour(40), status: 'open' },
        { createdAt: hour(400), status: 'open' },
      ] as const;
      // Tickets of a new agent's, created back then (the counters hold them), and their figures as
      // the writer kept them.
      const assignee = await insertUser(t, { role: 'agent' });
      const { db } = t.server.database;
      await db.insert(tickets).values(
        rows.map((row, i) => ({
          title: `Waiting ${i}`,
          description: 'Still waiting on this one',
          priority: 'high' as const,
          status: row.status,
          userId: owner.user.id,
          assignedAgentId: assignee.user.id,
          createdAt: row.createdAt,
        })),
      );
      await db.transaction((tx) =>
        writeFigures(
          tx,
          [],
          figureRows({
            totals: [],
            durations: [],
            backlog: rows.map((row) => ({
              ...row,
              keys: { assigneeId: assignee.user.id, priority: 'high', category: 'general' },
              delta: 1,
            })),
          }),
        ),
      );
      const res = await get(`/reports/backlog?assignee=${assignee.user.id}&priority=high&from=2020-01-01&to=2020-01-02`);
      expect(res.body).toEqual({
        success: true,
        buckets: [
          { label: '<1d', open: 1, in_progress: 0, pending: 0 },
          { label: '1-3d', open: 0, in_progress: 0, pending: 1 },
          { label: '3-7d', open: 0, in_progress: 1, pending: 0 },
          { label: '7-30d', open: 1, in_progress: 0, pending: 0 },
          { label: '>30d', open: 2, in_progress: 0, pending: 0 },
        ],
      });
    });

    it('counts the summary backlog off the ticket counters, as many as the age buckets hold', async () => {
      await createTicket(t.api, owner.token, { priority: 'urgent', category: 'account' });
      // Under filters no other test's hand-written figures fall in: these hold real tickets only.
      for (const filters of ['category=account&priority=urgent', 'assignee=none&category=account&priority=urgent']) {
        const res = await get(`/reports/backlog?${filters}`);
        const buckets = res.body.buckets as { open: number; in_progress: number; pending: number }[];
        const held = buckets.reduce((sum, b) => sum + b.open + b.in_progress + b.pending, 0);
        expect(held).toBeGreaterThan(0);
        expect((await summary(filters)).backlog).toBe(held);
      }
    });

    it('answers percentiles from the summed histograms', async () => {
      const ticketTimes = [10, 10, 10, 100];
      const durations = ticketTimes.map((seconds) => ({
        keys: { assigneeId: GHOST, priority: 'medium', category: 'account' },
        at: new Date('2024-05-05T10:00:00Z'),
        kind: 2,
        bucket: 0,
        delta: 1,
        seconds,
      }));
      const { durationBucket } = await import('../reports/durationBuckets.js');
      await t.server.database.db.transaction((tx) =>
        writeFigures(
          tx,
          [],
          figureRows({
            totals: durations.map(({ keys, at }) => ({ keys, at, counter: 'resolutions' as const, delta: 1 })),
            durations: durations.map((d) => ({ ...d, bucket: durationBucket(d.seconds) })),
            backlog: [],
          }),
        ),
      );
      const figures = await summary(`assignee=${GHOST}&category=account&from=2024-05-05&to=2024-05-05`);
      // 100 s falls in the bucket [98, 108): its midpoint, within 5 %.
      expect(figures.resolution).toEqual({ count: 4, p50: 10, p90: 103 });
    });
  });

  describe('refusals', () => {
    it('answers the texts of bad input word for word', async () => {
      const cases: [string, string][] = [
        ['from=2025-01-01&to=2026-01-05', R.rangeTooLong],
        ['from=2026-02-10&to=2026-02-01', R.startAfterEnd],
        ['tz=Mars/Olympus', MESSAGES.sla.timeZoneInvalid],
        ['from=2026-02-30', R.dateInvalid],
        ['interval=year', R.intervalInvalid],
      ];
      for (const [query, message] of cases) {
        const res = await get(`/reports/summary?${query}`);
        expect([query, res.status, res.body]).toEqual([query, 400, expect.objectContaining({ success: false, message })]);
      }
      // Days over 92 days are a time series' limit; the other reports have no interval to refuse.
      const daily = 'from=2026-01-01&to=2026-04-30&interval=day';
      const series = await get(`/reports/timeseries?${daily}`);
      expect([series.status, series.body]).toEqual([400, expect.objectContaining({ success: false, message: R.dailyTooLong })]);
      for (const path of ['summary', 'backlog', 'breakdown', 'agents', 'tickets.csv'])
        expect([path, (await get(`/reports/${path}?${daily}`, admin)).status]).toEqual([path, 200]);
      expect(R.rangeTooLong).toBe('The date range can be at most 366 days');
      expect(R.startAfterEnd).toBe('The start date must be before the end date');
      expect(R.dailyTooLong).toBe('Use a weekly or monthly interval for ranges over 92 days');
    });

    it('lets staff alone read reports, and admins alone the agents and the export', async () => {
      for (const path of ['summary', 'timeseries', 'backlog', 'breakdown', 'agents', 'tickets.csv']) {
        const res = await get(`/reports/${path}`, owner);
        expect([path, res.status, res.body.message]).toEqual([path, 403, STAFF_ONLY]);
      }
      for (const path of ['agents', 'tickets.csv']) {
        const res = await get(`/reports/${path}`, agent);
        expect([path, res.status, res.body.message]).toEqual([path, 403, ADMIN_ONLY]);
      }
    });
  });

  describe('the CSV export', () => {
    it('streams UTF-8 with a BOM, the exact header, and escapes formulas', async () => {
      const other = await insertUser(t, { role: 'agent', name: 'Exporting Erin' });
      const ticket = await createTicket(t.api, owner.token, { title: '=HYPERLINK("http://evil.example","click")', category: 'other' });
      await put(ticket.id, { assignedAgentId: other.user.id, status: 'resolved' });
      const res = await fetch(`${t.url}/api/reports/tickets.csv?assignee=${other.user.id}`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(
        /^attachment; filename="tickets-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(res.headers.get('content-length')).toBeNull();
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = new TextDecoder().decode(bytes.slice(3)).trimEnd().split('\n');
      expect(lines[0]).toBe(HEADER);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(
        `${ticket.id},"'=HYPERLINK(""http://evil.example"",""click"")",resolved,medium,other,Owner Olive,Exporting Erin,`,
      );
    });

    it('answers a range ending on the last day of year 9999 with the header alone', async () => {
      for (const query of ['from=9999-12-01&to=9999-12-31', 'to=9999-12-31&tz=Pacific/Kiritimati']) {
        const res = await fetch(`${t.url}/api/reports/tickets.csv?${query}`, { headers: { authorization: `Bearer ${admin.token}` } });
        expect(res.status, query).toBe(200);
        expect(new TextDecoder().decode((await res.arrayBuffer()).slice(3)).trimEnd(), query).toBe(HEADER);
      }
    });

    it('reads in keyset batches: every ticket of the range once, in creation order', async () => {
      const { ticketsCsv } = await import('../reports/ticketsCsv.js');
      const made = [];
      for (let i = 0; i < 5; i++)
        made.push(await createTicket(t.api, owner.token, { title: `Batch ${i}`, priority: 'low', category: 'account' }));
      const stream = ticketsCsv(
        t.server.database.db,
        { assigneeId: 0, priority: 'low', category: 'account' },
        { lo: new Date(Date.now() - 3_600_000), hi: new Date(Date.now() + 3_600_000) },
        { batch: 2 },
      );
      let text = '';
      for await (const chunk of stream as AsyncIterable<Buffer>) text += chunk.toString();
      const ids = text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => Number(line.split(',')[0]));
      expect(ids.slice(-5)).toEqual(made.map((ticket) => ticket.id));
      expect(new Set(ids).size).toBe(ids.length);
    });
  });

  it('checks REPORT_TIME_ZONE at start, UTC unless set', () => {
    expect(parseSettings({}).reportTimeZone).toBe('UTC');
    expect(parseSettings({ REPORT_TIME_ZONE: 'Europe/Berlin' }).reportTimeZone).toBe('Europe/Berlin');
    expect(() => parseSettings({ REPORT_TIME_ZONE: 'Mars/Olympus' })).toThrow('REPORT_TIME_ZONE: must be an IANA time zone');
  });

  it('takes today in the report time zone', () => {
    expect(todayIn('UTC', new Date('2026-03-01T02:00:00Z'))).toBe('2026-03-01');
    expect(todayIn('America/New_York', new Date('2026-03-01T02:00:00Z'))).toBe('2026-02-28');
  });
});

/** report_rebuild() counts from the history what the writer counted as it happened. */
describe('report_rebuild()', () => {
  let t: TestServer;
  let admin: Account, agent: Account, owner: Account;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent, owner } = await createCast(t));
  });
  afterAll(() => ifSetUp(t)?.close());

  const snapshot = async () => {
    const { db } = t.server.database;
    return {
      metrics: await executedRows(db, sql`select * from ticket_metrics order by ticket_id`),
      totals: await executedRows(db, sql`select * from report_totals order by assignee_id, priority, category, span, at`),
      durations: await executedRows(
        db,
        sql`select * from report_durations where n <> 0 order by assignee_id, priority, category, span, at, kind, bucket`,
      ),
      backlog: await executedRows(
        db,
        sql`select * from report_backlog where n <> 0 order by assignee_id, priority, category, created_hour, status`,
      ),
    };
  };

  it('matches the figures written with each change, for a scenario without key changes', async () => {
    const put = (id: number, body: object) => t.api.put(`/tickets/${id}`, body, { token: agent.token });
    const a = await createTicket(t.api, owner.token, { priority: 'high', category: 'billing' });
    const b = await createTicket(t.api, owner.token);
    await createTicket(t.api, owner.token, { priority: 'low' });
    await t.api.post(`/tickets/${a.id}/comments`, { content: 'On it' }, { token: agent.token });
    expect((await put(a.id, { status: 'resolved' })).status).toBe(200);
    expect((await put(a.id, { status: 'open' })).status).toBe(200);
    expect((await put(a.id, { status: 'resolved' })).status).toBe(200);
    expect((await put(b.id, { status: 'pending' })).status).toBe(200);
    expect((await t.api.post(`/tickets/${a.id}/csat`, { rating: 'neutral' }, { token: owner.token })).status).toBe(200);

    const written = await snapshot();
    expect(written.metrics).toHaveLength(3);
    expect(written.totals.length).toBeGreaterThan(0);
    await t.server.database.db.execute(sql`select report_rebuild()`);
    expect(await snapshot()).toEqual(written);
  });

  it('decides SLA targets as the writer does: none without a target, a breach resolved unanswered missed', async () => {
    const put = (id: number, body: object) => t.api.put(`/tickets/${id}`, body, { token: agent.token });
    const reply = (id: number) => t.api.post(`/tickets/${id}/comments`, { content: 'On it' }, { token: agent.token });
    const targets = {
      medium: { firstResponseMinutes: 60, resolutionMinutes: 240 },
      high: { firstResponseMinutes: 30, resolutionMinutes: null },
    };
    const policy = await t.api.post('/sla/policies', { name: 'Rebuild', targets }, { token: admin.token });
    expect(policy.status).toBe(201);
    try {
      const none = await createTicket(t.api, owner.token, { priority: 'low' });
      const answered = await createTicket(t.api, owner.token, { priority: 'high' });
      const breached = await createTicket(t.api, owner.token);
      const early = await createTicket(t.api, owner.token);
      await t.server.database.db
        .update(tickets)
        .set({ slaResponseDueAt: new Date(Date.now() - 1000), slaResponseWarnedAt: new Date(), slaNextMarkAt: new Date(Date.now() - 1000) })
        .where(eq(tickets.id, breached.id));
      expect(await t.server.services.slaScan()).toBeGreaterThanOrEqual(1);
      for (const ticket of [none, answered]) expect((await reply(ticket.id)).status).toBe(201);
      for (const ticket of [none, answered, breached, early]) expect((await put(ticket.id, { status: 'resolved' })).status).toBe(200);
      expect((await reply(breached.id)).status).toBe(201);

      const written = await snapshot();
      const outcomes = (id: number) => written.metrics.find((row) => row.ticket_id === id);
      expect([none, answered, breached, early].map((ticket) => outcomes(ticket.id))).toEqual([
        expect.objectContaining({ sla_response_met: null, sla_resolution_met: null }),
        expect.objectContaining({ sla_response_met: true, sla_resolution_met: null }),
        expect.objectContaining({ sla_response_met: false, sla_resolution_met: true }),
        expect.objectContaining({ sla_response_met: null, sla_resolution_met: true }),
      ]);
      await t.server.database.db.execute(sql`select report_rebuild()`);
      expect(await snapshot()).toEqual(written);
    } finally {
      await t.api.delete(`/sla/policies/${policy.body.policy.id}`, { token: admin.token });
    }
  });
});
