import { defaultInterval, reportRange, type ParsedReportQuery, type ReportInterval } from '@helpdesk/protocol';
import type { ReportGroup } from '../db/queries/reports.js';
import type { Actor } from '../lib/actor.js';
import { ValidationError } from '../lib/errors.js';
import { todayIn } from './timeRange.js';

/** A report call made concrete: its days, zone, interval and grouping set. */
export interface ResolvedReport {
  from: string;
  to: string;
  timeZone: string;
  interval: ReportInterval;
  group: ReportGroup;
}

/**
 * The range a call covers, in its time zone (`tz`, else REPORT_TIME_ZONE), or the 400 that refuses
 * it; `assignee=me` is the caller, `none` the unassigned (0), no assignee every ticket (-1).
 */
export function resolveReport(query: ParsedReportQuery, actor: Actor, defaultTimeZone: string, now: Date = new Date()): ResolvedReport {
  const timeZone = query.tz ?? defaultTimeZone;
  const range = reportRange(query, todayIn(timeZone, now));
  if ('error' in range) throw new ValidationError(range.error);
  const { assignee } = query;
  return {
    ...range,
    timeZone,
    interval: query.interval ?? defaultInterval(range.from, range.to),
    group: {
      assigneeId: assignee === undefined ? -1 : assignee === 'me' ? actor.id : assignee === 'none' ? 0 : assignee,
      priority: query.priority ?? '',
      category: query.category ?? '',
    },
  };
}
