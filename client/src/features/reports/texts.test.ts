import { describe, expect, it } from 'vitest';
import { durationText, percentText } from './texts';

describe('durationText', () => {
  it.each([
    [null, '—'],
    [undefined, '—'],
    [0, '< 1 m'],
    [59, '< 1 m'],
    [45 * 60, '45 m'],
    [2 * 3600 + 5 * 60 + 30, '2 h 5 m'],
    [3 * 3600, '3 h'],
    [(3 * 24 + 4) * 3600 + 59 * 60, '3 d 4 h'],
    [2 * 86_400, '2 d'],
  ])('%s seconds read "%s"', (seconds, text) => {
    expect(durationText(seconds)).toBe(text);
  });
});

describe('percentText', () => {
  it('shows the server’s decimal, or a dash when nothing was measured', () => {
    expect(percentText(92.5)).toBe('92.5%');
    expect(percentText(100)).toBe('100%');
    expect(percentText(0)).toBe('0%');
    expect(percentText(null)).toBe('—');
  });
});
