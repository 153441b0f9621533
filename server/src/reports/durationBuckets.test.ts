import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../test/openedDatabase.js';
import { executedRows } from '../db/rows.js';
import { DURATION_BOUNDS, bucketMidpoint, durationBucket, percentileOf } from './durationBuckets.js';

describe('duration buckets (docs/decisions.md#reports-written-with-the-change)', () => {
  const opened = useOpenedDatabase();

  it('grow by about 10 % from 1 s to past a year', () => {
    expect(DURATION_BOUNDS[0]).toBe(1);
    expect(DURATION_BOUNDS.at(-1)).toBeGreaterThan(366 * 86_400);
    for (let i = 1; i < DURATION_BOUNDS.length; i++) {
      const [prev, next] = [DURATION_BOUNDS[i - 1]!, DURATION_BOUNDS[i]!];
      expect(next).toBe(Math.max(prev + 1, Math.round(prev * 1.1)));
    }
  });

  it('agree with the migration’s report_duration_bucket on every bound ±1', async () => {
    const values = [...new Set([0, ...DURATION_BOUNDS.flatMap((b) => [b - 1, b, b + 1]), 10 ** 9])];
    const rows = await executedRows(
      opened.database.db,
      sql`select s::text as seconds, report_duration_bucket(s) as bucket from unnest(${`{${values.join(',')}}`}::bigint[]) s`,
    );
    expect(rows).toHaveLength(values.length);
    for (const row of rows) expect([Number(row.seconds), row.bucket]).toEqual([Number(row.seconds), durationBucket(Number(row.seconds))]);
  });

  it('answer a percentile within 5 % of the value it stands for', () => {
    for (const seconds of [0, 1, 7, 59, 60, 3_599, 86_400, 1_000_000, 30_000_000]) {
      const mid = bucketMidpoint(durationBucket(seconds));
      expect(Math.abs(mid - seconds)).toBeLessThanOrEqual(Math.max(1, seconds * 0.05));
    }
    // 10 values of 100 s, 90 of 10 s: p50 is ~10, p90 ~10, p91 ~100.
    const histogram = new Int32Array(DURATION_BOUNDS.length + 1);
    histogram[durationBucket(10)] = 90;
    histogram[durationBucket(100)] = 10;
    expect(percentileOf(histogram, 0.5)).toBe(10);
    expect(percentileOf(histogram, 0.9)).toBe(10);
    expect(percentileOf(histogram, 0.91)).toBe(bucketMidpoint(durationBucket(100)));
    expect(percentileOf(new Int32Array(DURATION_BOUNDS.length + 1), 0.5)).toBeNull();
    // The longest durations rank last.
    expect(percentileOf(histogram, 1)).toBe(bucketMidpoint(durationBucket(100)));
  });
});
