import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type SlaPolicy } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, signUp, uniqueEmail, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { choosePolicy } from '../services/sla/choosePolicy.js';

const S = MESSAGES.sla;
const weekdays = [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' }));
const calendarBody = (extra: object = {}) => ({ name: 'Berlin office', timeZone: 'Europe/Berlin', hours: weekdays, ...extra });
const policyBody = (extra: object = {}) => ({
  name: 'Standard',
  targets: { urgent: { firstResponseMinutes: 60, resolutionMinutes: 480 } },
  ...extra,
});

/** docs/api.md#service-levels over real HTTP: calendars, policies, their order and their limits. */
describe('SLA calendars and policies', () => {
  let t: TestServer;
  let admin: Account, agent: Account;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
    ({ admin, agent } = await createCast(t));
  });
  afterAll(() => ifSetUp(t)?.close());

  const post = (path: string, body: unknown) => t.api.post(path, body, { token: admin.token });

  it('creates, reads, replaces and deletes a calendar; staff read it', async () => {
    const created = await post('/sla/calendars', calendarBody({ holidays: [{ date: '2026-12-25', name: 'Christmas' }] }));
    expect(created.status).toBe(201);
    const { id } = created.body.calendar;
    expect(created.body.calendar).toEqual({ id, ...calendarBody(), holidays: [{ date: '2026-12-25', name: 'Christmas' }] });

    const read = await t.api.get(`/sla/calendars/${id}`, { token: agent.token });
    expect(read.body).toEqual({ success: true, calendar: created.body.calendar });

    const replaced = await t.api.put(`/sla/calendars/${id}`, calendarBody({ name: 'Renamed', timeZone: 'America/New_York' }), {
      token: admin.token,
    });
    expect(replaced.body.calendar).toMatchObject({ name: 'Renamed', timeZone: 'America/New_York', holidays: [] });

    const deleted = await t.api.delete(`/sla/calendars/${id}`, { token: admin.token });
    expect(deleted.body).toEqual({ success: true, message: S.calendarDeleted });
    const gone = await t.api.get(`/sla/calendars/${id}`, { token: agent.token });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(S.calendarNotFound);
  });

  it('refuses to delete a calendar a policy uses (409) and a policy naming a missing calendar (400)', async () => {
    const calendar = (await post('/sla/calendars', calendarBody())).body.calendar;
    const policy = (await post('/sla/policies', policyBody({ calendarId: calendar.id }))).body.policy;
    const inUse = await t.api.delete(`/sla/calendars/${calendar.id}`, { token: admin.token });
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toBe(S.calendarInUse);

    const missing = await post('/sla/policies', policyBody({ calendarId: 999_999 }));
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(S.calendarIdInvalid);

    await t.api.delete(`/sla/policies/${policy.id}`, { token: admin.token });
    expect((await t.api.delete(`/sla/calendars/${calendar.id}`, { token: admin.token })).status).toBe(200);
  });

  it('deletes a policy in use: gone from every answer, its done tickets keep it, the rest move on', async () => {
    const calendar = (await post('/sla/calendars', calendarBody())).body.calendar;
    const domain = `gone-${Date.now()}.example`;
    const policy = (await post('/sla/policies', policyBody({ name: 'Retired', calendarId: calendar.id, requesterDomains: [domain] }))).body
      .policy as SlaPolicy;
    const owner = await signUp(t.api, { email: uniqueEmail('owner').replace(/@.*/, `@${domain}`) });
    // Urgent: the priority the policy sets targets for (under no target a ticket has no `sla`).
    const [working, done] = [
      await createTicket(t.api, owner.token, { priority: 'urgent' }),
      await createTicket(t.api, owner.token, { priority: 'urgent' }),
    ];
    const slaOf = async (id: number) => (await t.api.get(`/tickets/${id}`, { token: agent.token })).body.ticket.sla;
    expect((await slaOf(working.id)).policyId).toBe(policy.id);
    expect((await t.api.put(`/tickets/${done.id}`, { status: 'resolved' }, { token: agent.token })).status).toBe(200);

    const deleted = await t.api.delete(`/sla/policies/${policy.id}`, { token: admin.token });
    expect(deleted.body).toEqual({ success: true, message: S.policyDeleted });
    expect((await t.api.get(`/sla/policies/${policy.id}`, { token: agent.token })).status).toBe(404);
    expect((await t.api.delete(`/sla/policies/${policy.id}`, { token: admin.token })).status).toBe(404);
    expect((await t.api.put(`/sla/policies/${policy.id}`, policyBody(), { token: admin.token })).status).toBe(404);
    const left = (await t.api.get('/sla/policies', { token: agent.token })).body.policies as SlaPolicy[];
    expect(left.map((p) => p.id)).not.toContain(policy.id);
    // The order is of the policies left, and a new one goes after them.
    expect((await t.api.put('/sla/policies/order', { ids: left.map((p) => p.id) }, { token: admin.token })).status).toBe(200);

    await t.server.services.slaReapply.idle();
    // The ticket still being worked falls under whatever covers its owner now; the done one keeps
    // the policy that timed it.
    expect((await slaOf(working.id))?.policyId ?? null).not.toBe(policy.id);
    expect((await slaOf(done.id)).policyId).toBe(policy.id);
    // A deleted policy holds its calendar no longer.
    expect((await t.api.delete(`/sla/calendars/${calendar.id}`, { token: admin.token })).status).toBe(200);
  });

  it('answers the texts of bad input word for word', async () => {
    const cases: [string, unknown, string][] = [
      ['/sla/calendars', calendarBody({ timeZone: 'Berlin' }), 'Time zone must be an IANA time zone such as Europe/Berlin'],
      [
        '/sla/calendars',
        calendarBody({ hours: [{ day: 1, start: '17:00', end: '09:00' }] }),
        'Opening hours must be HH:MM-HH:MM with the end after the start',
      ],
      [
        '/sla/calendars',
        calendarBody({
          hours: [
            { day: 1, start: '09:00', end: '13:00' },
            { day: 1, start: '12:00', end: '17:00' },
          ],
        }),
        'Opening hours of one day must not overlap',
      ],
      ['/sla/calendars', calendarBody({ holidays: [{ date: '2026-13-01', name: 'x' }] }), 'Holiday dates must be YYYY-MM-DD'],
      ['/sla/calendars', calendarBody({ hours: [] }), 'A calendar needs opening hours on at least one day'],
      [
        '/sla/policies',
        policyBody({ targets: { low: { firstResponseMinutes: 120, resolutionMinutes: 60 } } }),
        'The resolution target must not be shorter than the first response target',
      ],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(path, body);
      expect({ path, status: res.status, message: res.body.message }).toEqual({ path, status: 400, message });
    }
  });

  it('puts new policies last and reorders them; an order that is not every id once is refused', async () => {
    const before = (await t.api.get('/sla/policies', { token: agent.token })).body.policies as SlaPolicy[];
    const a = (await post('/sla/policies', policyBody({ name: 'A' }))).body.policy as SlaPolicy;
    const b = (await post('/sla/policies', policyBody({ name: 'B', requesterDomains: ['Example.com'] }))).body.policy as SlaPolicy;
    expect(b.position).toBeGreaterThan(a.position);
    expect(b).toMatchObject({ calendarId: null, requesterDomains: ['example.com'], warnBeforeMinutes: 30, active: true });

    const ids = [b.id, a.id, ...before.map((p) => p.id)];
    const reordered = await t.api.put('/sla/policies/order', { ids }, { token: admin.token });
    expect(reordered.status).toBe(200);
    expect((reordered.body.policies as SlaPolicy[]).map((p) => p.id)).toEqual(ids);
    expect((reordered.body.policies as SlaPolicy[]).map((p) => p.position)).toEqual(ids.map((_, i) => i + 1));

    const partial = await t.api.put('/sla/policies/order', { ids: [a.id] }, { token: admin.token });
    expect(partial.status).toBe(400);
    expect(partial.body.message).toBe(S.orderInvalid);

    // The first active policy whose domains hold the requester's, else the first without domains.
    const policies = reordered.body.policies as SlaPolicy[];
    expect(choosePolicy(policies, 'ann@EXAMPLE.com')?.id).toBe(b.id);
    expect(choosePolicy(policies, 'bob@elsewhere.org')?.id).toBe(a.id);
    expect(
      choosePolicy(
        policies.map((p) => ({ ...p, active: p.id !== b.id })),
        'ann@example.com',
      )?.id,
    ).toBe(a.id);
    expect(choosePolicy([{ ...b }], 'bob@elsewhere.org')).toBeUndefined();
  });

  it('holds at most 20 calendars, even when created at once', async () => {
    const existing = (await t.api.get('/sla/calendars', { token: admin.token })).body.calendars.length as number;
    const results = await Promise.all(
      Array.from({ length: 22 - existing }, (_, i) => post('/sla/calendars', calendarBody({ name: `Cal ${i}` }))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(20 - existing);
    const refused = results.filter((r) => r.status === 400);
    expect(refused).toHaveLength(2);
    expect(refused[0]?.body.message).toBe(S.tooManyCalendars(20));
    expect((await t.api.get('/sla/calendars', { token: admin.token })).body.calendars).toHaveLength(20);
  });
});
