import { z } from '../zod.js';
import { PRIORITIES, TICKET_SORT_FIELDS, TICKET_STATUSES, normalizeStatus } from '../enums.js';
import { MAX_ROW_ID, boundedText, categoryField, searchQuery } from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';
import type { View } from '../responses.js';
import { assigneeQuery, slaFilterQuery, tagQuery } from './tickets.js';

const V = MESSAGES.validation;

export const BUILT_IN_VIEWS: readonly Omit<View, 'owner'>[] = [
  { id: -1, name: 'My open tickets', filters: { status: 'open', assignee: 'me' }, shared: true, builtIn: true },
  { id: -2, name: 'Unassigned', filters: { assignee: 'none' }, shared: true, builtIn: true },
  { id: -3, name: 'Urgent', filters: { priority: 'urgent' }, shared: true, builtIn: true },
  // Due soon, the nearest deadline first; a breached ticket has its own filter (sla=breached).
  { id: -4, name: 'SLA at risk', filters: { sla: 'warning' }, sort: 'slaDueAt', shared: true, builtIn: true },
];

/** The filters as sent in a body: the same values as the list's query, given as JSON. */
const viewFilters = z
  .object(
    {
      status: z.preprocess(normalizeStatus, z.enum(TICKET_STATUSES, { error: V.statusInvalid })).optional(),
      priority: z.enum(PRIORITIES, { error: V.priorityInvalid }).optional(),
      category: categoryField.optional(),
      search: searchQuery,
      assignee: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), assigneeQuery),
      tag: tagQuery,
      sla: slaFilterQuery,
    },
    { error: 'Filters must be an object' },
  )
  .strip();

const viewSort = z
  .string({ error: V.sortInvalid })
  .refine((s) => (TICKET_SORT_FIELDS as readonly string[]).includes(s.replace(/^-/, '')) && !s.startsWith('--'), V.sortInvalid);

const viewName = boundedText({
  required: V.viewNameRequired,
  min: LIMITS.viewName.min,
  max: LIMITS.viewName.max,
  tooShort: V.viewNameRequired,
  tooLong: V.viewNameTooLong,
});

const shared = z.boolean({ error: V.sharedInvalid });

export const createViewBody = z.object({
  name: viewName,
  filters: viewFilters.default({ search: undefined }),
  sort: viewSort.optional(),
  shared: shared.default(false),
});
export type CreateViewBody = z.infer<typeof createViewBody>;

export const updateViewBody = z.object({
  name: viewName.optional(),
  filters: viewFilters.optional(),
  sort: viewSort.nullable().optional(),
  shared: shared.optional(),
});
export type UpdateViewBody = z.infer<typeof updateViewBody>;

/** A view's id in a path: a built-in one is negative. */
export const viewIdParam = z
  .string()
  .regex(/^-?[1-9]\d{0,9}$/, V.idInvalid)
  .transform(Number)
  .refine((n) => Math.abs(n) <= MAX_ROW_ID, V.idInvalid);
