import { csatScoreOf, percentOf } from '@helpdesk/protocol';
import type { Totals } from '../db/queries/reports.js';
import { percentileOf } from './durationBuckets.js';
import { DURATION_KIND } from './reconcile.js';

/** A histogram as each duration bucket's count (reports/durationBuckets.ts), indexed by bucket. */
export type Histogram = ArrayLike<number>;

/** The sums of one point and key, the zeros when the range holds nothing there. */
export const EMPTY_TOTALS: Readonly<Totals> = {
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
export function csatFigures(t: Totals) {
  const answers = { good: t.csatGood, neutral: t.csatNeutral, bad: t.csatBad };
  return { responses: answers.good + answers.neutral + answers.bad, ...answers, scorePct: csatScoreOf(answers) };
}

/** Share of SLA targets met among those decided. */
export const slaMetPct = (met: number, missed: number): number | null => percentOf(met, met + missed);
