import {
  canChangeTicketCategory,
  canSetTicketStatus,
  editableTicketFields,
  isStaff,
  isTitleEditAllowed,
  MESSAGES,
  STAFF_ONLY_STATUSES,
  type HistoryType,
  type TicketStatus,
  type UpdateTicketBody,
  type UserRef,
} from '@helpdesk/protocol';
import type { TicketRow, TicketSet } from '../../db/queries/tickets.js';
import type { Actor } from '../../lib/actor.js';
import { ForbiddenError, ValidationError } from '../../lib/errors.js';

const isStaffOnlyStatus = (status: TicketStatus) => (STAFF_ONLY_STATUSES as readonly TicketStatus[]).includes(status);

interface Change {
  type: HistoryType;
  from: string | null;
  to: string | null;
  /** Staff-only entries (tags): never in the owner's timeline. */
  internal?: boolean;
}

/** Tags as stored: sorted, so the same set is the same array and a change is seen as one. */
export const sortedTags = (tags: readonly string[]): string[] => [...new Set(tags)].sort();
const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((tag, i) => tag === b[i]);

/** What one update does to one ticket, decided before anything is written. */
export interface Plan {
  set: TicketSet;
  changes: Change[];
  statusChange?: { from: TicketStatus; to: TicketStatus };
}

/** The fields a change names, `expectedVersion` aside: what the caller asks to change. */
export const requestedFields = (input: UpdateTicketBody) =>
  (Object.keys(input) as (keyof UpdateTicketBody)[]).filter(
    (k): k is Exclude<keyof UpdateTicketBody, 'expectedVersion'> => input[k] !== undefined && k !== 'expectedVersion',
  );

/**
 * The rules of one update (single or bulk): who may change which field, and which changes are real.
 * `assignee` is the already resolved staff member (undefined: not asked).
 */
export function planUpdate(actor: Actor, locked: TicketRow, input: UpdateTicketBody, assignee: UserRef | null | undefined): Plan {
  const current = locked.ticket;
  const provided = requestedFields(input);
  const allowed = editableTicketFields(actor, current);
  const forbidden = provided.filter((field) => !allowed.has(field));
  if (forbidden.length > 0) throw new ForbiddenError(MESSAGES.tickets.fieldForbidden(forbidden.join(', ')));
  // Waiting on the customer stops the SLA clock: staff's call, never the customer's own.
  if (input.status && input.status !== current.status && isStaffOnlyStatus(input.status) && !isStaff(actor)) {
    throw new ForbiddenError(MESSAGES.sla.pendingForbidden);
  }
  if (input.status && !canSetTicketStatus(actor, current, input.status)) throw new ForbiddenError(MESSAGES.tickets.closeForbidden);
  // Like waiting: an owner may send the category the ticket has, never another.
  if (input.category && input.category !== current.category && !canChangeTicketCategory(actor)) {
    throw new ForbiddenError(MESSAGES.tickets.categoryForbidden);
  }
  if (input.title !== undefined && !isTitleEditAllowed(current.title, input.title)) {
    throw new ValidationError(MESSAGES.validation.titleTooLongEdit, { title: MESSAGES.validation.titleTooLongEdit });
  }
  // Starting work on an unassigned ticket takes it, as agents expect from a queue.
  if (assignee === undefined && isStaff(actor) && input.status === 'in_progress' && current.assignedAgentId === null) {
    assignee = { id: actor.id, name: actor.name };
  }

  const set: TicketSet = {};
  const changes: Change[] = [];
  const edited: Array<'title' | 'description'> = [];
  for (const f of ['title', 'description'] as const) {
    const value = input[f];
    if (value !== undefined && value !== current[f]) {
      set[f] = value;
      edited.push(f);
    }
  }
  if (edited.length > 0) changes.push({ type: 'edited', from: null, to: edited.join(',') });
  if (input.priority !== undefined && input.priority !== current.priority) {
    set.priority = input.priority;
    changes.push({ type: 'priority', from: current.priority, to: input.priority });
  }
  if (input.category !== undefined && input.category !== current.category) {
    set.category = input.category;
    changes.push({ type: 'category', from: current.category, to: input.category });
  }
  let statusChange: Plan['statusChange'];
  if (input.status !== undefined && input.status !== current.status) {
    set.status = input.status;
    statusChange = { from: current.status, to: input.status };
    changes.push({ type: 'status', ...statusChange });
  }
  if (input.resolutionNotes !== undefined && input.resolutionNotes !== current.resolutionNotes) {
    set.resolutionNotes = input.resolutionNotes;
    changes.push({ type: 'resolution', from: current.resolutionNotes, to: input.resolutionNotes });
  }
  if (assignee !== undefined && (assignee?.id ?? null) !== current.assignedAgentId) {
    set.assignedAgentId = assignee?.id ?? null;
    changes.push({ type: 'assigned', from: locked.agentName ?? null, to: assignee?.name ?? null });
  }
  if (input.tags !== undefined) {
    const tags = sortedTags(input.tags);
    if (!sameTags(tags, current.tags)) {
      set.tags = tags;
      changes.push({ type: 'tags', from: current.tags.join(',') || null, to: tags.join(',') || null, internal: true });
    }
  }
  return { set, changes, ...(statusChange && { statusChange }) };
}
