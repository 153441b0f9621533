import { MESSAGES } from '@helpdesk/protocol';
import { describe, expect, it } from 'vitest';
import { dailyAllowed, effectiveInterval, parseReportFilters, reportQueryOf, reportSearch, todayIn, withChange } from './reportFilters';

// 23:30 UTC on Nov 29: already Nov 30 in Tokyo, still Nov 29 in New York.
const NOW = new Date('2026-11-29T23:30:00Z');
const ZONE = 'America/New_York';
const parse = (search: string) => parseReportFilters(search, NOW, ZONE);

describe('todayIn', () => {
  it('reads the date in the zone', () => {
    expect(todayIn('Asia/Tokyo', NOW)).toBe('2026-11-30');
    expect(todayIn(ZONE, NOW)).toBe('2026-11-29');
  });
});

describe('parseReportFilters', () => {
  it('is the last 30 days in the browser’s zone without a query', () => {
    expect(parse('')).toEqual({ range: '30d', from: '2026-10-31', to: '2026-11-29', tz: ZONE });
  });

  it('reads a preset, the filters and a zone, whose today the range ends on', () => {
    expect(parse('?range=7d&interval=week&assignee=12&priority=urgent&category=billing&tz=Asia/Tokyo')).toEqual({
      range: '7d',
      from: '2026-11-24',
      to: '2026-11-30',
      interval: 'week',
      assignee: 12,
      priority: 'urgent',
      category: 'billing',
      tz: 'Asia/Tokyo',
    });
    expect(parse('?range=12m')).toMatchObject({ from: '2025-11-30', to: '2026-11-29' });
    expect(parse('?assignee=me').assignee).toBe('me');
    expect(parse('?assignee=none').assignee).toBe('none');
  });

  it('keeps a custom range as written, filling a missing end as the server does', () => {
    expect(parse('?from=2026-01-01&to=2026-03-31')).toMatchObject({ range: 'custom', from: '2026-01-01', to: '2026-03-31' });
    expect(parse('?from=2026-11-20')).toMatchObject({ range: 'custom', from: '2026-11-20', to: '2026-11-29' });
    expect(parse('?to=2026-02-28')).toMatchObject({ range: 'custom', from: '2026-01-30', to: '2026-02-28' });
  });

  it('drops what it cannot read', () => {
    expect(parse('?range=2y&interval=hour&assignee=x&priority=asap&category=misc&tz=Mars/Base')).toEqual(parse(''));
  });
});

describe('reportSearch', () => {
  it('writes nothing for the default report', () => {
    expect(reportSearch(parse(''), ZONE)).toBe('');
  });

  it.each([
    '?range=7d&interval=week&assignee=12&priority=urgent&category=billing&tz=Asia%2FTokyo',
    '?from=2026-01-01&to=2026-03-31&assignee=none',
    '?range=90d&assignee=me',
  ])('reads back what it wrote: %s', (search) => {
    expect(reportSearch(parse(search), ZONE)).toBe(search);
  });
});

describe('withChange', () => {
  it('works out a preset’s days and keeps a custom range’s', () => {
    expect(withChange(parse(''), { range: '7d' }, NOW)).toMatchObject({ range: '7d', from: '2026-11-23', to: '2026-11-29' });
    expect(withChange(parse('?range=7d'), { range: 'custom' }, NOW)).toMatchObject({
      range: 'custom',
      from: '2026-11-23',
      to: '2026-11-29',
    });
    expect(withChange(parse(''), { tz: 'Asia/Tokyo' }, NOW)).toMatchObject({ from: '2026-11-01', to: '2026-11-30' });
  });

  it('drops an asked-for Day interval once the range is too long for it', () => {
    expect(withChange(parse('?interval=day'), { range: '12m' }, NOW).interval).toBeUndefined();
    expect(withChange(parse('?interval=month'), { range: '12m' }, NOW).interval).toBe('month');
    expect(withChange(parse('?interval=day'), { range: '90d' }, NOW).interval).toBe('day');
  });
});

describe('intervals', () => {
  it('offers days up to 92 of them and defaults to weeks beyond', () => {
    expect(dailyAllowed('2026-01-01', '2026-04-02')).toBe(true);
    expect(dailyAllowed('2026-01-01', '2026-04-03')).toBe(false);
    expect(effectiveInterval(parse('?range=90d'))).toBe('day');
    expect(effectiveInterval(parse('?range=12m'))).toBe('week');
    expect(effectiveInterval(parse('?range=12m&interval=month'))).toBe('month');
  });
});

describe('reportQueryOf', () => {
  it('sends the range, the interval in use and the filters', () => {
    expect(reportQueryOf(parse('?range=7d&assignee=12&category=billing'), NOW)).toEqual({
      query: { from: '2026-11-23', to: '2026-11-29', tz: ZONE, interval: 'day', assignee: '12', priority: undefined, category: 'billing' },
    });
  });

  it.each([
    ['?from=2026-03-01&to=2026-02-01', MESSAGES.reports.startAfterEnd],
    ['?from=2024-01-01&to=2026-01-01', MESSAGES.reports.rangeTooLong],
    ['?from=2026-01-01&to=2026-06-30&interval=day', MESSAGES.reports.dailyTooLong],
    ['?from=2026-02-30&to=2026-03-01', MESSAGES.reports.dateInvalid],
  ])('refuses %s as the server would', (search, error) => {
    expect(reportQueryOf(parse(search), NOW)).toEqual({ error });
  });
});
