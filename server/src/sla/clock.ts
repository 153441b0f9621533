import type { SlaState } from '@helpdesk/protocol';
import { addBusinessMinutes, businessMillisBetween, type BusinessCalendar } from './businessTime.js';

/**
 * A ticket's SLA clock as stored: business time used so far and whether it runs now
 * (docs/decisions.md#service-levels). Deadlines are derived from it, never stored alone, so a
 * priority change re-targets without losing time used, a pause costs nothing and a reopen resumes.
 */
export interface SlaClock {
  /** Business milliseconds used in the stretches that have ended. */
  usedMs: number;
  /** When the running stretch began; null while paused (waiting on the customer) or stopped (resolved, closed). */
  runningSince: Date | null;
  /** The first public staff reply, which meets the first-response target. */
  firstRespondedAt: Date | null;
  /** Business milliseconds used when the first response came; null before it. */
  responseUsedMs: number | null;
}

export interface SlaTargets {
  firstResponseMinutes: number | null;
  resolutionMinutes: number | null;
  warnBeforeMinutes: number;
}

const MINUTE = 60_000;

export const startClock = (at: Date): SlaClock => ({ usedMs: 0, runningSince: at, firstRespondedAt: null, responseUsedMs: null });

/** Business time used up to `at`, the running stretch included. */
export const usedAt = (clock: SlaClock, at: Date, calendar: BusinessCalendar | null): number =>
  clock.usedMs + (clock.runningSince ? businessMillisBetween(clock.runningSince, at, calendar) : 0);

/** Pending, resolved or closed: the stretch ends and its time is kept. */
export const pauseClock = (clock: SlaClock, at: Date, calendar: BusinessCalendar | null): SlaClock =>
  clock.runningSince ? { ...clock, usedMs: usedAt(clock, at, calendar), runningSince: null } : clock;

/** Back to open or in progress (the customer answered, a reopen): time runs on from what was used. */
export const resumeClock = (clock: SlaClock, at: Date): SlaClock => (clock.runningSince ? clock : { ...clock, runningSince: at });

/** The first public staff reply; later ones change nothing. */
export const recordResponse = (clock: SlaClock, at: Date, calendar: BusinessCalendar | null): SlaClock =>
  clock.firstRespondedAt ? clock : { ...clock, firstRespondedAt: at, responseUsedMs: usedAt(clock, at, calendar) };

export interface SlaDeadlines {
  firstResponseDueAt: Date | null;
  resolutionDueAt: Date | null;
  /** When the state turns to warning: the same business time before each deadline. */
  firstResponseWarnAt: Date | null;
  resolutionWarnAt: Date | null;
}

/**
 * The deadlines of a running clock, in business time from the running stretch's start. A paused or
 * stopped clock has none; a met first response has none. A warning falls `warnBeforeMinutes` of
 * business time before its deadline (never at night), and at once when the target is shorter.
 */
export function deadlinesOf(clock: SlaClock, targets: SlaTargets, calendar: BusinessCalendar | null): SlaDeadlines {
  const { runningSince } = clock;
  const due = (minutes: number | null, used: number, before = 0): Date | null => {
    if (minutes === null || !runningSince) return null;
    const left = Math.max(0, minutes * MINUTE - used - before * MINUTE);
    return addBusinessMinutes(runningSince, left / MINUTE, calendar);
  };
  const responding = clock.firstRespondedAt === null;
  const warn = targets.warnBeforeMinutes;
  return {
    firstResponseDueAt: responding ? due(targets.firstResponseMinutes, clock.usedMs) : null,
    resolutionDueAt: due(targets.resolutionMinutes, clock.usedMs),
    firstResponseWarnAt: responding ? due(targets.firstResponseMinutes, clock.usedMs, warn) : null,
    resolutionWarnAt: due(targets.resolutionMinutes, clock.usedMs, warn),
  };
}

/** Whether a target was missed by business time used: by the response, or by what is used at `at`. */
export function breaches(clock: SlaClock, targets: SlaTargets, at: Date, calendar: BusinessCalendar | null) {
  const used = usedAt(clock, at, calendar);
  const over = (minutes: number | null, spent: number) => minutes !== null && spent > minutes * MINUTE;
  return {
    firstResponse: over(targets.firstResponseMinutes, clock.responseUsedMs ?? used),
    resolution: over(targets.resolutionMinutes, used),
  };
}

export type ClockPhase = 'running' | 'pending' | 'done';

/** The state staff see: a breach stays a breach, met once done without one. */
export function stateOf(clock: SlaClock, targets: SlaTargets, phase: ClockPhase, at: Date, calendar: BusinessCalendar | null): SlaState {
  const missed = breaches(clock, targets, at, calendar);
  if (missed.firstResponse || missed.resolution) return 'breached';
  if (phase === 'done') return 'met';
  if (phase === 'pending') return 'paused';
  const { firstResponseWarnAt, resolutionWarnAt } = deadlinesOf(clock, targets, calendar);
  const warned = [firstResponseWarnAt, resolutionWarnAt].some((warnAt) => warnAt !== null && warnAt.getTime() <= at.getTime());
  return warned ? 'warning' : 'ok';
}
