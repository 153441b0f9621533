import {
  assigneeOf,
  canSeeInternalNotes,
  canViewTicket,
  isStaff,
  MESSAGES,
  visibleTicketScope,
  type TicketFilters,
  type UserRef,
} from '@helpdesk/protocol';
import type { Db } from '../../db/client.js';
import { findUserRef } from '../../db/queries/staff.js';
import { findTicketRow, type TicketRow, type TicketScope } from '../../db/queries/tickets.js';
import type { ThreadAudience } from '../../db/queries/ticketThread.js';
import type { Actor } from '../../lib/actor.js';
import { NotFoundError, ValidationError } from '../../lib/errors.js';

/** Staff read internal notes and their timeline entries; an owner's reads never include them. */
export const audienceOf = (actor: Actor): ThreadAudience => ({ internal: canSeeInternalNotes(actor) });

/** What the actor may see, narrowed to one assignee when staff ask for it (`me`, `none` or an id). */
export const scopeFor = (actor: Actor, filters: TicketFilters): TicketScope => {
  const assignee = assigneeOf(filters);
  if (!isStaff(actor) || assignee === undefined) return visibleTicketScope(actor);
  return { ...visibleTicketScope(actor), assignedAgentId: assignee === 'me' ? actor.id : assignee === 'none' ? null : assignee };
};

/** A ticket the actor may not see answers exactly like one that does not exist. */
export const loadVisible = async (db: Db, actor: Actor, id: number): Promise<TicketRow> => {
  const row = await findTicketRow(db, id);
  if (!row || !canViewTicket(actor, { userId: row.ticket.userId })) throw new NotFoundError(MESSAGES.tickets.notFound);
  return row;
};

/** The assignee named by staff must be an active agent or admin. */
export const resolveAssignee = async (db: Db, id: number | null): Promise<UserRef | null> => {
  if (id === null) return null;
  const user = await findUserRef(db, id);
  if (!user || user.deletedAt || !isStaff(user)) {
    throw new ValidationError(MESSAGES.tickets.agentNotFound, { assignedAgentId: MESSAGES.tickets.agentNotFound });
  }
  return { id: user.id, name: user.name };
};
