import { z } from 'zod';
import { FORM_STATUSES, PRIORITIES, TICKET_SORT_FIELDS, TICKET_STATUSES, normalizeStatus } from '../enums.js';
import type { Comment, Ticket, TicketDetail, TicketStats } from '../entities.js';
import { boundedText, limitQuery, optionalQuery, pageQuery, searchQuery, storableString } from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { flagQuery } from './common.js';

const V = MESSAGES.validation;

const priority = z.enum(PRIORITIES, { error: V.priorityInvalid });
const status = z.preprocess(normalizeStatus, z.enum(TICKET_STATUSES, { error: V.statusInvalid }));
const formStatus = z.preprocess(normalizeStatus, z.enum(FORM_STATUSES, { error: V.statusInvalid }));

const createTitle = boundedText({
  required: V.titleRequired,
  ...LIMITS.ticketTitle.create,
  tooShort: V.titleTooShortCreate,
  tooLong: V.titleTooLongCreate,
});
/**
 * An edited title is 3..100 characters, but a ticket may have been created with up to 200: the title
 * it already has always passes, so a long title never blocks editing the rest of the ticket.
 */
const storedTitle = boundedText({
  required: V.titleRequired,
  min: LIMITS.ticketTitle.edit.min,
  max: LIMITS.ticketTitle.create.max,
  tooShort: V.titleTooShortEdit,
  tooLong: V.titleTooLongCreate,
});
export const isTitleEditAllowed = (current: string, next: string): boolean =>
  next === current || next.length <= LIMITS.ticketTitle.edit.max;
const description = boundedText({
  required: V.descriptionRequired,
  ...LIMITS.ticketDescription,
  tooShort: V.descriptionTooShort,
  tooLong: V.descriptionTooLong,
});

export const createTicketBody = z.object({
  title: createTitle,
  description,
  priority: priority.default(LIMITS.defaultPriority),
});
export type CreateTicketBody = z.infer<typeof createTicketBody>;

/**
 * One body for every caller; which of its fields a caller may send is the server's policy
 * (owner: title, description, priority, status; staff: status, resolutionNotes, priority, assignedAgentId).
 */
export const updateTicketBody = z.object({
  title: storedTitle.optional(),
  description: description.optional(),
  priority: priority.optional(),
  status: status.optional(),
  resolutionNotes: storableString('Resolution notes', V.resolutionNotesTooLong)
    .trim()
    .max(LIMITS.resolutionNotes.max, V.resolutionNotesTooLong)
    .transform((s) => (s === '' ? null : s))
    .nullable()
    .optional(),
  assignedAgentId: z.number({ error: V.assignedAgentInvalid }).int(V.assignedAgentInvalid).positive(V.assignedAgentInvalid).max(2_147_483_647, V.assignedAgentInvalid).nullable().optional(),
});
export type UpdateTicketBody = z.infer<typeof updateTicketBody>;

export const OWNER_EDITABLE_FIELDS = ['title', 'description', 'priority', 'status'] as const;
export const STAFF_EDITABLE_FIELDS = ['status', 'resolutionNotes', 'priority', 'assignedAgentId'] as const;
export type TicketField = keyof UpdateTicketBody;

/** The owner's edit form: trimmed title and description, open/in_progress/resolved; see isTitleEditAllowed. */
export const editTicketForm = (currentTitle: string) =>
  z.object({
    title: storedTitle.refine((title) => isTitleEditAllowed(currentTitle, title), V.titleTooLongEdit),
    description,
    priority,
    status: formStatus,
  });

/** The agent update form (SPEC §5): status required, notes free text. */
export const agentUpdateForm = z.object({
  status: z.preprocess(normalizeStatus, z.enum(FORM_STATUSES, { error: V.statusRequired })),
  resolutionNotes: z.string().max(LIMITS.resolutionNotes.max, V.resolutionNotesTooLong),
});

const sort = optionalQuery(
  z.string().refine((s) => (TICKET_SORT_FIELDS as readonly string[]).includes(s.replace(/^-/, '')), V.sortInvalid),
).transform((s) => {
  const value = s ?? '-createdAt';
  const descending = value.startsWith('-');
  return { field: value.replace(/^-/, '') as (typeof TICKET_SORT_FIELDS)[number], descending };
});

export const ticketFiltersQuery = z.object({
  status: optionalQuery(status),
  priority: optionalQuery(priority),
  search: searchQuery,
  mine: flagQuery,
});
export type TicketFilters = z.infer<typeof ticketFiltersQuery>;

export const ticketListQuery = ticketFiltersQuery.extend({
  page: pageQuery,
  limit: limitQuery(LIMITS.ticketPage.default, LIMITS.ticketPage.max),
  sort,
});
export type TicketListQuery = z.infer<typeof ticketListQuery>;

export const commentBody = z.object({
  content: storableString('Comment', V.commentRequired)
    .trim()
    .min(LIMITS.comment.min, V.commentRequired)
    .max(LIMITS.comment.max, V.commentTooLong),
});
export type CommentBody = z.infer<typeof commentBody>;

export interface TicketListResponse {
  success: true;
  /** SPEC §7: the user view reads `tickets`, the agent view reads `data`; both hold the same page. */
  tickets: Ticket[];
  data: Ticket[];
  total: number;
  page: number;
  limit: number;
}
export interface TicketStatsResponse {
  success: true;
  stats: TicketStats;
}
export interface TicketResponse {
  success: true;
  ticket: TicketDetail;
}
export interface TicketMessageResponse {
  success: true;
  ticket: Ticket;
  message: string;
}
export interface CommentResponse {
  success: true;
  comment: Comment;
}
