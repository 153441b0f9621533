import { z } from './zod.js';
import { INBOUND_STATUSES } from './api/inboundMail.js';
import { SLA_FILTERS } from './api/slaState.js';
import { TOKEN_SCOPES } from './api/apiTokens.js';
import { CSAT_RATINGS } from './api/csat.js';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from './api/webhooks.js';
import {
  articleSchema,
  attachmentSchema,
  commentSchema,
  historyEntrySchema,
  notificationSchema,
  ticketDetailSchema,
  ticketSchema,
  ticketStatsSchema,
  userRefSchema,
  userSchema,
} from './entities.js';
import { PRIORITIES, categorySchema, prioritySchema, ticketStatusSchema, type Priority } from './enums.js';

/**
 * Every answer's shape, as a schema: the types both sides use are inferred from these, the server's
 * API reference is generated from them (docs/api.md#openapi), and tests check real answers against
 * them. The client imports the types only, so none of this reaches its bundle.
 */

/** A successful answer, `{success: true, …}`. */
const ok = <Shape extends z.ZodRawShape>(shape: Shape) => z.object({ success: z.literal(true), ...shape });

export const messageResponseSchema = ok({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

// System

export const configResponseSchema = ok({ agentSignup: z.enum(['open', 'closed']) });
export type ConfigResponse = z.infer<typeof configResponseSchema>;
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'error']),
  db: z.enum(['ok', 'error']),
  /** The port the inbound SMTP listener took (INBOUND_SMTP_PORT=0 takes any free one). */
  inboundSmtpPort: z.number().int().optional(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

// Accounts

export const authResponseSchema = ok({ token: z.string(), user: userSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;
export const userResponseSchema = ok({ user: userSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;
/** GET /users/staff: the staff a note may mention (names only), for every staff member. */
export const staffDirectoryResponseSchema = ok({ staff: z.array(userRefSchema) });
export type StaffDirectoryResponse = z.infer<typeof staffDirectoryResponseSchema>;
/** A fresh token for this session: the change revokes every older one, this tab's included. */
export const changePasswordResponseSchema = ok({ token: z.string(), user: userSchema, message: z.string() });
export type ChangePasswordResponse = z.infer<typeof changePasswordResponseSchema>;
export const usersResponseSchema = ok({ users: z.array(userSchema) });
export type UsersResponse = z.infer<typeof usersResponseSchema>;
export const userMessageResponseSchema = ok({ user: userSchema, message: z.string() });
export type UserMessageResponse = z.infer<typeof userMessageResponseSchema>;

// Tickets

export const ticketListResponseSchema = ok({
  /** The user view reads `tickets`, the agent view reads `data`; both hold the same page (docs/api.md#ticket-endpoints). */
  tickets: z.array(ticketSchema),
  data: z.array(ticketSchema),
  total: z.number().int(),
  /** True when a search's count stopped at its cap: `total` is then the cap, and more tickets match. */
  totalCapped: z.boolean().optional(),
  page: z.number().int(),
  limit: z.number().int(),
  /**
   * Up to LIMITS.ticketList.spare rows that follow the page, in the same order: a live page fills a
   * row that left it from these instead of reading the page again.
   */
  next: z.array(ticketSchema),
});
export type TicketListResponse = z.infer<typeof ticketListResponseSchema>;
export const ticketStatsResponseSchema = ok({
  stats: ticketStatsSchema,
  /** As in TicketListResponse: under a search the cards count at most the cap's matches. */
  totalCapped: z.boolean().optional(),
});
export type TicketStatsResponse = z.infer<typeof ticketStatsResponseSchema>;
/** GET /tickets/:id/comments?before=<id> and /history?before=<id>: the next older page, oldest first. */
export const ticketCommentsResponseSchema = ok({ comments: z.array(commentSchema), hasMore: z.boolean() });
export type TicketCommentsResponse = z.infer<typeof ticketCommentsResponseSchema>;
export const ticketHistoryResponseSchema = ok({ history: z.array(historyEntrySchema), hasMore: z.boolean() });
export type TicketHistoryResponse = z.infer<typeof ticketHistoryResponseSchema>;
export const ticketResponseSchema = ok({ ticket: ticketDetailSchema });
export type TicketResponse = z.infer<typeof ticketResponseSchema>;
export const ticketMessageResponseSchema = ok({ ticket: ticketSchema, message: z.string() });
export type TicketMessageResponse = z.infer<typeof ticketMessageResponseSchema>;
export const commentResponseSchema = ok({
  comment: commentSchema,
  /** Present when the comment also changed the ticket (`status`). */
  ticket: ticketSchema.optional(),
});
export type CommentResponse = z.infer<typeof commentResponseSchema>;
/** The 409 of a stale `expectedVersion`: the ticket as it is now, nothing written. */
export const versionConflictResponseSchema = z.object({ success: z.literal(false), message: z.string(), ticket: ticketSchema });
export type VersionConflictResponse = z.infer<typeof versionConflictResponseSchema>;

const bulkFailureSchema = z.object({ id: z.number().int(), message: z.string() });
export type BulkFailure = z.infer<typeof bulkFailureSchema>;
export const bulkUpdateResponseSchema = ok({ updated: z.array(ticketSchema), failed: z.array(bulkFailureSchema) });
export type BulkUpdateResponse = z.infer<typeof bulkUpdateResponseSchema>;
export const mergeTicketResponseSchema = ok({
  /** The ticket merged into, as it is after the merge. */
  ticket: ticketSchema,
});
export type MergeTicketResponse = z.infer<typeof mergeTicketResponseSchema>;

/** GET /tags: the tags in use, most used first, for suggestions (staff). */
const tagCountSchema = z.object({ tag: z.string(), count: z.number().int() });
export type TagCount = z.infer<typeof tagCountSchema>;
export const tagsResponseSchema = ok({ tags: z.array(tagCountSchema) });
export type TagsResponse = z.infer<typeof tagsResponseSchema>;

/** Who the requester is, for the panel: name, email and how long they have had an account. */
const requesterAccountSchema = userSchema.pick({ id: true, name: true, email: true, createdAt: true });
export type RequesterAccount = z.infer<typeof requesterAccountSchema>;
export const requesterTicketsResponseSchema = ok({ requester: requesterAccountSchema, tickets: z.array(ticketSchema) });
export type RequesterTicketsResponse = z.infer<typeof requesterTicketsResponseSchema>;

/** POST /uploads → 201. */
export const uploadResponseSchema = ok({ uploads: z.array(attachmentSchema) });
export type UploadResponse = z.infer<typeof uploadResponseSchema>;

// Notifications

export const notificationListResponseSchema = ok({ notifications: z.array(notificationSchema), unread: z.number().int() });
export type NotificationListResponse = z.infer<typeof notificationListResponseSchema>;
export const notificationReadResponseSchema = ok({ unread: z.number().int() });
export type NotificationReadResponse = z.infer<typeof notificationReadResponseSchema>;

// Knowledge base

export const articleListResponseSchema = ok({ data: z.object({ articles: z.array(articleSchema), total: z.number().int() }) });
export type ArticleListResponse = z.infer<typeof articleListResponseSchema>;
export const articleResponseSchema = ok({ article: articleSchema });
export type ArticleResponse = z.infer<typeof articleResponseSchema>;
export const helpfulResponseSchema = ok({ helpfulCount: z.number().int() });
export type HelpfulResponse = z.infer<typeof helpfulResponseSchema>;

// Saved views and canned responses

export const viewFiltersSchema = z.object({
  status: ticketStatusSchema.optional(),
  priority: prioritySchema.optional(),
  category: categorySchema.optional(),
  search: z.string().optional(),
  /** Staff: whose tickets; `me` is the caller, `none` the unassigned ones, a number that staff member. */
  assignee: z.union([z.enum(['me', 'none']), z.number().int()]).optional(),
  /** Staff's tag (docs/api.md#tags). */
  tag: z.string().optional(),
  /** Staff's service-level state (docs/api.md#service-levels). */
  sla: z.enum(SLA_FILTERS).optional(),
});
export type ViewFilters = z.infer<typeof viewFiltersSchema>;

/**
 * A saved list of the agent dashboard. Built-in views (My open tickets, Unassigned, Urgent) come first
 * in every answer with negative ids and `builtIn: true`; they belong to nobody (`owner: null`) and
 * cannot be changed or deleted (docs/decisions.md#running-the-queue).
 */
export const viewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  filters: viewFiltersSchema,
  /** The `sort` parameter of GET /tickets, e.g. `-priority`. */
  sort: z.string().optional(),
  shared: z.boolean(),
  builtIn: z.boolean().optional(),
  owner: userRefSchema.nullable(),
});
export type View = z.infer<typeof viewSchema>;
export const viewsResponseSchema = ok({ views: z.array(viewSchema) });
export type ViewsResponse = z.infer<typeof viewsResponseSchema>;
export const viewResponseSchema = ok({ view: viewSchema });
export type ViewResponse = z.infer<typeof viewResponseSchema>;
export const viewCountsResponseSchema = ok({
  /** Keyed by view id; a view with a search counts up to LIMITS.ticketList.countCap. */
  counts: z.record(z.string(), z.number().int()),
});
export type ViewCountsResponse = z.infer<typeof viewCountsResponseSchema>;

export const cannedResponseSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  shared: z.boolean(),
  owner: userRefSchema,
});
export type CannedResponse = z.infer<typeof cannedResponseSchema>;
export const cannedResponsesResponseSchema = ok({ cannedResponses: z.array(cannedResponseSchema) });
export type CannedResponsesResponse = z.infer<typeof cannedResponsesResponseSchema>;
export const cannedResponseResponseSchema = ok({ cannedResponse: cannedResponseSchema });
export type CannedResponseResponse = z.infer<typeof cannedResponseResponseSchema>;

// Service levels: business calendars and SLA policies (docs/decisions.md#service-levels)

const openingIntervalSchema = z.object({
  /** 0 = Sunday … 6 = Saturday. */
  day: z.number().int(),
  /** "HH:MM"; `end` may be "24:00". */
  start: z.string(),
  end: z.string(),
});
export type OpeningInterval = z.infer<typeof openingIntervalSchema>;
const holidaySchema = z.object({ date: z.string(), name: z.string() });
export type Holiday = z.infer<typeof holidaySchema>;
export const slaCalendarSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  timeZone: z.string(),
  hours: z.array(openingIntervalSchema),
  holidays: z.array(holidaySchema),
});
export type SlaCalendar = z.infer<typeof slaCalendarSchema>;
const slaTargetSchema = z.object({ firstResponseMinutes: z.number().int().nullable(), resolutionMinutes: z.number().int().nullable() });
export type SlaTarget = z.infer<typeof slaTargetSchema>;
export const slaPolicySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  position: z.number().int(),
  /** null: around the clock. */
  calendarId: z.number().int().nullable(),
  /** Empty: everyone. */
  requesterDomains: z.array(z.string()),
  targets: z.object(
    Object.fromEntries(PRIORITIES.map((priority) => [priority, slaTargetSchema])) as Record<Priority, typeof slaTargetSchema>,
  ),
  warnBeforeMinutes: z.number().int(),
  active: z.boolean(),
});
export type SlaPolicy = z.infer<typeof slaPolicySchema>;
export const calendarsResponseSchema = ok({ calendars: z.array(slaCalendarSchema) });
export type CalendarsResponse = z.infer<typeof calendarsResponseSchema>;
export const calendarResponseSchema = ok({ calendar: slaCalendarSchema });
export type CalendarResponse = z.infer<typeof calendarResponseSchema>;
export const policiesResponseSchema = ok({ policies: z.array(slaPolicySchema) });
export type PoliciesResponse = z.infer<typeof policiesResponseSchema>;
export const policyResponseSchema = ok({ policy: slaPolicySchema });
export type PolicyResponse = z.infer<typeof policyResponseSchema>;

// The mail intake (docs/api.md#email-intake)

/** One accepted message as the Email admin page lists it. */
export const inboundMessageSchema = z.object({
  id: z.number().int(),
  messageId: z.string().nullable(),
  envelopeTo: z.string(),
  from: z.string().nullable(),
  subject: z.string().nullable(),
  size: z.number().int(),
  sha256: z.string(),
  source: z.enum(['smtp', 'imap']),
  receivedAt: z.string(),
  status: z.enum(INBOUND_STATUSES),
  reason: z.string().nullable(),
  ticketId: z.number().int().nullable(),
  commentId: z.number().int().nullable(),
  attempts: z.number().int(),
});
export type InboundMessage = z.infer<typeof inboundMessageSchema>;
/** The intake settings in force, without secrets (IMAP_URL loses its password). */
export const emailSettingsSchema = z.object({
  supportAddress: z.string(),
  smtp: z.object({ host: z.string(), port: z.number().int().nullable() }).nullable(),
  imap: z.object({ url: z.string(), doneFolder: z.string(), pollMs: z.number().int() }).nullable(),
  createUsers: z.boolean(),
  maxBytes: z.number().int(),
  maxPerSenderPerHour: z.number().int(),
});
export type EmailSettings = z.infer<typeof emailSettingsSchema>;
export const emailSettingsResponseSchema = ok({ settings: emailSettingsSchema });
export type EmailSettingsResponse = z.infer<typeof emailSettingsResponseSchema>;
export const inboundMessagesResponseSchema = ok({ messages: z.array(inboundMessageSchema), hasMore: z.boolean() });
export type InboundMessagesResponse = z.infer<typeof inboundMessagesResponseSchema>;
export const inboundMessageResponseSchema = ok({ inboundMessage: inboundMessageSchema, message: z.string() });
export type InboundMessageResponse = z.infer<typeof inboundMessageResponseSchema>;

// API tokens (docs/api.md#api-tokens)

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  owner: userRefSchema,
});
export type ApiToken = z.infer<typeof apiTokenSchema>;
export const apiTokensResponseSchema = ok({ tokens: z.array(apiTokenSchema) });
export type ApiTokensResponse = z.infer<typeof apiTokensResponseSchema>;
/** The secret is shown once, here; only its hash is kept. */
export const createdApiTokenResponseSchema = ok({ token: apiTokenSchema, secret: z.string() });
export type CreatedApiTokenResponse = z.infer<typeof createdApiTokenResponseSchema>;

// Satisfaction surveys (docs/api.md#satisfaction-surveys)

/** A survey as its link (or the ticket's owner) reads it; rating and comment stay null until answered. */
export const csatSurveySchema = z.object({
  ticketId: z.number().int(),
  title: z.string(),
  rating: z.enum(CSAT_RATINGS).nullable(),
  comment: z.string().nullable(),
  expiresAt: z.string(),
});
export type CsatSurvey = z.infer<typeof csatSurveySchema>;
export const csatSurveyResponseSchema = ok({ survey: csatSurveySchema });
export type CsatSurveyResponse = z.infer<typeof csatSurveyResponseSchema>;
/** The owner's ticket page: the ticket's newest survey while it can be answered, else null. */
export const ticketCsatSurveyResponseSchema = ok({ survey: csatSurveySchema.nullable() });
export type TicketCsatSurveyResponse = z.infer<typeof ticketCsatSurveyResponseSchema>;

// Webhooks (docs/api.md#webhooks)

/** An endpoint as the API answers it: never its secret, but on creation and rotation. */
export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  includeInternal: z.boolean(),
  active: z.boolean(),
  /** Why the server turned it off (410, days of failures); null when on, or turned off by an admin. */
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** One event's way to one endpoint, as the delivery log lists it. */
export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  webhookId: z.number().int(),
  /** The `webhook-id` header: the same on every attempt, for the receiver to drop repeats. */
  messageId: z.string(),
  event: z.enum([...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT]),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  /** The last attempt's HTTP status; null when it got none (refused, timed out, network error). */
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  /** How long the last attempt took, in milliseconds. */
  durationMs: z.number().int().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  /** When a pending delivery is tried next. */
  nextAttemptAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhooksResponseSchema = ok({ webhooks: z.array(webhookSchema) });
export type WebhooksResponse = z.infer<typeof webhooksResponseSchema>;
export const webhookResponseSchema = ok({ webhook: webhookSchema });
export type WebhookResponse = z.infer<typeof webhookResponseSchema>;
/** The secret is shown here, on creation and rotation, and never again. */
export const webhookSecretResponseSchema = ok({ webhook: webhookSchema, secret: z.string() });
export type WebhookSecretResponse = z.infer<typeof webhookSecretResponseSchema>;
export const webhookDeliveriesResponseSchema = ok({ deliveries: z.array(webhookDeliverySchema), hasMore: z.boolean() });
export type WebhookDeliveriesResponse = z.infer<typeof webhookDeliveriesResponseSchema>;
export const webhookDeliveryResponseSchema = ok({ delivery: webhookDeliverySchema, message: z.string() });
export type WebhookDeliveryResponse = z.infer<typeof webhookDeliveryResponseSchema>;

// Reports (docs/api.md#reports). Durations are whole seconds; a percentile or percentage is null when
// the range holds nothing to take it from.

const seconds = z.number().int().nullable();
const percent = z.number().nullable();
/** How long something took across a range: how many, and the median and 90th percentile. */
export const durationFiguresSchema = z.object({ count: z.number().int(), p50: seconds, p90: seconds });
export const csatFiguresSchema = z.object({
  responses: z.number().int(),
  good: z.number().int(),
  neutral: z.number().int(),
  bad: z.number().int(),
  scorePct: percent,
});

export const reportSummarySchema = z.object({
  created: z.number().int(),
  resolved: z.number().int(),
  reopened: z.number().int(),
  /** Tickets not yet resolved or closed, now. */
  backlog: z.number().int(),
  firstResponse: durationFiguresSchema,
  resolution: durationFiguresSchema,
  sla: z.object({ firstResponseMetPct: percent, resolutionMetPct: percent }),
  csat: csatFiguresSchema,
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;
export const reportSummaryResponseSchema = ok({ summary: reportSummarySchema });
export type ReportSummaryResponse = z.infer<typeof reportSummaryResponseSchema>;

/** One interval of a time series; `start` is its first day in the range (YYYY-MM-DD, the report's time zone). */
export const reportPointSchema = z.object({
  start: z.string(),
  created: z.number().int(),
  resolved: z.number().int(),
  reopened: z.number().int(),
  firstResponseP50: seconds,
  firstResponseP90: seconds,
  resolutionP50: seconds,
  resolutionP90: seconds,
  csatScorePct: percent,
});
export type ReportPoint = z.infer<typeof reportPointSchema>;
export const reportTimeseriesResponseSchema = ok({ interval: z.enum(['day', 'week', 'month']), points: z.array(reportPointSchema) });
export type ReportTimeseriesResponse = z.infer<typeof reportTimeseriesResponseSchema>;

export const backlogBucketSchema = z.object({
  label: z.enum(['<1d', '1-3d', '3-7d', '7-30d', '>30d']),
  open: z.number().int(),
  in_progress: z.number().int(),
  pending: z.number().int(),
});
export type BacklogBucket = z.infer<typeof backlogBucketSchema>;
export const reportBacklogResponseSchema = ok({ buckets: z.array(backlogBucketSchema) });
export type ReportBacklogResponse = z.infer<typeof reportBacklogResponseSchema>;

/** The range's figures for one priority or category. */
export const breakdownRowSchema = z.object({
  key: z.string(),
  created: z.number().int(),
  resolved: z.number().int(),
  backlog: z.number().int(),
  firstResponseP50: seconds,
  resolutionP50: seconds,
});
export type BreakdownRow = z.infer<typeof breakdownRowSchema>;
export const reportBreakdownResponseSchema = ok({
  priority: z.array(breakdownRowSchema.extend({ key: z.enum(PRIORITIES) })),
  category: z.array(breakdownRowSchema.extend({ key: categorySchema })),
});
export type ReportBreakdownResponse = z.infer<typeof reportBreakdownResponseSchema>;

/** One agent's figures over the range (admins only). */
export const agentReportSchema = z.object({
  agent: userRefSchema,
  assigned: z.number().int(),
  resolved: z.number().int(),
  firstResponseP50: seconds,
  resolutionP50: seconds,
  slaMetPct: percent,
  csatScorePct: percent,
});
export type AgentReport = z.infer<typeof agentReportSchema>;
export const reportAgentsResponseSchema = ok({ agents: z.array(agentReportSchema) });
export type ReportAgentsResponse = z.infer<typeof reportAgentsResponseSchema>;
