import { describe, expect, it } from 'vitest';
import { MONTH_SPAN, WEEK_SPAN } from './figureRows.js';
import { dayStart, pointStarts, segmentsOf } from './timeRange.js';

const read = (to: string, starts: string[], timeZone: string) => {
  const s = segmentsOf(to, starts, timeZone);
  return s.point.map((point, i) => [point, s.span[i], s.lo[i]!.toISOString(), s.hi[i]!.toISOString(), s.sign[i]]);
};

describe('pointStarts', () => {
  it('starts weeks on Mondays and months on the first, the first point at the range start', () => {
    expect(pointStarts('2025-12-25', '2026-01-13', 'week')).toEqual(['2025-12-25', '2025-12-29', '2026-01-05', '2026-01-12']);
    expect(pointStarts('2025-11-15', '2026-02-01', 'month')).toEqual(['2025-11-15', '2025-12-01', '2026-01-01', '2026-02-01']);
    expect(pointStarts('2024-02-27', '2024-03-01', 'day')).toEqual(['2024-02-27', '2024-02-28', '2024-02-29', '2024-03-01']);
    expect(pointStarts('2026-03-02', '2026-03-02', 'week')).toEqual(['2026-03-02']);
  });

  it('agrees with the calendar over a leap year and its neighbours', () => {
    const starts = pointStarts('2023-06-01', '2025-06-01', 'week').slice(1);
    expect(starts.every((day) => new Date(`${day}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    expect(starts).toHaveLength(104);
    expect(pointStarts('2023-06-01', '2025-06-01', 'day')).toHaveLength(732);
  });
});

describe('segmentsOf', () => {
  it('reads a Berlin year off twelve UTC months, plus and less the hours at its edges', () => {
    expect(read('2025-12-31', ['2025-01-01'], 'Europe/Berlin')).toEqual([
      [0, 1, '2024-12-31T23:00:00.000Z', '2025-01-01T00:00:00.000Z', 1],
      [0, MONTH_SPAN, '2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1],
      [0, 1, '2025-12-31T23:00:00.000Z', '2026-01-01T00:00:00.000Z', -1],
    ]);
    // Ending on the 10th: eleven months, a week (Monday December 1) and two days.
    expect(read('2025-12-09', ['2025-01-01'], 'UTC')).toEqual([
      [0, MONTH_SPAN, '2025-01-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z', 1],
      [0, WEEK_SPAN, '2025-12-01T00:00:00.000Z', '2025-12-08T00:00:00.000Z', 1],
      [0, 24, '2025-12-08T00:00:00.000Z', '2025-12-10T00:00:00.000Z', 1],
    ]);
  });

  it('reads a UTC month as its one month row, a month in a zone as that row less or plus the hours between', () => {
    expect(read('2026-03-31', pointStarts('2026-02-01', '2026-03-31', 'month'), 'UTC')).toEqual([
      [0, MONTH_SPAN, '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 1],
      [1, MONTH_SPAN, '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z', 1],
    ]);
    // New York's February starts at 05:00 UTC: February's row less its first five hours, plus March's.
    expect(read('2026-02-28', ['2026-02-01'], 'America/New_York')).toEqual([
      [0, 1, '2026-02-01T00:00:00.000Z', '2026-02-01T05:00:00.000Z', -1],
      [0, MONTH_SPAN, '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z', 1],
      [0, 1, '2026-03-01T00:00:00.000Z', '2026-03-01T05:00:00.000Z', 1],
    ]);
    // Half a month: a Sunday, then two weeks from Monday less their last Sunday.
    expect(read('2026-02-14', ['2026-02-01'], 'UTC')).toEqual([
      [0, 24, '2026-02-01T00:00:00.000Z', '2026-02-02T00:00:00.000Z', 1],
      [0, WEEK_SPAN, '2026-02-02T00:00:00.000Z', '2026-02-16T00:00:00.000Z', 1],
      [0, 24, '2026-02-15T00:00:00.000Z', '2026-02-16T00:00:00.000Z', -1],
    ]);
    // A month less a few days at its end: fewer rows than its days.
    expect(read('2026-01-27', ['2026-01-01'], 'UTC')).toEqual([
      [0, MONTH_SPAN, '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 1],
      [0, 24, '2026-01-28T00:00:00.000Z', '2026-02-01T00:00:00.000Z', -1],
    ]);
  });

  it('reads a zone’s day off the hour rows of the UTC days it touches, its week off the UTC week row', () => {
    // Berlin's March 2 (winter time) runs from 23:00 UTC on March 1 to 23:00 UTC on March 2.
    expect(read('2026-03-02', ['2026-03-02'], 'Europe/Berlin')).toEqual([
      [0, 1, '2026-03-01T23:00:00.000Z', '2026-03-02T23:00:00.000Z', 1],
    ]);
    // Its week from Monday March 2: the UTC week's row, plus and less the same hour at either end.
    expect(read('2026-03-08', ['2026-03-02'], 'Europe/Berlin')).toEqual([
      [0, 1, '2026-03-01T23:00:00.000Z', '2026-03-02T00:00:00.000Z', 1],
      [0, WEEK_SPAN, '2026-03-02T00:00:00.000Z', '2026-03-09T00:00:00.000Z', 1],
      [0, 1, '2026-03-08T23:00:00.000Z', '2026-03-09T00:00:00.000Z', -1],
    ]);
    // A UTC day is its day row, not its hours.
    expect(read('2026-03-02', ['2026-03-02'], 'UTC')).toEqual([[0, 24, '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z', 1]]);
  });

  it('counts every hour of a range once and no hour outside it, whatever the zone and interval', () => {
    for (const timeZone of ['UTC', 'Europe/Berlin', 'Asia/Tokyo', 'America/New_York', 'Asia/Kolkata'])
      for (const interval of ['day', 'week', 'month'] as const) {
        // Across both DST changes of the year's end (US and EU), months, weeks and days cut in each zone.
        const [from, to] = ['2025-10-15', '2026-04-04'];
        const starts = pointStarts(from, to, interval);
        const s = segmentsOf(to, starts, timeZone);
        // Each hour's count per point, from the segments' signs: 1 inside the point, 0 elsewhere.
        const counted = new Map<string, number>();
        s.point.forEach((point, i) => {
          for (let at = s.lo[i]!.getTime(); at < s.hi[i]!.getTime(); at += 3_600_000) {
            const id = `${point}|${at}`;
            counted.set(id, (counted.get(id) ?? 0) + s.sign[i]!);
          }
        });
        const bounds = [...starts, '2026-04-05'].map((day) => dayStart(day, timeZone));
        for (const [id, n] of counted) {
          const [point, at] = id.split('|').map(Number) as [number, number];
          expect(n, `${timeZone} ${interval} point ${point} hour ${new Date(at).toISOString()}`).toBe(
            at >= bounds[point]! && at < bounds[point + 1]! ? 1 : 0,
          );
        }
        const hours = [...counted.values()].reduce((sum, n) => sum + n, 0);
        expect(hours).toBe((bounds.at(-1)! - bounds[0]!) / 3_600_000);
      }
  });
});
