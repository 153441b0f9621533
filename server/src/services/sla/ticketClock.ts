import type { Priority, TicketStatus } from '@helpdesk/protocol';
import type { Db } from '../../db/client.js';
import { loadPolicies, ownerEmails, type LoadedPolicy } from '../../db/queries/slaTickets.js';
import { nextSlaColumns, slaColumnsOf, type SlaColumns, type SlaHappening } from '../../sla/ticketSla.js';
import { choosePolicy } from './choosePolicy.js';

/** A ticket row as the clock reads it: its SLA columns, owner, status and priority. */
export type ClockedTicket = SlaColumns & { id: number; userId: number; status: TicketStatus; priority: Priority };

/** What a write does to a ticket, as far as its service level goes. */
export interface SlaWrite {
  ticket: ClockedTicket;
  /** The status and priority the write leaves. */
  after: { status: TicketStatus; priority: Priority };
  happening?: SlaHappening;
  /** Choose the policy again (a new ticket, a priority change, an edited policy); else the ticket keeps its own. */
  choose?: boolean;
}

/** Does this write touch the service level at all? Other writes (title, tags, assignee) leave the columns alone. */
export const touchesSla = ({ ticket, after, happening = {}, choose = false }: SlaWrite): boolean =>
  choose ||
  Boolean(happening.start) ||
  after.status !== ticket.status ||
  after.priority !== ticket.priority ||
  // Recorded under no policy too: a policy chosen later must not see a first response still owed.
  (Boolean(happening.respond) && ticket.slaFirstRespondedAt === null);

/**
 * The SLA columns each write leaves, for the writes that touch them (keyed by ticket id). Policies
 * and, where a policy is chosen, the owners' addresses are read once for the whole batch.
 */
export async function slaColumnsAfter(db: Db, writes: SlaWrite[], now: Date): Promise<Map<number, SlaColumns>> {
  const touched = writes.filter(touchesSla);
  const result = new Map<number, SlaColumns>();
  if (touched.length === 0) return result;
  const policies = await loadPolicies(db);
  const choosing = touched.filter((write) => write.choose || write.after.priority !== write.ticket.priority || write.happening?.start);
  const emails = await ownerEmails(
    db,
    choosing.map((write) => write.ticket.userId),
  );
  for (const write of touched) {
    const { ticket } = write;
    const email = emails.get(ticket.userId);
    const policy =
      email !== undefined ? (choosePolicy(policies, email) ?? null) : (policies.find((p) => p.id === ticket.slaPolicyId) ?? null);
    result.set(ticket.id, nextSlaColumns(slaColumnsOf(ticket), write.after, policy, write.happening ?? {}, now));
  }
  return result;
}

/** The same, for a ticket about to be inserted: a fresh clock under the policy its owner falls under. */
export async function slaColumnsOfNewTicket(
  db: Db,
  ownerEmail: string,
  ticket: { status: TicketStatus; priority: Priority },
  now: Date,
): Promise<SlaColumns> {
  const policy: LoadedPolicy | null = choosePolicy(await loadPolicies(db), ownerEmail) ?? null;
  return nextSlaColumns(EMPTY_CLOCK, ticket, policy, { start: true }, now);
}

const EMPTY_CLOCK: SlaColumns = {
  slaPolicyId: null,
  slaUsedMs: 0,
  slaRunningSince: null,
  slaFirstRespondedAt: null,
  slaResponseUsedMs: null,
  slaResponseDueAt: null,
  slaResolutionDueAt: null,
  slaResponseWarnAt: null,
  slaResolutionWarnAt: null,
  slaResponseWarnedAt: null,
  slaResponseBreachedAt: null,
  slaResolutionWarnedAt: null,
  slaResolutionBreachedAt: null,
  slaNextMarkAt: null,
  slaDueAt: null,
  slaState: null,
};
