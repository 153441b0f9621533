import { describe, expect, it } from 'vitest';
import { countdown, formatSpan, type SlaClock } from './countdown';

const NOW = Date.parse('2026-01-16T10:00:00Z');
const at = (minutes: number, seconds = 0) => new Date(NOW + minutes * 60_000 + seconds * 1000).toISOString();
const sla = (overrides: Partial<SlaClock> = {}): SlaClock => ({
  firstResponseDueAt: at(60),
  resolutionDueAt: at(480),
  firstRespondedAt: null,
  state: 'ok',
  ...overrides,
});

describe('formatSpan', () => {
  it.each([
    [30_000, 'up', '1 m'],
    [30_000, 'down', '< 1 m'],
    [0, 'down', '< 1 m'],
    [12 * 60_000, 'down', '12 m'],
    [59 * 60_000, 'up', '59 m'],
    [60 * 60_000, 'up', '1 h'],
    [125 * 60_000, 'up', '2 h 5 m'],
    [124 * 60_000 + 1, 'up', '2 h 5 m'],
    [124 * 60_000 + 59_000, 'down', '2 h 4 m'],
    [24 * 60 * 60_000, 'up', '1 d'],
    [(3 * 24 + 4) * 60 * 60_000 + 59 * 60_000, 'down', '3 d 4 h'],
  ] as const)('%i ms rounded %s reads "%s"', (ms, round, text) => {
    expect(formatSpan(ms, round)).toBe(text);
  });
});

describe('countdown', () => {
  it('counts to the first response until someone answered, rounding the time left up to the minute', () => {
    expect(countdown(sla({ firstResponseDueAt: at(125) }), NOW, 'open')).toEqual({
      tone: 'ok',
      text: '2 h 5 m',
      description: 'First response due in 2 h 5 m',
      dueAt: at(125),
    });
    expect(countdown(sla(), NOW + 59 * 60_000 + 30_000, 'open').text).toBe('1 m');
  });

  it('counts to the resolution once the first response was given', () => {
    const shown = countdown(sla({ firstRespondedAt: at(-5) }), NOW, 'open');
    expect(shown).toMatchObject({ tone: 'ok', text: '8 h', description: 'Resolution due in 8 h', dueAt: at(480) });
  });

  it('counts to the resolution when the policy has no first-response target', () => {
    expect(countdown(sla({ firstResponseDueAt: null }), NOW, 'open').description).toBe('Resolution due in 8 h');
  });

  it('is amber when the server marked the warning, with the time still counting', () => {
    expect(countdown(sla({ state: 'warning', firstResponseDueAt: at(20) }), NOW, 'open')).toMatchObject({ tone: 'warning', text: '20 m' });
  });

  it('turns red with whole minutes over as soon as the deadline passes, before the server marks the breach', () => {
    expect(countdown(sla({ state: 'warning', firstResponseDueAt: at(0) }), NOW, 'open')).toMatchObject({
      tone: 'breached',
      text: 'Overdue < 1 m',
      description: 'First response overdue by < 1 m',
    });
    expect(countdown(sla({ state: 'breached', firstResponseDueAt: at(-12, -40) }), NOW, 'open')).toMatchObject({
      tone: 'breached',
      text: 'Overdue 12 m',
      description: 'First response overdue by 12 m',
    });
  });

  it('believes the server’s breach over a browser clock still short of the deadline', () => {
    expect(countdown(sla({ state: 'breached', firstResponseDueAt: at(0, 1) }), NOW, 'open')).toMatchObject({
      tone: 'breached',
      text: 'Overdue < 1 m',
      description: 'First response overdue by < 1 m',
    });
  });

  it('stays red for a breached first response while the resolution clock still runs', () => {
    expect(countdown(sla({ state: 'breached', firstRespondedAt: at(-1), firstResponseDueAt: at(-30) }), NOW, 'open')).toMatchObject({
      tone: 'breached',
      text: '8 h',
      description: 'Resolution due in 8 h',
    });
  });

  it('is grey and says Paused while waiting on the customer, whatever the clock says', () => {
    expect(countdown(sla({ state: 'paused', firstResponseDueAt: at(-30) }), NOW, 'open')).toMatchObject({
      tone: 'paused',
      text: 'Paused',
      description: 'Service level paused while waiting on the customer',
    });
    // The server holds no running deadline while paused.
    expect(countdown(sla({ state: 'paused', firstResponseDueAt: null, resolutionDueAt: null }), NOW, 'open').text).toBe('Paused');
  });

  it('says Met when met, and when nothing is left to count to', () => {
    expect(countdown(sla({ state: 'met' }), NOW, 'open')).toEqual({
      tone: 'met',
      text: 'Met',
      description: 'Service level met',
      dueAt: null,
    });
    expect(countdown(sla({ firstRespondedAt: at(-1), resolutionDueAt: null }), NOW, 'open').text).toBe('Met');
    expect(countdown(sla({ state: 'breached', firstRespondedAt: at(-1), resolutionDueAt: null }), NOW, 'open')).toMatchObject({
      tone: 'breached',
      text: 'Breached',
    });
  });

  it('says Breached, without counting, on a resolved or closed ticket that kept a missed deadline', () => {
    for (const status of ['resolved', 'closed'] as const) {
      const missed = sla({ state: 'breached', firstRespondedAt: at(-100), resolutionDueAt: at(-21) });
      expect(countdown(missed, NOW, status)).toEqual({
        tone: 'breached',
        text: 'Breached',
        description: 'Service level breached',
        dueAt: at(-21),
      });
      // An hour on, it reads the same.
      expect(countdown(missed, NOW + 60 * 60_000, status).text).toBe('Breached');
    }
    // Reopened, the clock runs on and the overdue time counts again.
    expect(countdown(sla({ state: 'breached', firstRespondedAt: at(-100), resolutionDueAt: at(-21) }), NOW, 'open').text).toBe(
      'Overdue 21 m',
    );
  });
});
