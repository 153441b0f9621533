import { describe, expect, it } from 'vitest';
import { durationUnit, periodLabel } from './ReportCharts';

describe('durationUnit', () => {
  it('counts in hours, or in days once the longest time reaches three days', () => {
    expect(durationUnit([]).name).toBe('hours');
    expect(durationUnit([null, 3600, 2 * 86_400]).name).toBe('hours');
    expect(durationUnit([3600, null, 3 * 86_400])).toEqual({ name: 'days', short: 'd', seconds: 86_400 });
  });
});

describe('periodLabel', () => {
  it('names an interval short on the axis and in full in the table', () => {
    expect(periodLabel('2026-11-23', 'day')).toBe('Nov 23');
    expect(periodLabel('2026-11-23', 'day', true)).toBe('Mon, Nov 23, 2026');
    expect(periodLabel('2026-11-23', 'week', true)).toBe('Week of Nov 23, 2026');
    expect(periodLabel('2026-11-01', 'month')).toBe('Nov 2026');
    expect(periodLabel('2026-11-01', 'month', true)).toBe('November 2026');
  });
});
