/**
 * The histogram buckets of report durations (docs/decisions.md#reports-written-with-the-change): fixed
 * whole-second bounds growing by about 10 %, from 1 s to past a year. A value's bucket is what SQL's
 * `width_bucket(seconds, bounds)` answers: 0 below the first bound, i when bounds[i-1] <= seconds <
 * bounds[i], bounds.length at or past the last. Migration 0037's `report_duration_bucket(seconds)`
 * holds the same bounds as a literal; durationBuckets.test.ts checks that they agree.
 */
const YEAR_SECONDS = 366 * 86_400;

function makeBounds(): readonly number[] {
  const bounds = [1];
  for (let bound = 1; bound <= YEAR_SECONDS;) {
    bound = Math.max(bound + 1, Math.round(bound * 1.1));
    bounds.push(bound);
  }
  return bounds;
}

export const DURATION_BOUNDS: readonly number[] = makeBounds();

/** The bucket of a duration in whole seconds, as width_bucket answers it. */
export function durationBucket(seconds: number): number {
  let lo = 0;
  let hi = DURATION_BOUNDS.length;
  // The number of bounds <= seconds.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((DURATION_BOUNDS[mid] ?? Infinity) <= seconds) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The value a bucket stands for: the middle of the whole seconds it holds (its lower bound for the last). */
export function bucketMidpoint(bucket: number): number {
  if (bucket <= 0) return 0;
  const lo = DURATION_BOUNDS[bucket - 1] ?? 0;
  const hi = DURATION_BOUNDS[bucket];
  return hi === undefined ? lo : Math.round((lo + hi - 1) / 2);
}

/**
 * The p-th percentile (0 < p <= 1) of a histogram given as each bucket's count: the midpoint of the
 * bucket holding rank ceil(p · count). null when the histogram is empty.
 */
export function percentileOf(counts: ArrayLike<number>, p: number): number | null {
  let total = 0;
  for (let bucket = 0; bucket < counts.length; bucket++) total += counts[bucket] ?? 0;
  if (total <= 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (let bucket = 0; bucket < counts.length; bucket++) {
    seen += counts[bucket] ?? 0;
    if (seen >= rank) return bucketMidpoint(bucket);
  }
  return null;
}
