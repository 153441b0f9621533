/** A ticket's service level as staff see it, free of zod (docs/api.md#service-levels). */

export const SLA_STATES = ['ok', 'warning', 'breached', 'paused', 'met'] as const;
export type SlaState = (typeof SLA_STATES)[number];
/** What the `sla=` filter takes. */
export const SLA_FILTERS = ['warning', 'breached', 'paused', 'ok'] as const;
export type SlaFilter = (typeof SLA_FILTERS)[number];

/** A staff member's view of a ticket's service level; owners never receive it. */
export interface TicketSla {
  policyId: number;
  firstResponseDueAt: string | null;
  resolutionDueAt: string | null;
  firstRespondedAt: string | null;
  state: SlaState;
}

/**
 * What `sort=slaDueAt` orders by: the earliest deadline still open (the first response until it is
 * met, the resolution), null when none runs (no policy, paused, resolved). Tickets without one come
 * last in either direction; ties go by id (docs/api.md#service-levels).
 */
export const slaDueAtOf = (sla: TicketSla | null | undefined): string | null => {
  const due = [sla?.firstResponseDueAt, sla?.resolutionDueAt].filter((at): at is string => typeof at === 'string').sort();
  return due[0] ?? null;
};
