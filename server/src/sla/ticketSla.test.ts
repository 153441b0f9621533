import { describe, expect, it } from 'vitest';
import type { BusinessCalendar } from './businessTime.js';
import { nextSlaColumns, NO_SLA, presentSla, type AppliedPolicy } from './ticketSla.js';

const berlin: BusinessCalendar = {
  timeZone: 'Europe/Berlin',
  hours: [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' })),
  holidays: [],
};
const none = { firstResponseMinutes: null, resolutionMinutes: null };
const policy = (extra: Partial<AppliedPolicy> = {}): AppliedPolicy => ({
  id: 7,
  targets: {
    low: none,
    medium: { firstResponseMinutes: 60, resolutionMinutes: 240 },
    high: none,
    urgent: { firstResponseMinutes: 10, resolutionMinutes: 60 },
  },
  warnBeforeMinutes: 30,
  calendar: null,
  ...extra,
});
const at = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;
const open = { status: 'open', priority: 'medium' } as const;
const start = (when = '2026-03-02T10:00:00Z', p = policy()) => nextSlaColumns(NO_SLA, open, p, { start: true }, at(when));

describe('a ticket’s SLA columns', () => {
  it('start with the deadlines of the policy and priority, the earliest first in line for the scanner and the sort', () => {
    const columns = start();
    expect(iso(columns.slaResponseDueAt)).toBe('2026-03-02T11:00:00.000Z');
    expect(iso(columns.slaResolutionDueAt)).toBe('2026-03-02T14:00:00.000Z');
    expect(iso(columns.slaNextMarkAt)).toBe('2026-03-02T10:30:00.000Z'); // the first-response warning
    expect(iso(columns.slaDueAt)).toBe('2026-03-02T11:00:00.000Z');
    expect(columns.slaState).toBe('ok');
    expect(presentSla(columns)).toEqual({
      policyId: 7,
      firstResponseDueAt: '2026-03-02T11:00:00.000Z',
      resolutionDueAt: '2026-03-02T14:00:00.000Z',
      firstRespondedAt: null,
      state: 'ok',
    });
  });

  it('stand still while pending: two hours waiting on the customer move the resolution deadline two hours', () => {
    const responded = nextSlaColumns(start(), open, policy(), { respond: true }, at('2026-03-02T10:20:00Z'));
    expect(iso(responded.slaResponseDueAt)).toBeNull();
    const paused = nextSlaColumns(responded, { ...open, status: 'pending' }, policy(), {}, at('2026-03-02T11:00:00Z'));
    expect(paused.slaState).toBe('paused');
    expect(paused.slaDueAt).toBeNull();
    expect(paused.slaResolutionDueAt).toBeNull();
    expect(paused.slaUsedMs).toBe(60 * 60_000);
    const resumed = nextSlaColumns(paused, open, policy(), {}, at('2026-03-02T13:00:00Z'));
    expect(iso(resumed.slaResolutionDueAt)).toBe('2026-03-02T16:00:00.000Z');
    expect(resumed.slaState).toBe('ok');
  });

  it('count business hours only, on the calendar of the policy', () => {
    const columns = start('2026-01-16T15:30:00Z', policy({ calendar: berlin })); // Friday 16:30 CET
    expect(iso(columns.slaResponseDueAt)).toBe('2026-01-19T08:30:00.000Z'); // Monday 09:30 CET
  });

  it('keep a deadline that passed before the clock stopped, so the scanner still marks the breach', () => {
    const late = nextSlaColumns(start(), { ...open, status: 'resolved' }, policy(), {}, at('2026-03-02T15:00:00Z'));
    expect(iso(late.slaResolutionDueAt)).toBe('2026-03-02T14:00:00.000Z');
    expect(iso(late.slaNextMarkAt)).toBe('2026-03-02T10:30:00.000Z');
    expect(late.slaDueAt).toBeNull();
    expect(late.slaState).toBe('met');
    const inTime = nextSlaColumns(start(), { ...open, status: 'resolved' }, policy(), { respond: true }, at('2026-03-02T10:10:00Z'));
    expect([inTime.slaResponseDueAt, inTime.slaResolutionDueAt, inTime.slaNextMarkAt]).toEqual([null, null, null]);
  });

  it('warn at once for a target shorter than the warning, and never with a warning of 0 minutes', () => {
    const urgent = nextSlaColumns(NO_SLA, { status: 'open', priority: 'urgent' }, policy(), { start: true }, at('2026-03-02T10:00:00Z'));
    expect(iso(urgent.slaResponseWarnAt)).toBe('2026-03-02T10:00:00.000Z');
    const quiet = nextSlaColumns(NO_SLA, open, policy({ warnBeforeMinutes: 0 }), { start: true }, at('2026-03-02T10:00:00Z'));
    expect([quiet.slaResponseWarnAt, quiet.slaResolutionWarnAt]).toEqual([null, null]);
    expect(iso(quiet.slaNextMarkAt)).toBe('2026-03-02T11:00:00.000Z');
  });

  it('re-target on a priority change from the time already used; a breach stays, a warning of a later deadline goes', () => {
    const warned = { ...start(), slaResponseWarnedAt: at('2026-03-02T10:30:00Z'), slaState: 'warning' as const };
    const lowered = nextSlaColumns(warned, { status: 'open', priority: 'low' }, policy(), {}, at('2026-03-02T10:40:00Z'));
    expect(lowered.slaResponseDueAt).toBeNull(); // low has no targets
    expect(lowered.slaResponseWarnedAt).toBeNull();
    expect(lowered.slaState).toBeNull();
    const breached = { ...start(), slaResponseBreachedAt: at('2026-03-02T11:00:00Z') };
    expect(nextSlaColumns(breached, { status: 'open', priority: 'low' }, policy(), {}, at('2026-03-02T11:05:00Z')).slaState).toBe(
      'breached',
    );
    const raised = nextSlaColumns(breached, { status: 'open', priority: 'urgent' }, policy(), {}, at('2026-03-02T11:05:00Z'));
    expect(raised.slaState).toBe('breached');
    // Urgent's 60 minutes from the start: already past, so the scanner marks it next.
    expect(iso(raised.slaResolutionDueAt)).toBe('2026-03-02T11:00:00.000Z');
    expect(iso(raised.slaNextMarkAt)).toBe('2026-03-02T10:00:00.000Z'); // urgent's 10-minute target warns at once
  });

  it('give no state under a policy without a target for the priority: nothing to meet, not met once resolved', () => {
    const low = { status: 'open' as const, priority: 'low' as const };
    const opened = nextSlaColumns(NO_SLA, low, policy(), { start: true }, at('2026-03-02T10:00:00Z'));
    expect([opened.slaPolicyId, opened.slaState, presentSla(opened)]).toEqual([7, null, null]);
    const resolved = nextSlaColumns(opened, { ...low, status: 'resolved' }, policy(), {}, at('2026-03-02T11:00:00Z'));
    expect([resolved.slaState, presentSla(resolved)]).toEqual([null, null]);
    expect(resolved.slaUsedMs).toBe(3_600_000); // the clock still counts, for a target a re-prioritisation brings
  });

  it('are empty without a policy, and the clock keeps running for one chosen later', () => {
    const columns = nextSlaColumns(NO_SLA, open, null, { start: true }, at('2026-03-02T10:00:00Z'));
    expect(presentSla(columns)).toBeNull();
    expect(iso(columns.slaRunningSince)).toBe('2026-03-02T10:00:00.000Z');
    const chosen = nextSlaColumns(columns, open, policy(), {}, at('2026-03-02T10:30:00Z'));
    expect(iso(chosen.slaResponseDueAt)).toBe('2026-03-02T11:00:00.000Z');
  });
});
