import type { TicketField } from '../api/tickets.js';
import type { TicketStatus } from '../enums.js';
import { isAdmin, isStaff, type Actor } from './actor.js';

/** A ticket as the rules need it: who owns it. */
export interface OwnedTicket {
  userId: number;
}

const isOwner = (actor: Actor, ticket: OwnedTicket) => ticket.userId === actor.id;

// Here rather than beside the update schema in api/tickets.ts, which imports zod: the client asks
// these rules in code every signed-in page loads, and zod should load only with the forms.
// An owner may send their ticket's category as it is (a form sending the whole ticket); changing it is
// staff's (canChangeTicketCategory), as waiting on the customer is for the status.
export const OWNER_EDITABLE_FIELDS = ['title', 'description', 'priority', 'status', 'category'] as const satisfies readonly TicketField[];
export const STAFF_EDITABLE_FIELDS = [
  'status',
  'resolutionNotes',
  'priority',
  'category',
  'assignedAgentId',
  'tags',
] as const satisfies readonly TicketField[];

/** Users see their own tickets; staff see all. Anything else must look like it does not exist. */
export const canViewTicket = (actor: Actor, ticket: OwnedTicket): boolean => isStaff(actor) || isOwner(actor, ticket);

export const canCommentOnTicket = canViewTicket;

/**
 * Admins delete any ticket; agents none, not even their own (they close it); an owner theirs only
 * until support has answered it (docs/product.md#permissions). `answered` is what the owner may know;
 * the server also counts internal notes, which the owner's ticket never reveals.
 */
export const canDeleteTicket = (actor: Actor, ticket: OwnedTicket & { answered: boolean }): boolean =>
  isAdmin(actor) || (isOwner(actor, ticket) && !isStaff(actor) && !ticket.answered);

/** Owners edit what they wrote; staff work the ticket. A staff member's own ticket allows both. */
export function editableTicketFields(actor: Actor, ticket: OwnedTicket): ReadonlySet<TicketField> {
  const fields = new Set<TicketField>();
  if (isOwner(actor, ticket)) OWNER_EDITABLE_FIELDS.forEach((f) => fields.add(f));
  if (isStaff(actor)) STAFF_EDITABLE_FIELDS.forEach((f) => fields.add(f));
  return fields;
}

/**
 * Staff set any status; an owner may also close (withdraw) their own ticket (docs/product.md#ticket-lifecycle).
 * Anyone else cannot reach the ticket at all, so `closed` stays refused to them.
 */
export const canSetTicketStatus = (actor: Actor, ticket: OwnedTicket, status: TicketStatus): boolean =>
  status !== 'closed' || isStaff(actor) || isOwner(actor, ticket);

/** The owner picks the category when opening the ticket; sorting tickets afterwards is support's work. */
export const canChangeTicketCategory = (actor: Actor): boolean => isStaff(actor);

/** Tags are staff's own words about a ticket: only staff read, set or filter by them. */
export const canSeeTags = (actor: Actor): boolean => isStaff(actor);

/** Merging moves one requester's duplicate into another of theirs: staff's call. */
export const canMergeTickets = (actor: Actor): boolean => isStaff(actor);

/** Which tickets a list may show the caller: their own, or all for staff. */
export const visibleTicketScope = (actor: Actor): { ownerId?: number } => (isStaff(actor) ? {} : { ownerId: actor.id });

/** Internal notes are written and read by staff only; the owner never learns they exist. */
export const canWriteInternalNote = (actor: Actor): boolean => isStaff(actor);
export const canSeeInternalNotes = (actor: Actor): boolean => isStaff(actor);

/** Presence (who views or types on a ticket) is staff's view of staff. */
export const canSeePresence = (actor: Actor): boolean => isStaff(actor);
