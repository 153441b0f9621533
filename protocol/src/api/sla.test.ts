import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import { calendarBody, isTimeZone, policyBody, policyOrderBody, slaDueAtOf } from './sla.js';

const S = MESSAGES.sla;
const firstError = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;
const weekdays = [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' }));
const calendar = (extra: object = {}) => ({ name: 'Berlin office', timeZone: 'Europe/Berlin', hours: weekdays, ...extra });

describe('calendarBody', () => {
  it('takes a calendar with holidays and an interval to 24:00', () => {
    const parsed = calendarBody.parse(
      calendar({ hours: [...weekdays, { day: 6, start: '20:00', end: '24:00' }], holidays: [{ date: '2026-12-25', name: 'Christmas' }] }),
    );
    expect(parsed.holidays).toHaveLength(1);
    expect(calendarBody.parse(calendar()).holidays).toEqual([]);
  });

  it.each([
    ['an unknown zone', calendar({ timeZone: 'Mars/Olympus' }), S.timeZoneInvalid],
    ['an offset instead of a zone', calendar({ timeZone: '+01:00' }), S.timeZoneInvalid],
    ['an end before the start', calendar({ hours: [{ day: 1, start: '17:00', end: '09:00' }] }), S.hoursInvalid],
    ['an empty interval', calendar({ hours: [{ day: 1, start: '09:00', end: '09:00' }] }), S.hoursInvalid],
    ['a malformed time', calendar({ hours: [{ day: 1, start: '9:00', end: '17:00' }] }), S.hoursInvalid],
    ['24:00 as a start', calendar({ hours: [{ day: 1, start: '24:00', end: '24:00' }] }), S.hoursInvalid],
    ['day 7', calendar({ hours: [{ day: 7, start: '09:00', end: '17:00' }] }), S.hoursInvalid],
    [
      'overlapping intervals on one day',
      calendar({
        hours: [
          { day: 1, start: '09:00', end: '12:30' },
          { day: 1, start: '12:00', end: '17:00' },
        ],
      }),
      S.hoursOverlap,
    ],
    ['no opening hours', calendar({ hours: [] }), S.hoursRequired],
    [
      'five intervals on one day',
      calendar({ hours: ['08', '10', '12', '14', '16'].map((h) => ({ day: 2, start: `${h}:00`, end: `${h}:30` })) }),
      S.hoursPerDay(4),
    ],
    ['a holiday that is not a date', calendar({ holidays: [{ date: '2026-02-30', name: 'Nope' }] }), S.holidayDateInvalid],
    ['a holiday in another format', calendar({ holidays: [{ date: '25.12.2026', name: 'Christmas' }] }), S.holidayDateInvalid],
    [
      '401 holidays',
      calendar({ holidays: Array.from({ length: 401 }, () => ({ date: '2026-12-25', name: 'x' })) }),
      S.holidaysTooMany(400),
    ],
  ])('refuses %s', (_name, body, message) => {
    expect(firstError(calendarBody.safeParse(body))).toBe(message);
  });

  it('lets intervals touch', () => {
    const hours = [
      { day: 1, start: '09:00', end: '12:00' },
      { day: 1, start: '12:00', end: '17:00' },
    ];
    expect(calendarBody.safeParse(calendar({ hours })).success).toBe(true);
  });
});

describe('policyBody', () => {
  const policy = (extra: object = {}) => ({
    name: 'Standard',
    targets: { urgent: { firstResponseMinutes: 60, resolutionMinutes: 480 } },
    ...extra,
  });

  it('fills defaults: 24/7, everyone, no target for priorities left out, a 30-minute warning, active', () => {
    expect(policyBody.parse(policy())).toEqual({
      name: 'Standard',
      calendarId: null,
      requesterDomains: [],
      targets: {
        low: { firstResponseMinutes: null, resolutionMinutes: null },
        medium: { firstResponseMinutes: null, resolutionMinutes: null },
        high: { firstResponseMinutes: null, resolutionMinutes: null },
        urgent: { firstResponseMinutes: 60, resolutionMinutes: 480 },
      },
      warnBeforeMinutes: 30,
      active: true,
    });
  });

  it('lower-cases domains, drops a leading @ and repeats', () => {
    expect(policyBody.parse(policy({ requesterDomains: ['@Example.com', 'example.com', 'corp.example.org'] })).requesterDomains).toEqual([
      'example.com',
      'corp.example.org',
    ]);
  });

  it.each([
    [
      'a resolution shorter than the first response',
      policy({ targets: { high: { firstResponseMinutes: 60, resolutionMinutes: 30 } } }),
      S.resolutionBeforeResponse,
    ],
    ['a target of 0', policy({ targets: { high: { firstResponseMinutes: 0, resolutionMinutes: null } } }), S.targetInvalid(525_600)],
    [
      'a target over a year',
      policy({ targets: { high: { firstResponseMinutes: 525_601, resolutionMinutes: null } } }),
      S.targetInvalid(525_600),
    ],
    [
      'a fractional target',
      policy({ targets: { high: { firstResponseMinutes: 1.5, resolutionMinutes: null } } }),
      S.targetInvalid(525_600),
    ],
    ['a domain that is not one', policy({ requesterDomains: ['not a domain'] }), S.domainsInvalid],
    ['a negative warning', policy({ warnBeforeMinutes: -1 }), S.warnInvalid(525_600)],
    ['a blank name', policy({ name: '  ' }), S.policyNameRequired],
  ])('refuses %s', (_name, body, message) => {
    expect(firstError(policyBody.safeParse(body))).toBe(message);
  });
});

describe('policyOrderBody', () => {
  it('takes distinct ids and refuses repeats', () => {
    expect(policyOrderBody.safeParse({ ids: [3, 1, 2] }).success).toBe(true);
    expect(firstError(policyOrderBody.safeParse({ ids: [1, 1] }))).toBe(S.orderInvalid);
  });
});

describe('isTimeZone', () => {
  it('knows IANA zones and UTC', () => {
    expect(['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5'].every(isTimeZone)).toBe(true);
    expect(['', 'Berlin', 'Europe/Nowhere', '../etc/passwd'].some(isTimeZone)).toBe(false);
  });
});

describe('slaDueAtOf', () => {
  const sla = (firstResponseDueAt: string | null, resolutionDueAt: string | null) => ({
    policyId: 1,
    firstResponseDueAt,
    resolutionDueAt,
    firstRespondedAt: null,
    state: 'ok' as const,
  });
  it('is the earliest open deadline, null when none runs', () => {
    expect(slaDueAtOf(sla('2026-01-19T08:30:00.000Z', '2026-01-20T08:30:00.000Z'))).toBe('2026-01-19T08:30:00.000Z');
    expect(slaDueAtOf(sla(null, '2026-01-20T08:30:00.000Z'))).toBe('2026-01-20T08:30:00.000Z');
    expect(slaDueAtOf(sla(null, null))).toBeNull();
    expect(slaDueAtOf(null)).toBeNull();
    expect(slaDueAtOf(undefined)).toBeNull();
  });
});
