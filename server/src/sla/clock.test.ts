import { describe, expect, it } from 'vitest';
import type { BusinessCalendar } from './businessTime.js';
import { deadlinesOf, pauseClock, recordResponse, resumeClock, startClock, stateOf, type SlaTargets } from './clock.js';

const berlin: BusinessCalendar = {
  timeZone: 'Europe/Berlin',
  hours: [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' })),
  holidays: [],
};
const at = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;
const urgent: SlaTargets = { firstResponseMinutes: 60, resolutionMinutes: 240, warnBeforeMinutes: 30 };

describe('the SLA clock', () => {
  it('gives the worked example its deadlines and warns in business time, not at night', () => {
    const clock = startClock(at('2026-01-16T15:30:00Z')); // Friday 16:30 CET
    const due = deadlinesOf(clock, urgent, berlin);
    expect(iso(due.firstResponseDueAt)).toBe('2026-01-19T08:30:00.000Z'); // Monday 09:30
    // 30 minutes of business time before 09:30 Monday is Friday 16:30 + 30 min = 17:00 Friday.
    expect(iso(due.firstResponseWarnAt)).toBe('2026-01-16T16:00:00.000Z');
    expect(iso(due.resolutionDueAt)).toBe('2026-01-19T11:30:00.000Z'); // 30 min Friday + 3.5 h Monday
  });

  it('warns at once when the target is shorter than the warning', () => {
    const clock = startClock(at('2026-01-19T08:00:00Z'));
    const short = { firstResponseMinutes: 10, resolutionMinutes: null, warnBeforeMinutes: 30 };
    expect(iso(deadlinesOf(clock, short, berlin).firstResponseWarnAt)).toBe('2026-01-19T08:00:00.000Z');
    expect(stateOf(clock, short, 'running', at('2026-01-19T08:00:00Z'), berlin)).toBe('warning');
  });

  it('lets no time pass while pending, over a weekend too', () => {
    let clock = startClock(at('2026-01-16T14:00:00Z')); // Friday 15:00: two hours used by 17:00
    clock = pauseClock(clock, at('2026-01-16T15:00:00Z'), berlin); // pending at 16:00, one hour used
    expect(clock.usedMs).toBe(60 * 60_000);
    expect(deadlinesOf(clock, urgent, berlin).resolutionDueAt).toBeNull();
    expect(stateOf(clock, urgent, 'pending', at('2026-01-21T12:00:00Z'), berlin)).toBe('paused');
    clock = resumeClock(clock, at('2026-01-21T09:00:00Z')); // the customer answers Wednesday 10:00
    // 4 h target, 1 h used: due three business hours later, 13:00 Wednesday.
    expect(iso(deadlinesOf(clock, urgent, berlin).resolutionDueAt)).toBe('2026-01-21T12:00:00.000Z');
  });

  it('resumes resolution after a reopen from the time already used', () => {
    let clock = startClock(at('2026-01-19T08:00:00Z')); // Monday 09:00
    clock = recordResponse(clock, at('2026-01-19T08:30:00Z'), berlin);
    clock = pauseClock(clock, at('2026-01-19T11:00:00Z'), berlin); // resolved at 12:00: 3 h used
    expect(stateOf(clock, urgent, 'done', at('2026-01-19T11:00:00Z'), berlin)).toBe('met');
    clock = resumeClock(clock, at('2026-01-20T08:00:00Z')); // reopened Tuesday 09:00
    expect(iso(deadlinesOf(clock, urgent, berlin).resolutionDueAt)).toBe('2026-01-20T09:00:00.000Z');
  });

  it('re-targets on a priority change without losing the time used', () => {
    const clock = startClock(at('2026-01-19T08:00:00Z'));
    const later = pauseClock(clock, at('2026-01-19T10:00:00Z'), berlin); // 2 h used
    const running = resumeClock(later, at('2026-01-19T10:00:00Z'));
    const low = { firstResponseMinutes: 480, resolutionMinutes: 960, warnBeforeMinutes: 30 };
    expect(iso(deadlinesOf(running, low, berlin).firstResponseDueAt)).toBe('2026-01-19T16:00:00.000Z'); // 6 h left: 17:00
    expect(iso(deadlinesOf(running, urgent, berlin).firstResponseDueAt)).toBe('2026-01-19T10:00:00.000Z'); // already due
    expect(stateOf(running, urgent, 'running', at('2026-01-19T10:00:01Z'), berlin)).toBe('breached');
  });

  it('is met by the first public reply only, and a late one stays a breach', () => {
    let clock = startClock(at('2026-01-19T08:00:00Z'));
    clock = recordResponse(clock, at('2026-01-19T08:45:00Z'), berlin);
    const again = recordResponse(clock, at('2026-01-19T09:30:00Z'), berlin);
    expect(again).toBe(clock);
    expect(deadlinesOf(clock, urgent, berlin).firstResponseDueAt).toBeNull();
    expect(stateOf(clock, urgent, 'running', at('2026-01-19T09:00:00Z'), berlin)).toBe('ok');

    const late = recordResponse(startClock(at('2026-01-19T08:00:00Z')), at('2026-01-19T09:30:00Z'), berlin);
    expect(stateOf(late, urgent, 'running', at('2026-01-19T09:31:00Z'), berlin)).toBe('breached');
    expect(stateOf(pauseClock(late, at('2026-01-19T10:00:00Z'), berlin), urgent, 'done', at('2026-01-19T10:00:00Z'), berlin)).toBe(
      'breached',
    );
  });

  it('runs around the clock without a calendar', () => {
    const clock = startClock(at('2026-01-17T23:30:00Z')); // a Saturday night
    expect(iso(deadlinesOf(clock, urgent, null).firstResponseDueAt)).toBe('2026-01-18T00:30:00.000Z');
  });
});
