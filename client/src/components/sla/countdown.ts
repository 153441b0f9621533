import type { SlaState, TicketSla, TicketStatus } from '@helpdesk/protocol';

/**
 * What a ticket's service-level badge says, from the deadlines the server stored and the time now.
 * The browser counts down by itself (wall-clock time to the deadline); the server sends only the
 * changes of state (warning, breach, pause, met), never a tick.
 */

/** What the countdown reads of a ticket's `sla` (docs/api.md#service-levels). */
export type SlaClock = Pick<TicketSla, 'firstResponseDueAt' | 'resolutionDueAt' | 'firstRespondedAt' | 'state'>;

/** The badge's colour: amber on warning, red on breach, grey while paused. */
export type SlaTone = SlaState;

export interface Countdown {
  tone: SlaTone;
  /** What the badge shows: "2 h 5 m", "Overdue 12 m", "Paused", "Met". */
  text: string;
  /** The whole sentence for a screen reader and the hover title: "Resolution due in 2 h 5 m". */
  description: string;
  /** The deadline counted to, if any. */
  dueAt: string | null;
}

const MINUTE = 60_000;

/**
 * A duration in whole units, largest two: "45 m", "2 h 5 m", "2 h", "3 d 4 h". Under a minute
 * reads "< 1 m", so the badge never says "0 m" while time is left or just gone.
 */
export function formatSpan(ms: number, round: 'up' | 'down'): string {
  const minutes = round === 'up' ? Math.ceil(ms / MINUTE) : Math.floor(ms / MINUTE);
  if (minutes < 1) return '< 1 m';
  if (minutes < 60) return `${minutes} m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} m`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** The deadline still running: the first response until someone answered, then the resolution. */
export function openDeadline(sla: SlaClock): { kind: 'firstResponse' | 'resolution'; dueAt: string } | null {
  if (sla.firstRespondedAt === null && sla.firstResponseDueAt !== null) return { kind: 'firstResponse', dueAt: sla.firstResponseDueAt };
  if (sla.resolutionDueAt !== null) return { kind: 'resolution', dueAt: sla.resolutionDueAt };
  return null;
}

/** The first response came after its deadline: that alone explains a breach. */
const firstResponseLate = (sla: SlaClock): boolean =>
  sla.firstRespondedAt !== null && sla.firstResponseDueAt !== null && Date.parse(sla.firstRespondedAt) > Date.parse(sla.firstResponseDueAt);

const KIND_NAMES = { firstResponse: 'First response', resolution: 'Resolution' } as const;

/**
 * The badge at `now` (ms) on a ticket of `status`. Time left counts up to the next minute (at 30 s
 * left it reads "1 m"), time over counts whole minutes gone. A deadline that passed reads red at once,
 * without waiting for the server's scanner to mark the breach; amber comes from the server, which
 * knows the policy's warning time. A resolved or closed ticket's clock has stopped: a deadline it
 * keeps is the breach it was (docs/api.md#service-levels-on-tickets), so it reads "Breached" and no
 * longer counts.
 */
export function countdown(sla: SlaClock, now: number, status: TicketStatus): Countdown {
  const deadline = openDeadline(sla);
  // While paused the server may hold no running deadline at all: the state decides.
  if (sla.state === 'paused')
    return {
      tone: 'paused',
      text: 'Paused',
      description: 'Service level paused while waiting on the customer',
      dueAt: deadline?.dueAt ?? null,
    };
  // Nothing left to count to (the first response was the only target) is met as well.
  if (sla.state === 'met' || (deadline === null && sla.state !== 'breached'))
    return { tone: 'met', text: 'Met', description: 'Service level met', dueAt: null };
  // No deadline left to count to, or the kept one of a stopped clock: the breach it was.
  if (deadline === null || status === 'resolved' || status === 'closed')
    return { tone: 'breached', text: 'Breached', description: 'Service level breached', dueAt: deadline?.dueAt ?? null };
  const name = KIND_NAMES[deadline.kind];
  const left = Date.parse(deadline.dueAt) - now;
  // The server's breach wins over a browser clock that is behind it (by a tick, or a skewed clock),
  // unless the breach was the first response's, answered late, while the resolution still runs.
  if (left <= 0 || (sla.state === 'breached' && !firstResponseLate(sla))) {
    const over = formatSpan(Math.max(0, -left), 'down');
    return { tone: 'breached', text: `Overdue ${over}`, description: `${name} overdue by ${over}`, dueAt: deadline.dueAt };
  }
  const span = formatSpan(left, 'up');
  return {
    tone: sla.state === 'breached' ? 'breached' : sla.state,
    text: span,
    description: `${name} due in ${span}`,
    dueAt: deadline.dueAt,
  };
}
