// Enums only: they never compile a parser, so they need not wait for the jitless setting of ./zod.ts.
import { z } from 'zod';

export const ROLES = ['user', 'agent', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const STAFF_ROLES = ['agent', 'admin'] as const satisfies readonly Role[];

/**
 * In the order a ticket moves through them (status sorts by this rank). `pending` is "Waiting on
 * customer": only staff set it, its SLA time stands still, and the owner's answer reopens it
 * (docs/api.md#service-levels).
 */
export const TICKET_STATUSES = ['open', 'in_progress', 'pending', 'resolved', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
/** How people read each status, on screens and in mail. */
export const STATUS_LABELS: Readonly<Record<TicketStatus, string>> = {
  open: 'Open',
  in_progress: 'In Progress',
  pending: 'Waiting on customer',
  resolved: 'Resolved',
  closed: 'Closed',
};
/** The statuses only staff may set: an owner closes their own ticket, but never puts it on hold. */
export const STAFF_ONLY_STATUSES = ['pending'] as const satisfies readonly TicketStatus[];
/** The statuses in which a ticket is still being worked: its SLA clock runs or waits, it has open deadlines. */
export const ACTIVE_STATUSES = ['open', 'in_progress', 'pending'] as const satisfies readonly TicketStatus[];
/** What forms offer; `closed` is handled by support (docs/product.md#ticket-lifecycle). */
export const FORM_STATUSES = ['open', 'in_progress', 'resolved'] as const satisfies readonly TicketStatus[];
export type FormStatus = (typeof FORM_STATUSES)[number];
export const isFormStatus = (status: string): status is FormStatus => (FORM_STATUSES as readonly string[]).includes(status);
/** What the agent update screen offers: the form's statuses and the staff-only wait on the customer. */
export const STAFF_FORM_STATUSES = ['open', 'in_progress', 'pending', 'resolved'] as const satisfies readonly TicketStatus[];
export type StaffFormStatus = (typeof STAFF_FORM_STATUSES)[number];
export const isStaffFormStatus = (status: string): status is StaffFormStatus => (STAFF_FORM_STATUSES as readonly string[]).includes(status);
/** The spelling `in-progress` is accepted on input and means `in_progress` (docs/api.md#conventions). */
export const STATUS_ALIASES: Readonly<Record<string, TicketStatus>> = { 'in-progress': 'in_progress' };
export const normalizeStatus = (value: unknown): unknown =>
  typeof value === 'string' && value in STATUS_ALIASES ? STATUS_ALIASES[value] : value;

export const PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Knowledge-base articles and tickets share these; a ticket's is `general` unless its owner picks one. */
export const CATEGORIES = ['general', 'technical', 'billing', 'account', 'other'] as const;
export type Category = (typeof CATEGORIES)[number];
export const DEFAULT_CATEGORY = 'general' satisfies Category;

export const NOTIFICATION_PREFERENCES = ['all', 'important', 'none'] as const;
export type NotificationPreference = (typeof NOTIFICATION_PREFERENCES)[number];

/**
 * `follow_up`: the ticket was opened by mail on a closed one (`from` = its id). `email_bounced`: a
 * mail of the ticket bounced (`from` = the address, `to` = the reported status), staff only. `tags`
 * (staff only, never shown to the owner) and `merged` (to: the ticket it went into) come from the
 * agent desk.
 */
export const HISTORY_TYPES = [
  'created',
  'status',
  'priority',
  'category',
  'edited',
  'resolution',
  'assigned',
  'comment',
  'follow_up',
  'email_bounced',
  'tags',
  'merged',
  'sla',
] as const;
export type HistoryType = (typeof HISTORY_TYPES)[number];
/**
 * Timeline entries only staff read (their rows are `internal`): the owner never learns the tags or the
 * service level. An `sla` entry has `from` = the target (`first_response` | `resolution`) and `to` =
 * what happened to it (`warning` | `breached`), written by the scanner.
 */
export const STAFF_ONLY_HISTORY_TYPES = ['tags', 'sla'] as const satisfies readonly HistoryType[];
/** The targets an `sla` history entry names in `from`, and the marks it records in `to`. */
export const SLA_TARGET_KINDS = ['first_response', 'resolution'] as const;
export type SlaTargetKind = (typeof SLA_TARGET_KINDS)[number];
export const isSlaTargetKind = (kind: string | null): kind is SlaTargetKind =>
  kind !== null && (SLA_TARGET_KINDS as readonly string[]).includes(kind);
export const SLA_MARKS = ['warning', 'breached'] as const;
export type SlaMark = (typeof SLA_MARKS)[number];

/** Where a staff reply's mail to the ticket's owner stands (docs/api.md#email); staff see it, owners never. */
export const EMAIL_STATUSES = ['queued', 'sent', 'bounced', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/**
 * List orders (docs/api.md#ticket-endpoints); priority and status sort by rank (the enums' order), not
 * by name. `slaDueAt` (staff): the earliest open SLA deadline, tickets without one last either way.
 */
export const TICKET_SORT_FIELDS = ['createdAt', 'updatedAt', 'priority', 'id', 'status', 'lastActivityAt', 'slaDueAt'] as const;
export type TicketSortField = (typeof TICKET_SORT_FIELDS)[number];

// Marked pure so a bundle that only needs the lists above (the client's first page) leaves zod out.
export const roleSchema = /* @__PURE__ */ z.enum(ROLES);
export const prioritySchema = /* @__PURE__ */ z.enum(PRIORITIES);
export const categorySchema = /* @__PURE__ */ z.enum(CATEGORIES);
export const notificationPreferenceSchema = /* @__PURE__ */ z.enum(NOTIFICATION_PREFERENCES);
export const historyTypeSchema = /* @__PURE__ */ z.enum(HISTORY_TYPES);
export const ticketStatusSchema = /* @__PURE__ */ z.enum(TICKET_STATUSES);
export const emailStatusSchema = /* @__PURE__ */ z.enum(EMAIL_STATUSES);
