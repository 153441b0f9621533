import { LRUCache } from 'lru-cache';
import { figureStretches, TOTAL_COUNTERS, type ReportGroup, type Stretch, type Totals } from '../db/queries/reports.js';
import type { Db } from '../db/client.js';
import { DURATION_BOUNDS } from './durationBuckets.js';
import { MONTH_SPAN } from './figureRows.js';
import { EMPTY_TOTALS, type Histogram } from './figures.js';
import { DURATION_KIND } from './reconcile.js';
import { nextMonthStart, type Segments } from './timeRange.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * A figure is written at its transaction's `now()`, which is never more than a transaction's length
 * behind the clock: a stretch that ended this long ago gets no more figures, but from a rebuild or a
 * change that moves a count of a past hour, both of which move the generation
 * (docs/decisions.md#past-figures-kept-in-memory). The margin also covers the clocks of the database
 * and this process disagreeing.
 */
export const SETTLED_AFTER_MS = HOUR_MS;

/**
 * A figure counted at `at` by a change at `now` lands where a process may keep it already (half the
 * settling time: a stretch kept ended an hour before its reader's clock, which no transaction spans),
 * so the change must move the generation (reports/recordFigures.ts).
 */
export const landsInSettled = (at: Date, now: number): boolean => at.getTime() <= now - SETTLED_AFTER_MS / 2;
/** What a process keeps at most, counted in the bytes `heldBytes` estimates. */
const KEPT_BYTES = 48 * 1024 * 1024;
/** An entry's own weight (its id, map and place in the cache), so empty stretches count too. */
const ENTRY_BYTES = 256;
const BUCKETS = DURATION_BOUNDS.length + 1;
/** A point's sums hold the totals (kind 0) and a histogram per kind, each kind's buckets from `kind * BUCKETS`. */
const SLOTS = (Math.max(...Object.values(DURATION_KIND)) + 1) * BUCKETS;
if (TOTAL_COUNTERS.length > BUCKETS) throw new Error('the totals do not fit in kind 0');

const NO_COUNTS: Histogram = new Int32Array(BUCKETS);

/** A stretch's figures by key, each as (slot, n) pairs (db/queries/reports.ts#FigureLayout). */
type Held = Map<string, Int32Array>;

/** About what a kept stretch takes in memory: 8 bytes a row, and each key's array. */
export const heldBytes = (h: Held): number => [...h.values()].reduce((bytes, pairs) => bytes + 64 + pairs.byteLength, ENTRY_BYTES);

/** What the points of a question sum to, each read by point and key ('' without `by`). */
export interface PointFigures {
  totals: (point: number, key?: string) => Totals;
  /** A histogram per kind, each bucket's count; all zeros when nothing was counted. */
  histogram: (point: number, kind: number, key?: string) => Histogram;
  /** The keys with any figure at any point. */
  keys: string[];
}

const stretchId = (group: ReportGroup, { span, lo }: Stretch) =>
  `${group.assigneeId}|${group.priority}|${group.category}|${group.by ?? ''}|${span}|${lo.getTime()}`;

/**
 * The stretches of rows a segment is read from: each UTC month, week or day of it, as its span says,
 * and for hours each whole UTC day of hour rows it touches (its hours picked out when summed), so
 * the edges of every zone's days share the days they fall in.
 */
function stretchesOf(span: number, lo: Date, hi: Date): Stretch[] {
  const stretches: Stretch[] = [];
  const first = span === 1 ? Math.floor(lo.getTime() / DAY_MS) * DAY_MS : lo.getTime();
  for (let at = first; at < hi.getTime();) {
    const next = span === MONTH_SPAN ? nextMonthStart(at + 1) : at + (span === 1 ? DAY_MS : span * HOUR_MS);
    stretches.push({ span, lo: new Date(at), hi: new Date(next) });
    at = next;
  }
  return stretches;
}

/**
 * The report figures (report_totals' counts and report_durations' histograms) summed per point,
 * keeping the rows of stretches that have settled in memory: past hours get no more figures (a
 * figure is written at the hour it happens), so a kept stretch needs no invalidation, on any number
 * of processes, but for what moves the generation (a rebuild, a changed survey answer), which every
 * read checks in the same statement. A year asked again under any zone, range or interval reads only
 * its unsettled days from the database.
 */
export function createFigureCache(keptBytes = KEPT_BYTES) {
  const kept = new LRUCache<string, Held>({ maxSize: keptBytes, sizeCalculation: heldBytes });
  let generation: number | undefined;

  const read = async (db: Db, group: ReportGroup, segments: Segments, now: number): Promise<PointFigures> => {
    const settled = now - SETTLED_AFTER_MS;
    const needs = needsOf(group, segments);
    const found = new Map<string, Held>();
    const missing = new Map<string, Stretch>();
    for (const { stretches, ids } of needs)
      stretches.forEach((stretch, j) => {
        const id = ids[j] ?? '';
        if (found.has(id) || missing.has(id)) return;
        const hit = kept.get(id);
        if (hit) found.set(id, hit);
        else missing.set(id, stretch);
      });
    const asked = [...missing.values()];
    const answer = await figureStretches(db, group, asked, { slots: SLOTS, buckets: BUCKETS });
    if (generation !== undefined && answer.generation !== generation) {
      // A past hour changed since these were kept: none of them can be trusted.
      kept.clear();
      generation = answer.generation;
      return read(db, group, segments, now);
    }
    generation = answer.generation;
    const fetched = asked.map((): Held => new Map());
    for (const { stretch, key, pairs } of answer.figures) fetched[stretch]?.set(key, pairs);
    asked.forEach((stretch, i) => {
      const id = stretchId(group, stretch);
      const h = fetched[i] ?? new Map<string, Int32Array>();
      found.set(id, h);
      if (stretch.hi.getTime() <= settled) kept.set(id, h);
    });
    return sumHeld(needs, found);
  };
  return { read, clear: () => kept.clear() };
}

interface Need {
  point: number;
  lo: number;
  hi: number;
  /** 1 to add the figures, -1 to take them away. */
  sign: number;
  stretches: Stretch[];
  /** Each stretch's id (stretchId), built once. */
  ids: string[];
}

/** Each segment with the stretches it is read from. */
function needsOf(group: ReportGroup, segments: Segments): Need[] {
  return segments.point.map((point, i) => {
    const [span, lo, hi, sign] = [segments.span[i], segments.lo[i], segments.hi[i], segments.sign[i]];
    if (span === undefined || lo === undefined || hi === undefined || sign === undefined) throw new Error('segments of unequal lengths');
    const stretches = stretchesOf(span, lo, hi);
    return { point, lo: lo.getTime(), hi: hi.getTime(), sign, stretches, ids: stretches.map((stretch) => stretchId(group, stretch)) };
  });
}

/** The index in `pairs` (sorted by slot) of the first pair whose slot is `from` or later. */
function firstPairFrom(pairs: Int32Array, from: number): number {
  let [lo, hi] = [0, pairs.length / 2];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((pairs[mid * 2] ?? 0) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo * 2;
}

/**
 * Adds up (or takes away) the held rows of each segment's stretches, an hour segment's rows within
 * its hours only: the pairs come sorted by slot, hour first, so those hours are one run of them.
 */
function sumHeld(needs: Need[], found: Map<string, Held>): PointFigures {
  const sums = new Map<string, Int32Array>();
  const sumOf = (point: number, key: string) => {
    const id = `${point}|${key}`;
    let sum = sums.get(id);
    if (!sum) sums.set(id, (sum = new Int32Array(SLOTS)));
    return sum;
  };
  for (const { point, lo, hi, sign, stretches, ids } of needs)
    stretches.forEach((stretch, j) => {
      const from = Math.max(0, Math.round((lo - stretch.lo.getTime()) / HOUR_MS)) * SLOTS;
      const to = Math.round((Math.min(hi, stretch.hi.getTime()) - stretch.lo.getTime()) / HOUR_MS) * SLOTS;
      for (const [key, pairs] of found.get(ids[j] ?? '') ?? []) {
        // Taken at the first pair counted: a key outside the segment's hours gets no sum.
        let sum: Int32Array | undefined;
        for (let p = from === 0 ? 0 : firstPairFrom(pairs, from); p < pairs.length; p += 2) {
          const packed = pairs[p] ?? 0;
          if (packed >= to) break;
          const slot = packed % SLOTS;
          sum ??= sumOf(point, key);
          sum[slot] = (sum[slot] ?? 0) + sign * (pairs[p + 1] ?? 0);
        }
      }
    });
  // A key with figures only in what was taken away has none in the range.
  const keys = new Set<string>();
  for (const [id, sum] of sums) if (sum.some((n) => n !== 0)) keys.add(id.slice(id.indexOf('|') + 1));
  // A view of the point's sums, not a copy.
  const histogram = (point: number, kind: number, key = ''): Histogram =>
    sums.get(`${point}|${key}`)?.subarray(kind * BUCKETS, (kind + 1) * BUCKETS) ?? NO_COUNTS;
  const totals = (point: number, key = ''): Totals => {
    const sum = sums.get(`${point}|${key}`);
    if (!sum) return EMPTY_TOTALS;
    const t = { ...EMPTY_TOTALS };
    TOTAL_COUNTERS.forEach(([name], i) => (t[name] = sum[i] ?? 0));
    return t;
  };
  return { totals, histogram, keys: [...keys] };
}
