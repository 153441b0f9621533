import {
  BACKLOG_AGES,
  addDays,
  CATEGORIES,
  PRIORITIES,
  type AgentReport,
  type BacklogBucket,
  type BreakdownRow,
  type ParsedReportQuery,
  type ReportPoint,
  type ReportSummary,
} from '@helpdesk/protocol';
import { backlogNow, reportAgents, reportAssignees, sumRecentBacklog, type ReportGroup } from '../db/queries/reports.js';
import type { Actor } from '../lib/actor.js';
import { createFigureCache } from '../reports/figureCache.js';
import { csatFigures, durationFigures, slaMetPct } from '../reports/figures.js';
import { percentileOf } from '../reports/durationBuckets.js';
import { DURATION_KIND, isBacklogStatus } from '../reports/reconcile.js';
import { resolveReport, type ResolvedReport } from '../reports/reportQuery.js';
import { ticketsCsv } from '../reports/ticketsCsv.js';
import { dayStart, pointStarts, segmentsOf } from '../reports/timeRange.js';
import type { ServiceContext } from './context.js';

const DAY_MS = 86_400_000;
/** The last instant the database's timestamps can be written in as ISO text (a year of four digits). */
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Reports (docs/api.md#reports), read from the figures written with each change (migration 0037):
 * a year reads one grouping set's month rows plus the days and hours at its edges, never the tickets,
 * and the figures of stretches long past from memory (reports/figureCache.ts).
 */
export function createReportService({ db, logger }: Pick<ServiceContext, 'db' | 'logger'>, defaultTimeZone: string) {
  /** `interval` cuts a time series only: the other reports ignore it, and its limit on daily ranges. */
  const resolve = (actor: Actor, query: ParsedReportQuery, series = false): ResolvedReport =>
    resolveReport(series ? query : { ...query, interval: undefined }, actor, defaultTimeZone);
  const figures = createFigureCache();
  /** The range as one point, its totals and histograms under `group`. */
  const wholeRange = (r: ResolvedReport, group: ReportGroup) => figures.read(db, group, segmentsOf(r.to, [r.from], r.timeZone), Date.now());
  const backlogBy = async (group: ReportGroup) => {
    const counts = new Map<string, number>();
    for (const row of await backlogNow(db, group)) counts.set(row.key, row.n);
    return (key = '') => counts.get(key) ?? 0;
  };

  return {
    resolve,

    async summary(actor: Actor, query: ParsedReportQuery): Promise<ReportSummary> {
      const r = resolve(actor, query);
      const [{ totals, histogram }, backlog] = await Promise.all([wholeRange(r, r.group), backlogBy(r.group)]);
      const t = totals(0);
      const first = histogram(0, DURATION_KIND.firstResponse);
      const resolution = histogram(0, DURATION_KIND.resolution);
      return {
        created: t.created,
        resolved: t.resolved,
        reopened: t.reopened,
        backlog: backlog(),
        firstResponse: { count: t.firstResponses, p50: percentileOf(first, 0.5), p90: percentileOf(first, 0.9) },
        resolution: { count: t.resolutions, p50: percentileOf(resolution, 0.5), p90: percentileOf(resolution, 0.9) },
        sla: {
          firstResponseMetPct: slaMetPct(t.slaResponseMet, t.slaResponseMissed),
          resolutionMetPct: slaMetPct(t.slaResolutionMet, t.slaResolutionMissed),
        },
        csat: csatFigures(t),
      };
    },

    async timeseries(actor: Actor, query: ParsedReportQuery): Promise<{ interval: ResolvedReport['interval']; points: ReportPoint[] }> {
      const r = resolve(actor, query, true);
      const starts = pointStarts(r.from, r.to, r.interval);
      const segments = segmentsOf(r.to, starts, r.timeZone);
      const { totals, histogram } = await figures.read(db, r.group, segments, Date.now());
      return {
        interval: r.interval,
        points: starts.map((start, point) => {
          const t = totals(point);
          return {
            start,
            created: t.created,
            resolved: t.resolved,
            reopened: t.reopened,
            ...durationFigures(histogram, point),
            csatScorePct: csatFigures(t).scorePct,
          };
        }),
      };
    },

    /** Tickets not resolved or closed now, by age since creation; the range plays no part. */
    async backlog(actor: Actor, query: ParsedReportQuery, now: Date = new Date()): Promise<BacklogBucket[]> {
      const r = resolve(actor, query);
      const bounds = BACKLOG_AGES.slice(1).map(({ fromDays }) => new Date(now.getTime() - fromDays * DAY_MS));
      const [rows, totals] = await Promise.all([sumRecentBacklog(db, r.group, bounds), backlogNow(db, r.group, true)]);
      const buckets = BACKLOG_AGES.map(({ label }): BacklogBucket => ({ label, open: 0, in_progress: 0, pending: 0 }));
      for (const row of rows) {
        const bucket = buckets[row.age];
        if (bucket && isBacklogStatus(row.status)) bucket[row.status] += row.n;
      }
      // The oldest bucket: what the counters hold beyond the recent weeks (the two are kept in the
      // same transaction, so they agree; a test checks the buckets add up to the summary's backlog).
      const oldest = buckets.at(-1);
      for (const { key, n } of totals) {
        if (!oldest || !isBacklogStatus(key)) continue;
        const recent = buckets.slice(0, -1).reduce((sum, bucket) => sum + bucket[key], 0);
        oldest[key] = Math.max(0, n - recent);
      }
      return buckets;
    },

    async breakdown(actor: Actor, query: ParsedReportQuery) {
      const r = resolve(actor, query);
      const rowsBy = async <K extends string>(by: 'priority' | 'category', keys: readonly K[]): Promise<(BreakdownRow & { key: K })[]> => {
        const group = { ...r.group, by };
        const [{ totals, histogram }, backlog] = await Promise.all([wholeRange(r, group), backlogBy(group)]);
        const shown = r.group[by] === '' ? keys : keys.filter((key) => key === r.group[by]);
        return shown.map((key) => {
          const figures = durationFigures(histogram, 0, key);
          return {
            key,
            created: totals(0, key).created,
            resolved: totals(0, key).resolved,
            backlog: backlog(key),
            firstResponseP50: figures.firstResponseP50,
            resolutionP50: figures.resolutionP50,
          };
        });
      };
      const [priority, category] = [await rowsBy('priority', PRIORITIES), await rowsBy('category', CATEGORIES)];
      return { priority, category };
    },

    /** Every staff account, and anyone else with figures in the range as an assignee (admins only). */
    async agents(actor: Actor, query: ParsedReportQuery): Promise<AgentReport[]> {
      const r = resolve(actor, query);
      const assignees = r.group.assigneeId === -1 ? await reportAssignees(db) : [];
      const { totals, histogram, keys } = await wholeRange(r, { ...r.group, by: 'assignee', assignees });
      const withFigures = keys.map(Number);
      const people = await reportAgents(db, withFigures);
      const filtered = r.group.assigneeId === -1 ? people : people.filter((p) => p.id === r.group.assigneeId);
      return filtered
        .filter((person) => person.staff || withFigures.includes(person.id))
        .map(({ id, name }) => {
          const key = String(id);
          const t = totals(0, key);
          const figures = durationFigures(histogram, 0, key);
          return {
            agent: { id, name },
            assigned: t.assigned,
            resolved: t.resolved,
            firstResponseP50: figures.firstResponseP50,
            resolutionP50: figures.resolutionP50,
            slaMetPct: slaMetPct(t.slaResponseMet + t.slaResolutionMet, t.slaResponseMissed + t.slaResolutionMissed),
            csatScorePct: csatFigures(t).scorePct,
          };
        });
    },

    /** The tickets created in the range as a CSV stream (admins only), and the file's name. */
    ticketsCsv(actor: Actor, query: ParsedReportQuery) {
      const r = resolve(actor, query);
      // A range may end on 9999-12-31, whose next midnight is a year the database cannot read.
      const hi = Math.min(dayStart(addDays(r.to, 1), r.timeZone), LAST_INSTANT);
      const range = { lo: new Date(dayStart(r.from, r.timeZone)), hi: new Date(hi) };
      return {
        filename: `tickets-${r.from}-to-${r.to}.csv`,
        stream: ticketsCsv(db, r.group, range, {
          onError: (err) => logger.warn({ err, from: r.from, to: r.to }, 'report export ended early'),
        }),
      };
    },
  };
}
export type ReportService = ReturnType<typeof createReportService>;
