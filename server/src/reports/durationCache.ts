import { LRUCache } from 'lru-cache';
import { durationStretches, type ReportGroup, type Stretch } from '../db/queries/reports.js';
import type { Db } from '../db/client.js';
import { DURATION_BOUNDS } from './durationBuckets.js';
import { MONTH_SPAN } from './figureRows.js';
import type { Histogram } from './figures.js';
import { DURATION_KIND } from './reconcile.js';
import { nextMonthStart, type Segments } from './timeRange.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * A figure is written at its transaction's `now()`, which is never more than a transaction's length
 * behind the clock: a stretch that ended this long ago gets no more figures, but from a rebuild
 * (docs/decisions.md#past-histograms-kept-in-memory). The margin also covers the clocks of the
 * database and this process disagreeing.
 */
export const SETTLED_AFTER_MS = HOUR_MS;
/** What a process keeps at most, counted in the bytes `heldBytes` estimates. */
const KEPT_BYTES = 48 * 1024 * 1024;
/** An entry's own weight (its id, map and place in the cache), so empty stretches count too. */
const ENTRY_BYTES = 256;
const BUCKETS = DURATION_BOUNDS.length + 1;
/** A point's sums hold a histogram per kind, the kind's buckets from `kind * BUCKETS`. */
const SLOTS = (Math.max(...Object.values(DURATION_KIND)) + 1) * BUCKETS;

/** A stretch's histograms by key, each as (slot, n) pairs (db/queries/reports.ts#StretchHistogram). */
type Held = Map<string, Int32Array>;

/** About what a kept stretch takes in memory: 8 bytes a row, and each key's array. */
export const heldBytes = (h: Held): number => [...h.values()].reduce((bytes, pairs) => bytes + 64 + pairs.byteLength, ENTRY_BYTES);

/** A histogram per kind, read as `histogram(point, kind, key)`; empty when nothing was counted. */
export type HistogramsOf = (point: number, kind: number, key?: string) => Histogram;

const stretchId = (group: ReportGroup, { span, lo }: Stretch) =>
  `${group.assigneeId}|${group.priority}|${group.category}|${group.by ?? ''}|${span}|${lo.getTime()}`;

/**
 * The stretches of rows a segment is read from: each UTC month of a month segment, each UTC day of a
 * day segment, and each whole UTC day of hour rows an hour segment touches (its hours filtered when
 * summed), so a zone's edges share the days every other zone reads.
 */
function stretchesOf(span: number, lo: Date, hi: Date): Stretch[] {
  const stretches: Stretch[] = [];
  if (span === MONTH_SPAN) {
    for (let at = lo; at < hi;) {
      const next = new Date(nextMonthStart(at.getTime() + 1));
      stretches.push({ span, lo: at, hi: next });
      at = next;
    }
    return stretches;
  }
  for (let day = Math.floor(lo.getTime() / DAY_MS) * DAY_MS; day < hi.getTime(); day += DAY_MS)
    stretches.push({ span, lo: new Date(day), hi: new Date(day + DAY_MS) });
  return stretches;
}

/**
 * The duration histograms of report_durations summed per point, keeping the rows of stretches that
 * have settled in memory: past hours never change (figures are written at the hour they happen), so
 * a kept stretch needs no invalidation, on any number of processes, but for `report_rebuild()`,
 * whose generation every read checks in the same statement. A year asked again under any zone, range
 * or interval reads only its unsettled days from the database.
 */
export function createDurationCache(keptBytes = KEPT_BYTES) {
  const kept = new LRUCache<string, Held>({ maxSize: keptBytes, sizeCalculation: heldBytes });
  let generation: number | undefined;

  const read = async (db: Db, group: ReportGroup, segments: Segments, now: number): Promise<HistogramsOf> => {
    const settled = now - SETTLED_AFTER_MS;
    const needs = needsOf(segments);
    const found = new Map<string, Held>();
    const missing = new Map<string, Stretch>();
    for (const stretch of needs.flatMap((need) => need.stretches)) {
      const id = stretchId(group, stretch);
      if (found.has(id) || missing.has(id)) continue;
      const hit = kept.get(id);
      if (hit) found.set(id, hit);
      else missing.set(id, stretch);
    }
    const asked = [...missing.values()];
    const answer = await durationStretches(db, group, asked, { slots: SLOTS, buckets: BUCKETS });
    if (generation !== undefined && answer.generation !== generation) {
      // Rebuilt since these were kept: none of them can be trusted.
      kept.clear();
      generation = answer.generation;
      return read(db, group, segments, now);
    }
    generation = answer.generation;
    const fetched = asked.map((): Held => new Map());
    for (const { stretch, key, pairs } of answer.histograms) fetched[stretch]?.set(key, pairs);
    asked.forEach((stretch, i) => {
      const id = stretchId(group, stretch);
      const h = fetched[i] ?? new Map<string, Int32Array>();
      found.set(id, h);
      if (stretch.hi.getTime() <= settled) kept.set(id, h);
    });
    return sumHeld(group, needs, found);
  };
  return { read, clear: () => kept.clear() };
}

interface Need {
  point: number;
  lo: number;
  hi: number;
  stretches: Stretch[];
}

/** Each segment with the stretches it is read from. */
function needsOf(segments: Segments): Need[] {
  return segments.point.map((point, i) => {
    const [span, lo, hi] = [segments.span[i], segments.lo[i], segments.hi[i]];
    if (span === undefined || lo === undefined || hi === undefined) throw new Error('segments of unequal lengths');
    return { point, lo: lo.getTime(), hi: hi.getTime(), stretches: stretchesOf(span, lo, hi) };
  });
}

/** Adds up the held rows of each segment's stretches, an hour segment's rows within its hours only. */
function sumHeld(group: ReportGroup, needs: Need[], found: Map<string, Held>): HistogramsOf {
  const sums = new Map<string, Int32Array>();
  const sumOf = (point: number, key: string) => {
    const id = `${point}|${key}`;
    let sum = sums.get(id);
    if (!sum) sums.set(id, (sum = new Int32Array(SLOTS)));
    return sum;
  };
  for (const { point, lo, hi, stretches } of needs) {
    for (const stretch of stretches) {
      // An hour stretch is a whole UTC day: only the segment's hours of it count.
      const first = Math.max(0, Math.round((lo - stretch.lo.getTime()) / HOUR_MS));
      const end = Math.round((Math.min(hi, stretch.hi.getTime()) - stretch.lo.getTime()) / HOUR_MS);
      for (const [key, pairs] of found.get(stretchId(group, stretch)) ?? []) {
        const sum = sumOf(point, key);
        for (let p = 0; p < pairs.length; p += 2) {
          const packed = pairs[p] ?? 0;
          const hour = Math.floor(packed / SLOTS);
          if (hour < first || hour >= end) continue;
          const slot = packed % SLOTS;
          sum[slot] = (sum[slot] ?? 0) + (pairs[p + 1] ?? 0);
        }
      }
    }
  }
  return (point, kind, key = '') => {
    const histogram: Histogram = new Map();
    const sum = sums.get(`${point}|${key}`);
    if (!sum) return histogram;
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      const n = sum[kind * BUCKETS + bucket] ?? 0;
      if (n !== 0) histogram.set(bucket, n);
    }
    return histogram;
  };
}
