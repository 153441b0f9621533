import { z } from '../zod.js';
import {
  DEFAULT_CATEGORY,
  FORM_STATUSES,
  PRIORITIES,
  STAFF_FORM_STATUSES,
  TICKET_SORT_FIELDS,
  TICKET_STATUSES,
  normalizeStatus,
  type TicketSortField,
} from '../enums.js';
import {
  MAX_ROW_ID,
  boundedText,
  categoryField,
  idParam,
  limitQuery,
  optionalQuery,
  pageQuery,
  rowIdField,
  searchQuery,
  storableString,
} from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { flagQuery } from './common.js';
import { TAG_PATTERN } from './searchSyntax.js';
import {
  DEFAULT_TICKET_QUERY,
  DEFAULT_TICKET_SORT,
  assigneeOf,
  type TicketAssignee,
  type TicketFilters,
  type TicketQuery,
  type TicketSort,
} from './ticketQuery.js';
import { attachmentIdsField } from './attachments.js';
import { SLA_FILTERS } from './sla.js';

const V = MESSAGES.validation;

const priority = z.enum(PRIORITIES, { error: V.priorityInvalid });
const status = z.preprocess(normalizeStatus, z.enum(TICKET_STATUSES, { error: V.statusInvalid }));
const optionalStatus = status.optional();
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

/** One tag as sent: trimmed and lower-cased, then TAG_PATTERN (docs/api.md#tags). */
export const tagField = z
  .string({ error: MESSAGES.tickets.tagsInvalid })
  .trim()
  .toLowerCase()
  .regex(TAG_PATTERN, MESSAGES.tickets.tagsInvalid);
/** A ticket's tags: each a tagField, repeats dropped, at most LIMITS.tags.max. */
export const tagsField = z
  .array(tagField, { error: MESSAGES.tickets.tagsInvalid })
  .transform((tags) => [...new Set(tags)])
  .refine((tags) => tags.length <= LIMITS.tags.max, MESSAGES.tickets.tooManyTags(LIMITS.tags.max));

export const createTicketBody = z.object({
  title: createTitle,
  description,
  priority: priority.default(LIMITS.defaultPriority),
  category: categoryField.default(DEFAULT_CATEGORY),
  /** Files uploaded first (POST /uploads) by the caller, sent with the ticket. */
  attachmentIds: attachmentIdsField,
});
export type CreateTicketBody = z.infer<typeof createTicketBody>;

/**
 * One body for every caller; which of its fields a caller may send is the server's policy
 * (owner: title, description, priority, status, and category only as it is; staff: status, resolutionNotes,
 * priority, category, assignedAgentId, tags).
 */
export const updateTicketBody = z.object({
  title: storedTitle.optional(),
  description: description.optional(),
  priority: priority.optional(),
  category: categoryField.optional(),
  status: status.optional(),
  resolutionNotes: storableString('Resolution notes')
    .trim()
    .max(LIMITS.resolutionNotes.max, V.resolutionNotesTooLong)
    .transform((s) => (s === '' ? null : s))
    .nullable()
    .optional(),
  assignedAgentId: rowIdField(V.assignedAgentInvalid).nullable().optional(),
  /** Staff only: the ticket's whole set of tags (docs/api.md#tags). */
  tags: tagsField.optional(),
  /** The `version` the edit was made on; a newer one answers 409 with the current ticket (docs/api.md#optimistic-concurrency). */
  expectedVersion: z
    .number({ error: V.expectedVersionInvalid })
    .int(V.expectedVersionInvalid)
    .positive(V.expectedVersionInvalid)
    .max(2_147_483_647, V.expectedVersionInvalid)
    .optional(),
});
export type UpdateTicketBody = z.infer<typeof updateTicketBody>;

/** The fields an edit changes; `expectedVersion` is a condition on the edit, not a field. */
export type TicketField = Exclude<keyof UpdateTicketBody, 'expectedVersion'>;

/** The owner's edit form: trimmed title and description, open/in_progress/resolved; see isTitleEditAllowed. */
export const editTicketForm = (currentTitle: string) =>
  z.object({
    title: storedTitle.refine((title) => isTitleEditAllowed(currentTitle, title), V.titleTooLongEdit),
    description,
    priority,
    status: formStatus,
  });

/** The agent update form (docs/product.md#agent-update-screen): status required, notes free text. */
export const agentUpdateForm = z.object({
  status: z.preprocess(normalizeStatus, z.enum(STAFF_FORM_STATUSES, { error: V.statusRequired })),
  resolutionNotes: z.string().max(LIMITS.resolutionNotes.max, V.resolutionNotesTooLong),
});

export const assigneeQuery = optionalQuery(
  z
    .string()
    .regex(/^(me|none|[1-9]\d{0,9})$/, V.assigneeInvalid)
    .transform((s): TicketAssignee => (s === 'me' || s === 'none' ? s : Number(s)))
    .refine((a) => typeof a === 'string' || a <= MAX_ROW_ID, V.assigneeInvalid),
);
const sort = optionalQuery(
  z.string().refine((s) => (TICKET_SORT_FIELDS as readonly string[]).includes(s.replace(/^-/, '')), V.sortInvalid),
).transform((s): TicketSort =>
  s === undefined ? { ...DEFAULT_TICKET_SORT } : { field: s.replace(/^-/, '') as TicketSortField, descending: s.startsWith('-') },
);

export const tagQuery = optionalQuery(tagField);
/** `requester=`: an email or the start of a name, as typed (docs/api.md#search-syntax). */
export const requesterQuery = optionalQuery(storableString('Requester').trim().max(LIMITS.email.max, V.requesterTooLong)).transform((s) =>
  s ? s : undefined,
);

/** `sla=warning|breached|paused|ok` (staff). */
export const slaFilterQuery = optionalQuery(z.enum(SLA_FILTERS, { error: MESSAGES.sla.filterInvalid }));

export const ticketFiltersQuery = z.object({
  status: optionalQuery(status),
  priority: optionalQuery(priority),
  category: optionalQuery(categoryField),
  search: searchQuery,
  assignee: assigneeQuery,
  mine: flagQuery,
  tag: tagQuery,
  requester: requesterQuery,
  sla: slaFilterQuery,
}) satisfies z.ZodType<TicketFilters>;

export const ticketListQuery = ticketFiltersQuery.extend({
  page: pageQuery,
  limit: limitQuery(LIMITS.ticketPage.default, LIMITS.ticketPage.max),
  sort,
}) satisfies z.ZodType<TicketQuery>;

/**
 * Reads a list page's query string. A value the server would refuse, or a page size missing from
 * `pageSizes`, reads as its default: an old or hand-edited link still opens a list.
 */
export function ticketQueryFromUrl(search: string, pageSizes?: readonly number[]): TicketQuery {
  const params = new URLSearchParams(search);
  const valid = Object.entries(ticketListQuery.shape).flatMap(([key, field]) => {
    const value = params.get(key);
    return value !== null && field.safeParse(value).success ? [[key, value] as const] : [];
  });
  const { mine, assignee, ...query } = ticketListQuery.parse(Object.fromEntries(valid));
  if (pageSizes && !pageSizes.includes(query.limit)) query.limit = DEFAULT_TICKET_QUERY.limit;
  // Only `assignee` is kept (an old `mine=1` link reads as `assignee=me`), so one page has one cache key.
  const whose = assigneeOf({ assignee, mine });
  return whose === undefined ? query : { ...query, assignee: whose };
}

/** GET /users/:id/tickets?limit=: the requester panel's newest tickets. */
export const requesterTicketsQuery = z.object({
  limit: limitQuery(LIMITS.requesterTickets.default, LIMITS.requesterTickets.max, V.limitUpTo(LIMITS.requesterTickets.max)),
});

/** POST /tickets/:id/merge: the ticket this one goes into. */
export const mergeTicketBody = z.object({
  intoId: rowIdField(V.mergeIntoInvalid),
});
export type MergeTicketBody = z.infer<typeof mergeTicketBody>;

/** `?before=<id>` of the older comments or history of a ticket. */
export const olderQuery = z.object({ before: idParam });

export const commentBody = z.object({
  content: storableString('Comment', V.commentRequired)
    .trim()
    .min(LIMITS.comment.min, V.commentRequired)
    .max(LIMITS.comment.max, V.commentTooLong),
  /** Staff only: a note the ticket's owner never sees. */
  internal: z.boolean({ error: V.internalInvalid }).optional().default(false),
  /** Staff named in the comment; each gets a notification. */
  mentions: z
    .array(rowIdField(V.mentionsInvalid), { error: V.mentionsInvalid })
    .max(LIMITS.mentions.max, V.mentionsInvalid)
    .optional()
    .transform((ids) => [...new Set(ids ?? [])]),
  /**
   * The staff composer's "Send and mark In Progress" / "Send and resolve": the ticket's status changes
   * in the same request, under the same rules as PUT /tickets/:id. Resolving with no resolution note
   * yet makes this reply the note.
   */
  status: optionalStatus,
  /** As on PUT /tickets/:id: the `version` the writer saw; a newer one answers 409 and writes nothing. */
  expectedVersion: updateTicketBody.shape.expectedVersion,
  /** Files uploaded first (POST /uploads) by the caller; a note's files are as staff-only as the note. */
  attachmentIds: attachmentIdsField,
});
export type CommentBody = z.infer<typeof commentBody>;

/**
 * POST /tickets/bulk: the same change for up to 100 tickets, each under the rules of a single update.
 * Status here is any of the four (staff only); a ticket that cannot take the change fails alone.
 */
export const bulkUpdateBody = z.object({
  ids: z
    .array(rowIdField(V.bulkIdsInvalid), { error: V.bulkIdsInvalid })
    .min(1, V.bulkIdsInvalid)
    .max(LIMITS.bulk.maxIds, V.bulkIdsInvalid)
    .transform((ids) => [...new Set(ids)]),
  changes: z
    .object(
      {
        status: status.optional(),
        priority: priority.optional(),
        category: categoryField.optional(),
        assignedAgentId: updateTicketBody.shape.assignedAgentId,
        /** Tags added to and removed from each ticket's own (a tag in both is removed). */
        addTags: tagsField.optional(),
        removeTags: tagsField.optional(),
      },
      { error: V.bulkChangesRequired },
    )
    .refine(
      (c) =>
        c.status !== undefined ||
        c.priority !== undefined ||
        c.category !== undefined ||
        c.assignedAgentId !== undefined ||
        (c.addTags?.length ?? 0) > 0 ||
        (c.removeTags?.length ?? 0) > 0,
      V.bulkChangesRequired,
    ),
});
export type BulkUpdateBody = z.infer<typeof bulkUpdateBody>;
export type BulkChanges = BulkUpdateBody['changes'];
