import { z } from './zod.js';
import {
  categorySchema,
  emailStatusSchema,
  historyTypeSchema,
  notificationPreferenceSchema,
  prioritySchema,
  roleSchema,
  ticketStatusSchema,
} from './enums.js';
import { SLA_STATES, type TicketSla } from './api/slaState.js';
import { CSAT_RATINGS, type TicketCsat } from './api/csat.js';

/** Response shapes of docs/api.md#entities. Timestamps are ISO-8601 strings. */
const timestamp = z.string();

export const userSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  email_notifications: notificationPreferenceSchema,
  createdAt: timestamp,
});
export type User = z.infer<typeof userSchema>;

export const userRefSchema = z.object({ id: z.number().int(), name: z.string() });
export type UserRef = z.infer<typeof userRefSchema>;

/** A ticket's service level as staff see it (docs/api.md#service-levels). */
export const ticketSlaSchema = z.object({
  policyId: z.number().int(),
  firstResponseDueAt: timestamp.nullable(),
  resolutionDueAt: timestamp.nullable(),
  firstRespondedAt: timestamp.nullable(),
  state: z.enum(SLA_STATES),
}) satisfies z.ZodType<TicketSla>;

/** The answer to a ticket's newest satisfaction survey (docs/api.md#satisfaction-surveys). */
export const ticketCsatSchema = z.object({
  rating: z.enum(CSAT_RATINGS),
  comment: z.string().nullable(),
  at: timestamp,
}) satisfies z.ZodType<TicketCsat>;

export const ticketSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  priority: prioritySchema,
  /** What the ticket is about (the knowledge base's categories): the owner's pick at creation, then staff's. */
  category: categorySchema,
  status: ticketStatusSchema,
  resolutionNotes: z.string().nullable(),
  user: userRefSchema,
  assignedAgent: userRefSchema.nullable(),
  updatedBy: userRefSchema.nullable(),
  commentCount: z.number().int(),
  /** 1 at creation, +1 on every write that changes the ticket (comments do not): the newer copy wins. */
  version: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** The latest change or comment, whoever made it: what a queue sorts follow-ups by. */
  lastActivityAt: timestamp,
  /**
   * A staff member has replied to it or changed it: its owner can no longer delete it. Internal notes
   * also end that (the server refuses), but are left out here so the owner cannot learn of one.
   */
  answered: z.boolean(),
  /** Staff lists only: changed or commented by someone else since this staff member last opened it. */
  unread: z.boolean().optional(),
  /**
   * Staff only, lower-cased, at most LIMITS.tags.max: absent (not empty) in everything the owner
   * receives, over REST and sockets alike (docs/api.md#tags).
   */
  tags: z.array(z.string()).optional(),
  /**
   * Staff only: the service level, null when no policy covers the ticket. Absent (not null) in
   * everything the owner receives, like `tags`. Changed by the ticket's own writes (ticket-changed)
   * and by the scanner's marks (sla-changed), which do not bump `version`.
   */
  sla: ticketSlaSchema.nullable().optional(),
});
export type Ticket = z.infer<typeof ticketSchema>;

/** A file on a ticket or comment (docs/api.md#attachments); `contentType` is sniffed from its bytes. */
export const attachmentSchema = z.object({
  id: z.number().int(),
  filename: z.string(),
  size: z.number().int(),
  contentType: z.string(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

export const commentSchema = z.object({
  id: z.number().int(),
  ticketId: z.number().int(),
  content: z.string(),
  author: userRefSchema.extend({ role: roleSchema }),
  /** A note among staff: never shown, counted, sent or mailed to the ticket's owner. */
  internal: z.boolean(),
  createdAt: timestamp,
  /** Staff answers only: the state of the mail this reply sent to the ticket's owner, when it sent one. */
  emailStatus: emailStatusSchema.optional(),
  /** Files sent with the comment; an internal note's are as staff-only as the note. */
  attachments: z.array(attachmentSchema),
  /**
   * Staff only: the inbound message the comment was filed from (the mail whose quotes were cut),
   * whole at GET /email/inbound/:id/raw. Absent in everything the owner receives, like `Ticket.tags`.
   */
  inboundMessageId: z.number().int().optional(),
});
export type Comment = z.infer<typeof commentSchema>;

export const historyEntrySchema = z.object({
  id: z.number().int(),
  ticketId: z.number().int(),
  type: historyTypeSchema,
  from: z.string().nullable(),
  to: z.string().nullable(),
  actor: userRefSchema,
  createdAt: timestamp,
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const ticketDetailSchema = ticketSchema.extend({
  /** The latest comments and history entries, oldest first; the older ones come from `?before=<oldest id>`. */
  comments: z.array(commentSchema),
  history: z.array(historyEntrySchema),
  /** Files sent with the ticket when it was created (a comment's files are on the comment). */
  attachments: z.array(attachmentSchema),
  hasOlderComments: z.boolean().optional(),
  hasOlderHistory: z.boolean().optional(),
  /**
   * Staff only: the ticket's internal notes. The thread's heading counts `commentCount + noteCount`
   * for staff and `commentCount` for the owner, whatever page of the thread is loaded.
   */
  noteCount: z.number().int().optional(),
  /**
   * Staff only: the answer to the ticket's newest survey, null until one is answered; absent in what
   * the owner receives. Live through `csat-received`, which does not bump `version`.
   */
  csat: ticketCsatSchema.nullable().optional(),
  /** Staff only: the inbound message the ticket was made from (its description is that mail's text), like a comment's. */
  inboundMessageId: z.number().int().optional(),
});
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

export const articleSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  category: categorySchema,
  keywords: z.array(z.string()),
  helpfulCount: z.number().int(),
  creator: userRefSchema.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Article = z.infer<typeof articleSchema>;

export const ticketStatsSchema = z.object({
  total: z.number().int(),
  open: z.number().int(),
  in_progress: z.number().int(),
  pending: z.number().int(),
  resolved: z.number().int(),
  closed: z.number().int(),
  urgent: z.number().int(),
});
export type TicketStats = z.infer<typeof ticketStatsSchema>;

/**
 * `sla_warning` / `sla_breached`: a deadline of a ticket assigned to you (to every admin when it is
 * unassigned) is near or missed; `by` is the ticket's owner, the person waiting.
 * `webhook_disabled`: to every admin, a webhook was turned off (it answered 410, or failed for days); it
 * is about no ticket (`ticketId` null), and `by` is the recipient (nobody did it).
 */
export const NOTIFICATION_TYPES = ['mention', 'assigned', 'reply', 'sla_warning', 'sla_breached', 'webhook_disabled'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const notificationSchema = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  ticketId: z.number().int().nullable(),
  by: userRefSchema,
  excerpt: z.string(),
  createdAt: timestamp,
  readAt: timestamp.nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** One person on a ticket page, as the staff see them. */
export interface PresenceViewer {
  id: number;
  name: string;
  typing: boolean;
}
