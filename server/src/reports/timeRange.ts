import { TZDate } from '@date-fns/tz';
import { LRUCache } from 'lru-cache';
import { addDays, dateOfDay, dayNumber, type ReportInterval } from '@helpdesk/protocol';
import { MONTH_SPAN, spanStart } from './figureRows.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * What reports ask of time zones, kept: a zone's offsets come from Intl, about a microsecond a call
 * and several calls a day start, which made zone arithmetic a quarter of a busy report server's
 * CPU (docs/decisions.md#past-figures-kept-in-memory). A day's start in a zone never changes (but
 * with the time zone data, which a restart brings), so it is kept; the caches are bounded, as a
 * caller may name any zone and date.
 */
const dayStarts = new LRUCache<string, number>({ max: 50_000 });
const dateFormats = new LRUCache<string, Intl.DateTimeFormat>({ max: 1_000 });

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  return format.format(now);
}

/**
 * The instant a calendar day starts in a time zone (DST-correct: a Berlin day in March can be 23
 * hours), rounded to the nearest UTC hour: the figures are kept by the hour, so a zone with a
 * half-hour offset (Asia/Kolkata) has its days cut at the nearest hour (docs/api.md#reports).
 */
export function dayStart(date: string, timeZone: string): number {
  const id = `${timeZone}|${date}`;
  const kept = dayStarts.get(id);
  if (kept !== undefined) return kept;
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const ms = new TZDate(year, month - 1, day, timeZone).getTime();
  const start = Math.round(ms / HOUR_MS) * HOUR_MS;
  dayStarts.set(id, start);
  return start;
}

/** The first days of a range's points: every day, each ISO week (Monday first) or each calendar month, the first clipped to `from`. */
export function pointStarts(from: string, to: string, interval: ReportInterval): string[] {
  const starts = [from];
  // Walked as whole days since the epoch (a Thursday), each turned into a date only when it starts a point.
  for (let day = dayNumber(from) + 1; day <= dayNumber(to); day++) {
    const isStart = interval === 'day' || (interval === 'week' ? (day + 3) % 7 === 0 : new Date(day * DAY_MS).getUTCDate() === 1);
    if (isStart) starts.push(dateOfDay(day));
  }
  return starts;
}

/** Where a point's figures are read: rows of one span with `at` in [lo, hi). */
export interface Segments {
  point: number[];
  span: number[];
  lo: Date[];
  hi: Date[];
}

/** The first UTC month start at or after `ms`. */
export function nextMonthStart(ms: number): number {
  const at = new Date(ms);
  const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
  return start >= ms ? start : Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
}

/**
 * The stretches of time to read for each point: the whole UTC months inside a point from the month
 * rows, the whole UTC days left at either side from the day rows, the hours at the edges from the
 * hour rows. A year's summary reads about a dozen month rows, up to two months of days and a few
 * dozen hours per grouping set, where day rows alone were 366.
 */
export function segmentsOf(to: string, starts: string[], timeZone: string): Segments {
  const segments: Segments = { point: [], span: [], lo: [], hi: [] };
  const add = (point: number, span: number, lo: number, hi: number) => {
    if (lo >= hi) return;
    segments.point.push(point);
    segments.span.push(span);
    segments.lo.push(new Date(lo));
    segments.hi.push(new Date(hi));
  };
  const daysAndHours = (point: number, lo: number, hi: number) => {
    const firstDay = Math.ceil(lo / DAY_MS) * DAY_MS;
    const lastDay = Math.floor(hi / DAY_MS) * DAY_MS;
    if (firstDay < lastDay) {
      add(point, 1, lo, firstDay);
      add(point, 24, firstDay, lastDay);
      add(point, 1, lastDay, hi);
    } else {
      add(point, 1, lo, hi);
    }
  };
  starts.forEach((start, point) => {
    const lo = dayStart(start, timeZone);
    const hi = dayStart(starts[point + 1] ?? addDays(to, 1), timeZone);
    const firstMonth = nextMonthStart(lo);
    const lastMonth = spanStart(new Date(hi), MONTH_SPAN).getTime();
    if (firstMonth < lastMonth) {
      daysAndHours(point, lo, firstMonth);
      add(point, MONTH_SPAN, firstMonth, lastMonth);
      daysAndHours(point, lastMonth, hi);
    } else {
      daysAndHours(point, lo, hi);
    }
  });
  return segments;
}
