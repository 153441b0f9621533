import { TZDate } from '@date-fns/tz';
import { clockMinutes } from '@helpdesk/protocol';

/**
 * Business time: the arithmetic every SLA deadline rests on (docs/decisions.md#service-levels).
 * Opening hours are wall-clock times in the calendar's time zone, so 09:00 stays 09:00 across a DST
 * change, and a day's intervals are turned into instants one day at a time. `null` is 24/7.
 */
export interface BusinessCalendar {
  /** IANA time zone, e.g. Europe/Berlin. */
  timeZone: string;
  /** Opening intervals; `day` 0–6 with 0 = Sunday; `end` may be `24:00`. */
  hours: readonly { day: number; start: string; end: string }[];
  /** Whole days closed, as YYYY-MM-DD in the calendar's time zone. */
  holidays: readonly { date: string }[];
}

const MINUTE = 60_000;
/**
 * How far ahead a deadline is looked for: the longest target (a year of minutes) on the thinnest
 * calendar (one 15-minute interval a week) is about 670 years; a year of minutes on a calendar
 * with an hour a week is 168 years. Past this the calendar cannot hold the target in any sensible
 * time, and the deadline is treated as never.
 */
const MAX_DAYS = 200 * 366;

interface Day {
  year: number;
  month: number;
  date: number;
  weekday: number;
  iso: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function dayOf(instant: number, timeZone: string): Day {
  const local = new TZDate(instant, timeZone);
  const [year, month, date] = [local.getFullYear(), local.getMonth(), local.getDate()];
  return { year, month, date, weekday: local.getDay(), iso: `${pad(year, 4)}-${pad(month + 1)}-${pad(date)}` };
}

function nextDay(day: Day, timeZone: string): Day {
  // Noon is never inside a DST change, so the next calendar day is reached whatever the offsets.
  const noon = new TZDate(day.year, day.month, day.date + 1, 12, 0, timeZone);
  return dayOf(noon.getTime(), timeZone);
}

/** The day's open intervals as instants, in order; holidays have none. */
function openIntervals(calendar: BusinessCalendar, holidays: ReadonlySet<string>, day: Day): [number, number][] {
  if (holidays.has(day.iso)) return [];
  const at = (minutes: number) =>
    new TZDate(day.year, day.month, day.date, Math.floor(minutes / 60), minutes % 60, calendar.timeZone).getTime();
  return calendar.hours
    .filter((interval) => interval.day === day.weekday)
    .map((interval): [number, number] => [at(clockMinutes(interval.start)), at(clockMinutes(interval.end))])
    .sort((a, b) => a[0] - b[0]);
}

/** The open stretches from `from` on, in order, for at most MAX_DAYS days. */
function* openFrom(from: number, calendar: BusinessCalendar): Generator<[number, number]> {
  if (calendar.hours.length === 0) return;
  const holidays = new Set(calendar.holidays.map((holiday) => holiday.date));
  let day = dayOf(from, calendar.timeZone);
  for (let n = 0; n < MAX_DAYS; n += 1) {
    for (const [start, end] of openIntervals(calendar, holidays, day)) {
      if (end > from) yield [Math.max(start, from), end];
    }
    day = nextDay(day, calendar.timeZone);
  }
}

/**
 * The instant `minutes` of business time after `from`. The answer always lies inside opening hours
 * (an exact fit ends at an interval's close); `null` when the calendar never has that much time.
 */
export function addBusinessMinutes(from: Date, minutes: number, calendar: BusinessCalendar | null): Date | null {
  if (!calendar) return new Date(from.getTime() + minutes * MINUTE);
  let remaining = minutes * MINUTE;
  for (const [start, end] of openFrom(from.getTime(), calendar)) {
    // A target of 0 is met at the first open moment, so a deadline never falls in closed hours.
    if (remaining <= end - start) return new Date(start + remaining);
    remaining -= end - start;
  }
  return null;
}

/** Business milliseconds between two instants (0 when `to` is not after `from`). */
export function businessMillisBetween(from: Date, to: Date, calendar: BusinessCalendar | null): number {
  const [a, b] = [from.getTime(), to.getTime()];
  if (b <= a) return 0;
  if (!calendar) return b - a;
  let total = 0;
  for (const [start, end] of openFrom(a, calendar)) {
    if (start >= b) break;
    total += Math.min(end, b) - start;
  }
  return total;
}
