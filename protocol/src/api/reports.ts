import { z } from '../zod.js';
import { CATEGORIES, PRIORITIES } from '../enums.js';
import { optionalQuery } from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { isCalendarDate, isTimeZone } from './sla.js';
import { assigneeQuery } from './tickets.js';

const R = MESSAGES.reports;
const V = MESSAGES.validation;
const L = LIMITS.reports;

/** How a time series is cut (docs/api.md#reports): days, ISO weeks (Monday first) or calendar months. */
export const REPORT_INTERVALS = ['day', 'week', 'month'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/** The backlog's age buckets, youngest first: a ticket's age is the time since it was created. */
export const BACKLOG_AGES = [
  { label: '<1d', fromDays: 0, toDays: 1 },
  { label: '1-3d', fromDays: 1, toDays: 3 },
  { label: '3-7d', fromDays: 3, toDays: 7 },
  { label: '7-30d', fromDays: 7, toDays: 30 },
  { label: '>30d', fromDays: 30, toDays: null },
] as const;
export type BacklogAgeLabel = (typeof BACKLOG_AGES)[number]['label'];

/** The statuses a backlog counts: a ticket not yet resolved or closed. */
export const BACKLOG_STATUSES = ['open', 'in_progress', 'pending'] as const;

const day = optionalQuery(z.string().refine(isCalendarDate, R.dateInvalid));

/**
 * The query every report takes: a range of days in a time zone (both days included; missing ends are
 * filled by the server, see reportRange) and the filters. `assignee` is an agent's id, `me` or `none`.
 */
export const reportQuery = z.object({
  from: day,
  to: day,
  tz: optionalQuery(z.string().refine(isTimeZone, MESSAGES.sla.timeZoneInvalid)),
  assignee: assigneeQuery,
  priority: optionalQuery(z.enum(PRIORITIES, { error: V.priorityInvalid })),
  category: optionalQuery(z.enum(CATEGORIES, { error: V.categoryInvalid })),
  interval: optionalQuery(z.enum(REPORT_INTERVALS, { error: R.intervalInvalid })),
});
export type ReportQuery = z.input<typeof reportQuery>;
export type ParsedReportQuery = z.output<typeof reportQuery>;

const DAY_MS = 86_400_000;
/** A YYYY-MM-DD date as whole days since 1970-01-01 (a Thursday), and back. */
export const dayNumber = (date: string): number => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
// Past year 9999 the ISO form widens to a signed six-digit year (+010000-01-01), which the date part keeps.
export const dateOfDay = (day: number): string => new Date(day * DAY_MS).toISOString().replace(/T.*/, '');
/** `date` moved by `days` days, as YYYY-MM-DD. */
export const addDays = (date: string, days: number): string => dateOfDay(dayNumber(date) + days);
/** How many days from `from` to `to`, both included. */
export const daysInRange = (from: string, to: string): number => dayNumber(to) - dayNumber(from) + 1;

/**
 * The range a report covers: the days given, a missing end filled (`to` today, `from` the 30 days up to
 * `to`), or the message of the 400 that refuses it. `today` is today's date in the report's time zone.
 */
export function reportRange(
  query: { from?: string; to?: string; interval?: ReportInterval },
  today: string,
): { from: string; to: string } | { error: string } {
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, -(L.defaultDays - 1));
  if (from > to) return { error: R.startAfterEnd };
  const days = daysInRange(from, to);
  if (days > L.maxDays) return { error: R.rangeTooLong };
  if (query.interval === 'day' && days > L.maxDailyDays) return { error: R.dailyTooLong };
  return { from, to };
}

/** The interval a time series uses when none is asked for: days up to 92 of them, else weeks. */
export const defaultInterval = (from: string, to: string): ReportInterval => (daysInRange(from, to) > L.maxDailyDays ? 'week' : 'day');

/** Percentages in reports: one decimal, null when there is nothing to divide. */
export const percentOf = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 1000) / 10);

/** A CSAT score: the share of answers that were good. */
export const csatScoreOf = ({ good, neutral, bad }: { good: number; neutral: number; bad: number }): number | null =>
  percentOf(good, good + neutral + bad);
