import { TZDate } from '@date-fns/tz';
import { clockMinutes } from '@helpdesk/protocol';
import { describe, expect, it } from 'vitest';
import { addBusinessMinutes, businessMillisBetween, type BusinessCalendar } from './businessTime.js';

const weekdays = (start: string, end: string) => [1, 2, 3, 4, 5].map((day) => ({ day, start, end }));
const berlin = (extra: Partial<BusinessCalendar> = {}): BusinessCalendar => ({
  timeZone: 'Europe/Berlin',
  hours: weekdays('09:00', '17:00'),
  holidays: [],
  ...extra,
});
const at = (iso: string) => new Date(iso);

describe('addBusinessMinutes', () => {
  it.each([
    // The worked example: Mon–Fri 09:00–17:00 Berlin, urgent first response 60 minutes.
    ['Friday 16:30 CET → Monday 09:30 CET', berlin(), '2026-01-16T15:30:00Z', 60, '2026-01-19T08:30:00Z'],
    [
      'a holiday on the Monday → Tuesday 09:30',
      berlin({ holidays: [{ date: '2026-01-19' }] }),
      '2026-01-16T15:30:00Z',
      60,
      '2026-01-20T08:30:00Z',
    ],
    ['across the spring DST change → Monday 09:30 CEST', berlin(), '2026-03-27T15:30:00Z', 60, '2026-03-30T07:30:00Z'],
    ['across the autumn DST change → Monday 09:30 CET', berlin(), '2026-10-23T14:30:00Z', 60, '2026-10-26T08:30:00Z'],
    ['before opening starts at opening', berlin(), '2026-01-19T05:00:00Z', 30, '2026-01-19T08:30:00Z'],
    ['on a Saturday starts on Monday', berlin(), '2026-01-17T10:00:00Z', 90, '2026-01-19T09:30:00Z'],
    ['an exact fit ends at the close, not the next opening', berlin(), '2026-01-19T15:00:00Z', 60, '2026-01-19T16:00:00Z'],
    ['one minute more goes to the next day', berlin(), '2026-01-19T15:00:00Z', 61, '2026-01-20T08:01:00Z'],
    [
      'several intervals a day skip the lunch break',
      berlin({ hours: [...weekdays('09:00', '12:00'), ...weekdays('13:00', '17:00')] }),
      '2026-01-19T10:30:00Z', // 11:30 local
      60,
      '2026-01-19T12:30:00Z', // 13:30 local
    ],
    [
      'an interval to 24:00 ends at midnight',
      berlin({ hours: [{ day: 1, start: '22:00', end: '24:00' }] }),
      '2026-01-19T22:30:00Z', // Monday 23:30 local
      30,
      '2026-01-19T23:00:00Z', // Tuesday 00:00 local
    ],
    [
      'an interval from 00:00 on the next open day',
      berlin({ hours: [{ day: 2, start: '00:00', end: '06:00' }] }),
      '2026-01-19T22:30:00Z', // Monday 23:30 local, Monday closed
      30,
      '2026-01-19T23:30:00Z', // Tuesday 00:30 local
    ],
    [
      'a whole day on the spring DST change has 23 hours',
      { timeZone: 'Europe/Berlin', hours: [{ day: 0, start: '00:00', end: '24:00' }], holidays: [] },
      '2026-03-28T23:00:00Z', // Sunday 00:00 CET
      23 * 60,
      '2026-03-29T22:00:00Z', // Monday 00:00 CEST
    ],
    [
      'a whole day on the autumn DST change has 25 hours',
      { timeZone: 'Europe/Berlin', hours: [{ day: 0, start: '00:00', end: '24:00' }], holidays: [] },
      '2026-10-24T22:00:00Z', // Sunday 00:00 CEST
      25 * 60,
      '2026-10-25T23:00:00Z', // Monday 00:00 CET
    ],
    [
      'New York hours across its own DST change',
      { timeZone: 'America/New_York', hours: weekdays('09:00', '17:00'), holidays: [] },
      '2026-03-06T21:30:00Z', // Friday 16:30 EST
      60,
      '2026-03-09T13:30:00Z', // Monday 09:30 EDT
    ],
    ['24/7 (no calendar) is wall time', null, '2026-01-16T15:30:00Z', 60, '2026-01-16T16:30:00Z'],
    ['a target of 0 outside hours is the next opening', berlin(), '2026-01-17T10:00:00Z', 0, '2026-01-19T08:00:00Z'],
  ])('%s', (_name, calendar, from, minutes, due) => {
    expect(addBusinessMinutes(at(from), minutes, calendar)?.toISOString()).toBe(at(due).toISOString());
  });

  it('a calendar without opening hours never reaches a deadline', () => {
    expect(addBusinessMinutes(at('2026-01-19T08:00:00Z'), 60, berlin({ hours: [] }))).toBeNull();
  });
});

describe('businessMillisBetween', () => {
  const minutes = (from: string, to: string, calendar: BusinessCalendar | null = berlin()) =>
    businessMillisBetween(at(from), at(to), calendar) / 60_000;

  it('counts only opening hours: a pause over a weekend costs nothing', () => {
    // Friday 16:00 → Monday 10:00 local: one hour on Friday, one on Monday.
    expect(minutes('2026-01-16T15:00:00Z', '2026-01-19T09:00:00Z')).toBe(120);
  });
  it('skips holidays', () => {
    expect(minutes('2026-01-16T15:00:00Z', '2026-01-20T09:00:00Z', berlin({ holidays: [{ date: '2026-01-19' }] }))).toBe(120);
  });
  it('is zero inside closed hours and when the end is not after the start', () => {
    expect(minutes('2026-01-17T08:00:00Z', '2026-01-18T20:00:00Z')).toBe(0);
    expect(minutes('2026-01-19T10:00:00Z', '2026-01-19T09:00:00Z')).toBe(0);
  });
  it('is the inverse of addBusinessMinutes', () => {
    const from = at('2026-03-27T15:30:00Z');
    for (const n of [1, 59, 60, 480, 481, 5000]) {
      const due = addBusinessMinutes(from, n, berlin())!;
      expect(businessMillisBetween(from, due, berlin()) / 60_000).toBe(n);
    }
  });
  it('is wall time without a calendar', () => {
    expect(minutes('2026-01-17T08:00:00Z', '2026-01-17T09:30:00Z', null)).toBe(90);
  });
});

/**
 * The plain definition, walked one local day at a time with the time zone asked for every opening:
 * what the week-at-a-time walk must equal.
 */
function oracleAdd(from: Date, minutes: number, calendar: BusinessCalendar, maxDays: number): Date | null {
  const holidays = new Set(calendar.holidays.map((h) => h.date));
  const local = new TZDate(from.getTime(), calendar.timeZone);
  let remaining = minutes * 60_000;
  for (let n = 0; n < maxDays; n += 1) {
    const noon = new TZDate(local.getFullYear(), local.getMonth(), local.getDate() + n, 12, 0, calendar.timeZone);
    const [y, m, d] = [noon.getFullYear(), noon.getMonth(), noon.getDate()];
    const iso = `${String(y).padStart(4, '0')}-${String(m + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    if (holidays.has(iso)) continue;
    const instant = (hhmm: string) => {
      const minute = clockMinutes(hhmm);
      return new TZDate(y, m, d, Math.floor(minute / 60), minute % 60, calendar.timeZone).getTime();
    };
    const spans = calendar.hours
      .filter((h) => h.day === noon.getDay())
      .map((h) => [instant(h.start), instant(h.end)] as const)
      .sort((a, b) => a[0] - b[0]);
    for (const [open, close] of spans) {
      if (close <= from.getTime()) continue;
      const start = Math.max(open, from.getTime());
      if (remaining <= close - start) return new Date(start + remaining);
      remaining -= close - start;
    }
  }
  return null;
}

describe('the week-at-a-time walk', () => {
  // A small deterministic generator, so a failure names a case that can be run again.
  const random = (seed: number) => () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const zones = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
  const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

  it('equals the day-by-day definition across DST changes (whole and half hours), holidays and midnights', () => {
    const next = random(42);
    for (let run = 0; run < 60; run += 1) {
      const hours = Array.from({ length: 1 + Math.floor(next() * 8) }, () => {
        const start = Math.floor(next() * 96) * 15;
        const end = Math.min(1440, start + 15 + Math.floor(next() * 40) * 15);
        return { day: Math.floor(next() * 7), start: hhmm(start), end: hhmm(end) };
      }).filter(
        (a, i, all) =>
          !all.some(
            (b, j) =>
              j < i && b.day === a.day && clockMinutes(b.start) < clockMinutes(a.end) && clockMinutes(a.start) < clockMinutes(b.end),
          ),
      );
      const from = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 3 * 366) * 86_400_000 + Math.floor(next() * 1440) * 60_000);
      const holidays = Array.from({ length: Math.floor(next() * 30) }, () => ({
        date: new Date(from.getTime() + Math.floor(next() * 400) * 86_400_000).toISOString().slice(0, 10),
      }));
      const calendar = { timeZone: zones[run % zones.length]!, hours, holidays };
      const minutes = Math.floor(next() * 40_000);
      const case_ = JSON.stringify({ calendar, from, minutes });
      const due = addBusinessMinutes(from, minutes, calendar);
      expect(due?.toISOString(), case_).toBe(oracleAdd(from, minutes, calendar, 7 * Math.ceil((20 * 366) / 7))?.toISOString());
      if (due) expect(businessMillisBetween(from, due, calendar), case_).toBe(minutes * 60_000);
    }
  });

  it('gives no deadline past twenty years, and reaches one a little before', () => {
    const thin = { timeZone: 'America/New_York', hours: [{ day: 0, start: '00:00', end: '00:01' }], holidays: [] };
    expect(addBusinessMinutes(at('2026-12-02T10:00:00Z'), 525_600, thin)).toBeNull();
    // Nine hours a week: a year of minutes is about 18.7 years of weeks.
    const nine = { timeZone: 'Europe/Berlin', hours: [{ day: 3, start: '08:00', end: '17:00' }], holidays: [] };
    const due = addBusinessMinutes(at('2026-12-02T10:00:00Z'), 525_600, nine)!;
    expect(due.getUTCFullYear()).toBe(2045);
    expect(businessMillisBetween(at('2026-12-02T10:00:00Z'), due, nine)).toBe(525_600 * 60_000);
  });
});
