import { csatScoreOf, percentOf } from '@helpdesk/protocol';
import type { TotalsSum } from '../db/queries/reports.js';
import { percentileOf } from './durationBuckets.js';
import { DURATION_KIND } from './reconcile.js';

export type Histogram = Map<number, number>;

/** The sums of one point and key, the zeros when the range holds nothing there. */
export const EMPTY_TOTALS: Omit<TotalsSum, 'point' | 'key'> = {
  created: 0,
  resolved: 0,
  reopened: 0,
  assigned: 0,
  firstResponses: 0,
  resolutions: 0,
  slaResponseMet: 0,
  slaResponseMissed: 0,
  slaResolutionMet: 0,
  slaResolutionMissed: 0,
  csatGood: 0,
  csatNeutral: 0,
  csatBad: 0,
};

const slotOf = (point: number, key: string) => `${point}:${key}`;

/** Totals by point and key, read as `totals(point, key)`. */
export function totalsBy(rows: TotalsSum[]): (point: number, key?: string) => Omit<TotalsSum, 'point' | 'key'> {
  const bySlot = new Map(rows.map((row) => [slotOf(row.point, row.key), row]));
  return (point, key = '') => bySlot.get(slotOf(point, key)) ?? EMPTY_TOTALS;
}

/** The median and 90th percentile of one point's first responses and resolutions. */
export function durationFigures(histogram: (point: number, kind: number, key?: string) => Histogram, point: number, key = '') {
  const first = histogram(point, DURATION_KIND.firstResponse, key);
  const resolution = histogram(point, DURATION_KIND.resolution, key);
  return {
    firstResponseP50: percentileOf(first, 0.5),
    firstResponseP90: percentileOf(first, 0.9),
    resolutionP50: percentileOf(resolution, 0.5),
    resolutionP90: percentileOf(resolution, 0.9),
  };
}

/** The CSAT figures of summed totals. */
export function csatFigures(t: Omit<TotalsSum, 'point' | 'key'>) {
  const answers = { good: t.csatGood, neutral: t.csatNeutral, bad: t.csatBad };
  return { responses: answers.good + answers.neutral + answers.bad, ...answers, scorePct: csatScoreOf(answers) };
}

/** Share of SLA targets met among those decided. */
export const slaMetPct = (met: number, missed: number): number | null => percentOf(met, met + missed);
