import {
  addDays,
  CATEGORIES,
  daysInRange,
  defaultInterval,
  isCalendarDate,
  isTimeZone,
  LIMITS,
  MESSAGES,
  PRIORITIES,
  REPORT_INTERVALS,
  reportRange,
  type Category,
  type Priority,
  type ReportInterval,
  type ReportQuery,
  type TicketAssignee,
} from '@helpdesk/protocol';
import { localZone } from '../../lib/timeZones';

/**
 * The Reports page's filters as its address holds them (docs/product.md#reports), so a report can be
 * linked and survives a reload. A preset range is kept by name (`range=7d`), so a link to "last 7
 * days" stays the last 7 days; a custom range keeps its days (`from`, `to`).
 */

export const RANGE_PRESETS = [
  { value: '7d', label: 'Last 7 days', days: 7 },
  { value: '30d', label: 'Last 30 days', days: 30 },
  { value: '90d', label: 'Last 90 days', days: 90 },
  { value: '12m', label: 'Last 12 months', days: 365 },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]['value'];
export type RangeChoice = RangePreset | 'custom';
const DEFAULT_PRESET: RangePreset = '30d';

export interface ReportFilters {
  range: RangeChoice;
  /** The days covered, both included; as written for a custom range (maybe not a valid day). */
  from: string;
  to: string;
  /** Asked for; when absent the server's default for the range is used (defaultInterval). */
  interval?: ReportInterval;
  assignee?: TicketAssignee;
  priority?: Priority;
  category?: Category;
  /** The IANA zone the days are read in. */
  tz: string;
}

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayIn(tz: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The days a preset covers, ending today. */
export function presetRange(preset: RangePreset, today: string): { from: string; to: string } {
  const { days } = RANGE_PRESETS.find((p) => p.value === preset) ?? RANGE_PRESETS[1];
  return { from: addDays(today, -(days - 1)), to: today };
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : undefined;

/** An assignee as the address or the Assignee box writes it; anything else ("anyone") is no filter. */
export function readAssignee(value: string | null): TicketAssignee | undefined {
  if (value === 'me' || value === 'none') return value;
  return value && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : undefined;
}

/** The filters an address asks for; anything unreadable falls back to its default. */
export function parseReportFilters(search: string, now: Date = new Date(), zone: string = localZone()): ReportFilters {
  const params = new URLSearchParams(search);
  const tzParam = params.get('tz');
  const tz = tzParam && isTimeZone(tzParam) ? tzParam : zone;
  const today = todayIn(tz, now);
  const fromParam = params.get('from');
  const toParam = params.get('to');
  const preset = oneOf(
    RANGE_PRESETS.map((p) => p.value),
    params.get('range'),
  );
  const custom = !preset && (fromParam !== null || toParam !== null);
  const range = custom
    ? // A missing end is filled as the server fills it (reportRange), so the page shows what it reports on.
      { from: fromParam ?? addDays(toParam ?? today, -(LIMITS.reports.defaultDays - 1)), to: toParam ?? today }
    : presetRange(preset ?? DEFAULT_PRESET, today);
  return {
    range: custom ? 'custom' : (preset ?? DEFAULT_PRESET),
    ...range,
    interval: oneOf(REPORT_INTERVALS, params.get('interval')),
    assignee: readAssignee(params.get('assignee')),
    priority: oneOf(PRIORITIES, params.get('priority')),
    category: oneOf(CATEGORIES, params.get('category')),
    tz,
  };
}

/** The address's query string for these filters; defaults are left out, so a plain /reports is the default report. */
export function reportSearch(filters: ReportFilters, zone: string = localZone()): string {
  const params = new URLSearchParams();
  if (filters.range === 'custom') {
    params.set('from', filters.from);
    params.set('to', filters.to);
  } else if (filters.range !== DEFAULT_PRESET) params.set('range', filters.range);
  if (filters.interval) params.set('interval', filters.interval);
  if (filters.assignee !== undefined) params.set('assignee', String(filters.assignee));
  if (filters.priority) params.set('priority', filters.priority);
  if (filters.category) params.set('category', filters.category);
  if (filters.tz !== zone) params.set('tz', filters.tz);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Whether a range is too long to be cut into days (the Day interval is then offered disabled). */
export const dailyAllowed = (from: string, to: string): boolean =>
  !isCalendarDate(from) || !isCalendarDate(to) || daysInRange(from, to) <= LIMITS.reports.maxDailyDays;

/**
 * The interval the time series uses: the one asked for, else the server's default for the range.
 * A range too long for days never asks for them.
 */
export function effectiveInterval({ interval, from, to }: Pick<ReportFilters, 'interval' | 'from' | 'to'>): ReportInterval {
  if (!isCalendarDate(from) || !isCalendarDate(to)) return interval ?? 'day';
  return interval ?? defaultInterval(from, to);
}

/**
 * The query the report calls send, or the message the server would refuse it with (the same rules,
 * from protocol's reportRange), so a refused range is said at once without asking.
 */
export function reportQueryOf(filters: ReportFilters, now: Date = new Date()): { query: ReportQuery } | { error: string } {
  const { from, to, tz } = filters;
  if (!isCalendarDate(from) || !isCalendarDate(to)) return { error: MESSAGES.reports.dateInvalid };
  const interval = effectiveInterval(filters);
  const checked = reportRange({ from, to, interval }, todayIn(tz, now));
  if ('error' in checked) return checked;
  return {
    query: {
      from,
      to,
      tz,
      interval,
      assignee: filters.assignee === undefined ? undefined : String(filters.assignee),
      priority: filters.priority,
      category: filters.category,
    },
  };
}

/**
 * The filters after a change from the filter bar: a preset's days are worked out (today in the
 * report's zone), and an asked-for Day interval is dropped when the range grows too long for it.
 */
export function withChange(filters: ReportFilters, change: Partial<ReportFilters>, now: Date = new Date()): ReportFilters {
  const next = { ...filters, ...change };
  if (next.range !== 'custom' && (change.range !== undefined || change.tz !== undefined)) {
    Object.assign(next, presetRange(next.range, todayIn(next.tz, now)));
  }
  if (next.interval === 'day' && !dailyAllowed(next.from, next.to)) next.interval = undefined;
  return next;
}
