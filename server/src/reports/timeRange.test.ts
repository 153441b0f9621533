import { describe, expect, it } from 'vitest';
import { MONTH_SPAN } from './figureRows.js';
import { pointStarts, segmentsOf } from './timeRange.js';

const read = (to: string, starts: string[], timeZone: string) => {
  const s = segmentsOf(to, starts, timeZone);
  return s.point.map((point, i) => [point, s.span[i], s.lo[i]!.toISOString(), s.hi[i]!.toISOString()]);
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
  it('reads a Berlin year off eleven UTC months, the days and hours at its edges', () => {
    expect(read('2025-12-31', ['2025-01-01'], 'Europe/Berlin')).toEqual([
      [0, 1, '2024-12-31T23:00:00.000Z', '2025-01-01T00:00:00.000Z'],
      [0, MONTH_SPAN, '2025-01-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z'],
      [0, 24, '2025-12-01T00:00:00.000Z', '2025-12-31T00:00:00.000Z'],
      [0, 1, '2025-12-31T00:00:00.000Z', '2025-12-31T23:00:00.000Z'],
    ]);
  });

  it('reads a UTC month as its one month row, and a month that holds no whole UTC month by days', () => {
    expect(read('2026-03-31', pointStarts('2026-02-01', '2026-03-31', 'month'), 'UTC')).toEqual([
      [0, MONTH_SPAN, '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
      [1, MONTH_SPAN, '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    ]);
    // New York's February starts at 05:00 UTC: its whole UTC days, then the hours either side.
    expect(read('2026-02-28', ['2026-02-01'], 'America/New_York')).toEqual([
      [0, 1, '2026-02-01T05:00:00.000Z', '2026-02-02T00:00:00.000Z'],
      [0, 24, '2026-02-02T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
      [0, 1, '2026-03-01T00:00:00.000Z', '2026-03-01T05:00:00.000Z'],
    ]);
  });

  it('covers every hour of a range once, whatever the zone', () => {
    for (const timeZone of ['UTC', 'Asia/Tokyo', 'America/New_York', 'Asia/Kolkata']) {
      const starts = pointStarts('2025-03-15', '2026-03-14', 'week');
      const s = segmentsOf('2026-03-14', starts, timeZone);
      for (let i = 1; i < s.lo.length; i++) expect(s.lo[i]!.getTime()).toBe(s.hi[i - 1]!.getTime());
      expect(new Set(s.point).size).toBe(starts.length);
    }
  });
});
