import { TZDate } from '@date-fns/tz';
import { LRUCache } from 'lru-cache';
import { addDays, dateOfDay, dayNumber, type ReportInterval } from '@helpdesk/protocol';
import { MONTH_SPAN, spanStartMs, WEEK_SPAN } from './figureRows.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A month's length on average, for counting months. */
const MONTH_MS = 30.44 * DAY_MS;

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

/** Where a point's figures are read: rows of one span with `at` in [lo, hi), added (sign 1) or taken away (-1). */
export interface Segments {
  point: number[];
  span: number[];
  lo: Date[];
  hi: Date[];
  sign: number[];
}

/** The first UTC month start at or after `ms`. */
export function nextMonthStart(ms: number): number {
  const at = new Date(ms);
  const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
  return start >= ms ? start : Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1);
}

/** A stretch of one span to add (sign 1) or take away (-1). */
type Piece = [span: number, lo: number, hi: number, sign: number];
/** The pieces that read a signed stretch of time, and how many stretches they read. */
interface Plan {
  /** The stretches read, an hour stretch weighing more (byHours). */
  stretches: number;
  pieces: Piece[];
}

/**
 * sign × [a, b), or -sign × [b, a) when b comes first, from the hour rows, which are read a whole
 * UTC day at a time (reports/figureCache.ts): as many reads as the days it touches, each weighed
 * above a row of a longer span, as it holds up to 24 rows where that holds one.
 */
function byHours(a: number, b: number, sign: number): Plan {
  const [lo, hi, s] = a <= b ? [a, b, sign] : [b, a, -sign];
  if (lo === hi) return { stretches: 0, pieces: [] };
  return { stretches: 1.5 * (Math.ceil(hi / DAY_MS) - Math.floor(lo / DAY_MS)), pieces: [[1, lo, hi, s]] };
}

/**
 * sign × [a, b) from rows of `span` (days, weeks or months) and what `rest` reads at either end: each
 * end cut at the span boundary nearest it (the stretch between added or taken away), unless `rest`
 * alone reads fewer stretches. Only the nearest boundaries are weighed, so that planning a year by day
 * stays a few dozen calls a point.
 */
function bySpan(span: number, a: number, b: number, sign: number, rest: (a: number, b: number, sign: number) => Plan): Plan {
  const [lo, hi, s] = a <= b ? [a, b, sign] : [b, a, -sign];
  const whole = rest(lo, hi, s);
  // Shorter than half the shortest such span: a whole one less the rest would read more.
  if ((hi - lo) * 2 < (span === MONTH_SPAN ? 28 * DAY_MS : span * HOUR_MS)) return whole;
  const [first, last] = [nearestBoundary(lo, span), nearestBoundary(hi, span)];
  if (first >= last) return whole;
  const [head, tail] = [rest(lo, first, s), rest(last, hi, s)];
  const stretches = head.stretches + Math.round((last - first) / (span === MONTH_SPAN ? MONTH_MS : span * HOUR_MS)) + tail.stretches;
  return stretches < whole.stretches ? { stretches, pieces: [...head.pieces, [span, first, last, s], ...tail.pieces] } : whole;
}

/** The start of the UTC day, week or month (span) nearest `ms`. */
function nearestBoundary(ms: number, span: number): number {
  const before = spanStartMs(ms, span);
  if (before === ms) return ms;
  const after = span === MONTH_SPAN ? nextMonthStart(ms) : before + span * HOUR_MS;
  return ms - before <= after - ms ? before : after;
}

const byDays = (a: number, b: number, sign: number): Plan => bySpan(24, a, b, sign, byHours);
const byWeeks = (a: number, b: number, sign: number): Plan => bySpan(WEEK_SPAN, a, b, sign, byDays);

/**
 * The stretches of time to read for each point, added or taken away: whole UTC months, weeks and days
 * from the month, week and day rows, the hours left from the hour rows, each edge cut at the
 * boundary nearest it unless that reads more (bySpan). A zone's days, weeks and months start hours
 * before or after the UTC ones: Berlin's March 2 is hours of UTC March 1 and 2 (two days of hour
 * rows, which the days either side share), its week from Monday March 2 the UTC week's row plus and
 * less an hour, its March the month row plus and less an hour (docs/decisions.md#past-figures-kept-in-memory).
 */
export function segmentsOf(to: string, starts: string[], timeZone: string): Segments {
  const segments: Segments = { point: [], span: [], lo: [], hi: [], sign: [] };
  starts.forEach((start, point) => {
    const lo = dayStart(start, timeZone);
    const hi = dayStart(starts[point + 1] ?? addDays(to, 1), timeZone);
    for (const [span, from, until, sign] of bySpan(MONTH_SPAN, lo, hi, 1, byWeeks).pieces) {
      segments.point.push(point);
      segments.span.push(span);
      segments.lo.push(new Date(from));
      segments.hi.push(new Date(until));
      segments.sign.push(sign);
    }
  });
  return segments;
}
