import { describe, expect, it } from 'vitest';
import { formatWhen } from './dates';

const now = Date.parse('2026-03-02T12:00:00.000Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('formatWhen', () => {
  it('reads the last 24 hours relative and older times as dates', () => {
    expect(formatWhen(ago(20_000), now)).toBe('just now');
    expect(formatWhen(ago(5 * 60_000), now)).toBe('5 min ago');
    expect(formatWhen(ago(2 * 3_600_000 + 59 * 60_000), now)).toBe('2 h ago');
    expect(formatWhen(ago(23 * 3_600_000), now)).toBe('23 h ago');
    expect(formatWhen(ago(25 * 3_600_000), now)).toMatch(/^Mar 1, 2026$/);
  });
});
