import { TZDate, tzOffset } from '@date-fns/tz';
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
const WEEK = 7 * 24 * 60 * MINUTE;
/**
 * How far ahead a deadline is looked for: twenty years, enough for the longest target (a year of
 * minutes) on a calendar open about 8½ hours a week. A calendar that cannot hold a target in that
 * time treats it as never, and no walk costs more than about a thousand weeks.
 */
const MAX_WEEKS = Math.ceil((20 * 366) / 7);

/** A local calendar date; moving between dates needs no time zone. */
interface Day {
  year: number;
  month: number;
  date: number;
  weekday: number;
  iso: string;
  /** Its midnight as if the zone were UTC: a wall-clock time of the day is this plus its minutes. */
  utc: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function civilDay(year: number, month: number, date: number): Day {
  const utc = new Date(0);
  utc.setUTCFullYear(year, month, date); // years below 100 stay as they are (Date.UTC would add 1900)
  const [y, m, d] = [utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate()];
  return { year: y, month: m, date: d, weekday: utc.getUTCDay(), iso: `${pad(y, 4)}-${pad(m + 1)}-${pad(d)}`, utc: utc.getTime() };
}

function dayOf(instant: number, timeZone: string): Day {
  const local = new TZDate(instant, timeZone);
  return civilDay(local.getFullYear(), local.getMonth(), local.getDate());
}

const laterDay = (day: Day, days: number) => civilDay(day.year, day.month, day.date + days);

/** A local wall-clock time (minutes after a day's midnight) as an instant. */
type Instant = (day: Day, minutes: number) => number;

/** The day's open intervals as instants, in order, holiday or not. */
function openIntervals(calendar: BusinessCalendar, day: Day, instant: Instant): [number, number][] {
  return calendar.hours
    .filter((interval) => interval.day === day.weekday)
    .map((interval): [number, number] => [instant(day, clockMinutes(interval.start)), instant(day, clockMinutes(interval.end))])
    .sort((a, b) => a[0] - b[0]);
}

interface Week {
  /** The open stretches of seven local days, in order, none before the walk's start. */
  stretches: [number, number][];
  /** Their sum in milliseconds. */
  total: number;
  /** The local midnight after the seven days. */
  end: number;
}

/**
 * The open stretches from `from` on, seven local days at a time, for at most MAX_WEEKS weeks. In a
 * week whose UTC offset stays the same, wall-clock times are instants by arithmetic; only a week
 * with a DST change asks the time zone for each of them.
 */
function* openWeeks(from: number, calendar: BusinessCalendar): Generator<Week> {
  if (calendar.hours.length === 0) return;
  const { timeZone } = calendar;
  const holidays = new Set(calendar.holidays.map((holiday) => holiday.date));
  const zoned: Instant = (d, minutes) => new TZDate(d.year, d.month, d.date, Math.floor(minutes / 60), minutes % 60, timeZone).getTime();
  let day = dayOf(from, timeZone);
  let start = zoned(day, 0);
  for (let n = 0; n < MAX_WEEKS; n += 1) {
    const offset = tzOffset(timeZone, new Date(start));
    // The same offset a week on: no DST change inside (two within one week are unknown).
    const steady = offset === tzOffset(timeZone, new Date(start + WEEK));
    const instant: Instant = steady ? (d, minutes) => d.utc + (minutes - offset) * MINUTE : zoned;
    const stretches = Array.from({ length: 7 }, (_, i) => laterDay(day, i))
      .filter((d) => !holidays.has(d.iso))
      .flatMap((d) => openIntervals(calendar, d, instant))
      .filter(([, close]) => close > from)
      .map(([open, close]): [number, number] => [Math.max(open, from), close]);
    const next = laterDay(day, 7);
    const end = steady ? start + WEEK : zoned(next, 0);
    yield { stretches, total: stretches.reduce((sum, [open, close]) => sum + close - open, 0), end };
    [day, start] = [next, end];
  }
}

/**
 * The instant `minutes` of business time after `from`. The answer always lies inside opening hours
 * (an exact fit ends at an interval's close); `null` when the calendar never has that much time.
 */
export function addBusinessMinutes(from: Date, minutes: number, calendar: BusinessCalendar | null): Date | null {
  if (!calendar) return new Date(from.getTime() + minutes * MINUTE);
  let remaining = minutes * MINUTE;
  for (const week of openWeeks(from.getTime(), calendar)) {
    if (remaining > week.total) {
      remaining -= week.total;
      continue;
    }
    for (const [start, end] of week.stretches) {
      // A target of 0 is met at the first open moment, so a deadline never falls in closed hours.
      if (remaining <= end - start) return new Date(start + remaining);
      remaining -= end - start;
    }
  }
  return null;
}

/** Business milliseconds between two instants (0 when `to` is not after `from`). */
export function businessMillisBetween(from: Date, to: Date, calendar: BusinessCalendar | null): number {
  const [a, b] = [from.getTime(), to.getTime()];
  if (b <= a) return 0;
  if (!calendar) return b - a;
  let total = 0;
  for (const week of openWeeks(a, calendar)) {
    if (week.end <= b) {
      total += week.total;
      continue;
    }
    for (const [start, end] of week.stretches) {
      if (start >= b) break;
      total += Math.min(end, b) - start;
    }
    break;
  }
  return total;
}
