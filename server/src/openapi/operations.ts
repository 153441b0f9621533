import {
  CSAT_TOKEN_PATTERN,
  articleListQuery,
  bulkUpdateBody,
  calendarBody,
  changePasswordBody,
  commentBody,
  createApiTokenBody,
  csatAnswerBody,
  createArticleBody,
  createCannedResponseBody,
  createStaffBody,
  createTicketBody,
  createViewBody,
  createWebhookBody,
  idParam,
  inboundListQuery,
  listUsersQuery,
  loginBody,
  markNotificationsReadBody,
  mergeTicketBody,
  notificationListQuery,
  olderQuery,
  policyBody,
  policyOrderBody,
  preferencesBody,
  registerBody,
  requestPasswordResetBody,
  requesterTicketsQuery,
  resetPasswordBody,
  ticketFiltersQuery,
  ticketListQuery,
  updateArticleBody,
  updateCannedResponseBody,
  updateStaffBody,
  updateTicketBody,
  updateViewBody,
  updateWebhookBody,
  viewIdParam,
  webhookDeliveriesQuery,
} from '@helpdesk/protocol';
import * as answers from '@helpdesk/protocol/responses';
import { z } from 'zod';

/**
 * Who may call a route, as its middleware decides: `public` asks for nothing, `optional` reads a
 * session when one is sent, `signedIn` needs one (the service then checks ownership), `staff` and
 * `admin` are the role gates. The OpenAPI test checks each against the router's own middleware.
 */
export type Access = 'public' | 'optional' | 'signedIn' | 'staff' | 'admin';

/** What a route answers on success: a JSON schema, a file's bytes, or the reference's own page and files. */
export type Answer = z.ZodType | 'file' | 'html' | 'asset' | 'openapi';

export interface Operation {
  summary: string;
  /** The group the reference lists it under. */
  tag: string;
  access: Access;
  /** The parameters of the path, as the route parses them. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A multipart upload of files (field `files`). */
  upload?: true;
  status?: 200 | 201;
  answer: Answer;
  /** Answers beside the usual ones (400 on bad input, 401/403 by access, 404 with an id, 429). */
  conflict?: true;
}

const id = z.object({ id: idParam });
const viewId = z.object({ id: viewIdParam });
const surveyToken = z.object({ token: z.string().regex(CSAT_TOKEN_PATTERN) });

/**
 * Every route under /api by `METHOD /path` (the router's template, without `/api`), with what it takes
 * and answers in protocol's schemas. The document (openapi/document.ts) is made from this table, and a
 * test fails when the router and the table disagree in either direction (docs/api.md#openapi).
 */
export const OPERATIONS: Record<string, Operation> = {
  'GET /config': {
    summary: 'Public settings the sign-up page needs',
    tag: 'System',
    access: 'public',
    answer: answers.configResponseSchema,
  },
  'GET /health': {
    summary: 'Liveness and database check (503 when the database is down)',
    tag: 'System',
    access: 'public',
    answer: answers.healthResponseSchema,
  },
  'GET /openapi.json': { summary: 'This document', tag: 'System', access: 'public', answer: 'openapi' },
  'GET /docs': { summary: 'The interactive API reference', tag: 'System', access: 'public', answer: 'html' },
  'GET /docs/:file': {
    summary: "A file of the interactive reference's page",
    tag: 'System',
    access: 'public',
    params: z.object({ file: z.string() }),
    answer: 'asset',
  },

  'POST /auth/register': {
    summary: 'Create an account (staff accounts need an admin session)',
    tag: 'Authentication',
    access: 'optional',
    body: registerBody,
    status: 201,
    answer: answers.authResponseSchema,
    conflict: true,
  },
  'POST /auth/login': { summary: 'Sign in', tag: 'Authentication', access: 'public', body: loginBody, answer: answers.authResponseSchema },
  'POST /auth/request-password-reset': {
    summary: 'Mail a password reset link',
    tag: 'Authentication',
    access: 'public',
    body: requestPasswordResetBody,
    answer: answers.messageResponseSchema,
  },
  'POST /auth/reset-password': {
    summary: 'Set a new password with a reset token',
    tag: 'Authentication',
    access: 'public',
    body: resetPasswordBody,
    answer: answers.messageResponseSchema,
  },
  'GET /auth/verify': { summary: "The session's user", tag: 'Authentication', access: 'signedIn', answer: answers.userResponseSchema },

  'GET /users/profile': { summary: 'Your profile', tag: 'Users', access: 'signedIn', answer: answers.userResponseSchema },
  'PUT /users/preferences': {
    summary: 'Your mail preferences',
    tag: 'Users',
    access: 'signedIn',
    body: preferencesBody,
    answer: answers.userMessageResponseSchema,
  },
  'PUT /users/password': {
    summary: 'Change your password (returns a fresh session token)',
    tag: 'Users',
    access: 'signedIn',
    body: changePasswordBody,
    answer: answers.changePasswordResponseSchema,
  },
  'GET /users/staff': { summary: 'Staff names, for mentions', tag: 'Users', access: 'staff', answer: answers.staffDirectoryResponseSchema },
  'GET /users/:id/tickets': {
    summary: "A requester's account and newest tickets",
    tag: 'Users',
    access: 'staff',
    params: id,
    query: requesterTicketsQuery,
    answer: answers.requesterTicketsResponseSchema,
  },
  'GET /users': { summary: 'All accounts', tag: 'Users', access: 'admin', query: listUsersQuery, answer: answers.usersResponseSchema },
  'POST /users': {
    summary: 'Create a staff account',
    tag: 'Users',
    access: 'admin',
    body: createStaffBody,
    status: 201,
    answer: answers.userMessageResponseSchema,
    conflict: true,
  },
  'PUT /users/:id': {
    summary: 'Edit a staff account',
    tag: 'Users',
    access: 'admin',
    params: id,
    body: updateStaffBody,
    answer: answers.userMessageResponseSchema,
  },
  'DELETE /users/:id': {
    summary: 'Delete an account (its tickets stay; assigned ones become unassigned)',
    tag: 'Users',
    access: 'admin',
    params: id,
    answer: answers.messageResponseSchema,
  },

  'GET /tickets': {
    summary: 'A page of tickets: your own, or the queue for staff',
    tag: 'Tickets',
    access: 'signedIn',
    query: ticketListQuery,
    answer: answers.ticketListResponseSchema,
  },
  'GET /tickets/stats': {
    summary: 'Counts by status for the same filters',
    tag: 'Tickets',
    access: 'signedIn',
    query: ticketFiltersQuery,
    answer: answers.ticketStatsResponseSchema,
  },
  'POST /tickets': {
    summary: 'Create a ticket',
    tag: 'Tickets',
    access: 'signedIn',
    body: createTicketBody,
    status: 201,
    answer: answers.ticketMessageResponseSchema,
  },
  'GET /tickets/:id': {
    summary: 'A ticket with its latest comments and history',
    tag: 'Tickets',
    access: 'signedIn',
    params: id,
    answer: answers.ticketResponseSchema,
  },
  'PUT /tickets/:id': {
    summary: 'Change a ticket (409 with the current ticket when `expectedVersion` is stale)',
    tag: 'Tickets',
    access: 'signedIn',
    params: id,
    body: updateTicketBody,
    answer: answers.ticketMessageResponseSchema,
    conflict: true,
  },
  'DELETE /tickets/:id': {
    summary: 'Delete a ticket',
    tag: 'Tickets',
    access: 'signedIn',
    params: id,
    answer: answers.messageResponseSchema,
  },
  'GET /tickets/:id/comments': {
    summary: 'Older comments',
    tag: 'Tickets',
    access: 'signedIn',
    params: id,
    query: olderQuery,
    answer: answers.ticketCommentsResponseSchema,
  },
  'POST /tickets/:id/comments': {
    summary: 'Reply or add an internal note',
    tag: 'Tickets',
    access: 'signedIn',
    params: id,
    body: commentBody,
    status: 201,
    answer: answers.commentResponseSchema,
    conflict: true,
  },
  'GET /tickets/:id/history': {
    summary: 'Older history entries',
    tag: 'Tickets',
    access: 'signedIn',
    params: id,
    query: olderQuery,
    answer: answers.ticketHistoryResponseSchema,
  },
  'POST /tickets/bulk': {
    summary: 'One change to up to 100 tickets',
    tag: 'Tickets',
    access: 'staff',
    body: bulkUpdateBody,
    answer: answers.bulkUpdateResponseSchema,
  },
  'POST /tickets/:id/merge': {
    summary: 'Merge a ticket into another',
    tag: 'Tickets',
    access: 'staff',
    params: id,
    body: mergeTicketBody,
    answer: answers.mergeTicketResponseSchema,
    conflict: true,
  },
  'GET /tags': { summary: 'Tags in use, most used first', tag: 'Tickets', access: 'staff', answer: answers.tagsResponseSchema },
  'POST /uploads': {
    summary: 'Upload files to attach to a new ticket or comment',
    tag: 'Attachments',
    access: 'signedIn',
    upload: true,
    status: 201,
    answer: answers.uploadResponseSchema,
  },
  'GET /attachments/:id': { summary: "A file's bytes", tag: 'Attachments', access: 'signedIn', params: id, answer: 'file' },

  'GET /notifications': {
    summary: 'Your notifications',
    tag: 'Notifications',
    access: 'signedIn',
    query: notificationListQuery,
    answer: answers.notificationListResponseSchema,
  },
  'POST /notifications/read': {
    summary: 'Mark notifications read',
    tag: 'Notifications',
    access: 'signedIn',
    body: markNotificationsReadBody,
    answer: answers.notificationReadResponseSchema,
  },

  'GET /knowledge': {
    summary: 'Search and list articles',
    tag: 'Knowledge base',
    access: 'public',
    query: articleListQuery,
    answer: answers.articleListResponseSchema,
  },
  'GET /knowledge/:id': {
    summary: 'An article',
    tag: 'Knowledge base',
    access: 'public',
    params: id,
    answer: answers.articleResponseSchema,
  },
  'POST /knowledge/:id/helpful': {
    summary: 'Mark an article helpful',
    tag: 'Knowledge base',
    access: 'optional',
    params: id,
    answer: answers.helpfulResponseSchema,
  },
  'POST /knowledge': {
    summary: 'Write an article',
    tag: 'Knowledge base',
    access: 'staff',
    body: createArticleBody,
    status: 201,
    answer: answers.articleResponseSchema,
  },
  'PUT /knowledge/:id': {
    summary: 'Edit an article',
    tag: 'Knowledge base',
    access: 'staff',
    params: id,
    body: updateArticleBody,
    answer: answers.articleResponseSchema,
  },
  'DELETE /knowledge/:id': {
    summary: 'Delete an article',
    tag: 'Knowledge base',
    access: 'staff',
    params: id,
    answer: answers.messageResponseSchema,
  },

  'GET /views': {
    summary: 'Built-in, shared and your own saved views',
    tag: 'Views',
    access: 'staff',
    answer: answers.viewsResponseSchema,
  },
  'GET /views/counts': { summary: "Each view's ticket count", tag: 'Views', access: 'staff', answer: answers.viewCountsResponseSchema },
  'POST /views': {
    summary: 'Save a view',
    tag: 'Views',
    access: 'staff',
    body: createViewBody,
    status: 201,
    answer: answers.viewResponseSchema,
  },
  'PUT /views/:id': {
    summary: 'Change a view',
    tag: 'Views',
    access: 'staff',
    params: viewId,
    body: updateViewBody,
    answer: answers.viewResponseSchema,
  },
  'DELETE /views/:id': { summary: 'Delete a view', tag: 'Views', access: 'staff', params: viewId, answer: answers.messageResponseSchema },
  'GET /canned-responses': {
    summary: 'Shared and your own canned responses',
    tag: 'Canned responses',
    access: 'staff',
    answer: answers.cannedResponsesResponseSchema,
  },
  'POST /canned-responses': {
    summary: 'Save a canned response',
    tag: 'Canned responses',
    access: 'staff',
    body: createCannedResponseBody,
    status: 201,
    answer: answers.cannedResponseResponseSchema,
  },
  'PUT /canned-responses/:id': {
    summary: 'Change a canned response',
    tag: 'Canned responses',
    access: 'staff',
    params: id,
    body: updateCannedResponseBody,
    answer: answers.cannedResponseResponseSchema,
  },
  'DELETE /canned-responses/:id': {
    summary: 'Delete a canned response',
    tag: 'Canned responses',
    access: 'staff',
    params: id,
    answer: answers.messageResponseSchema,
  },

  'GET /sla/calendars': { summary: 'Business calendars', tag: 'Service levels', access: 'staff', answer: answers.calendarsResponseSchema },
  'GET /sla/calendars/:id': {
    summary: 'A business calendar',
    tag: 'Service levels',
    access: 'staff',
    params: id,
    answer: answers.calendarResponseSchema,
  },
  'POST /sla/calendars': {
    summary: 'Create a business calendar',
    tag: 'Service levels',
    access: 'admin',
    body: calendarBody,
    status: 201,
    answer: answers.calendarResponseSchema,
    conflict: true,
  },
  'PUT /sla/calendars/:id': {
    summary: 'Change a business calendar',
    tag: 'Service levels',
    access: 'admin',
    params: id,
    body: calendarBody,
    answer: answers.calendarResponseSchema,
    conflict: true,
  },
  'DELETE /sla/calendars/:id': {
    summary: 'Delete a business calendar no policy uses',
    tag: 'Service levels',
    access: 'admin',
    params: id,
    answer: answers.messageResponseSchema,
    conflict: true,
  },
  'GET /sla/policies': {
    summary: 'SLA policies in the order they are tried',
    tag: 'Service levels',
    access: 'staff',
    answer: answers.policiesResponseSchema,
  },
  'PUT /sla/policies/order': {
    summary: 'Reorder the SLA policies',
    tag: 'Service levels',
    access: 'admin',
    body: policyOrderBody,
    answer: answers.policiesResponseSchema,
  },
  'GET /sla/policies/:id': {
    summary: 'An SLA policy',
    tag: 'Service levels',
    access: 'staff',
    params: id,
    answer: answers.policyResponseSchema,
  },
  'POST /sla/policies': {
    summary: 'Create an SLA policy',
    tag: 'Service levels',
    access: 'admin',
    body: policyBody,
    status: 201,
    answer: answers.policyResponseSchema,
    conflict: true,
  },
  'PUT /sla/policies/:id': {
    summary: 'Change an SLA policy (open tickets are re-timed in the background)',
    tag: 'Service levels',
    access: 'admin',
    params: id,
    body: policyBody,
    answer: answers.policyResponseSchema,
    conflict: true,
  },
  'DELETE /sla/policies/:id': {
    summary: 'Delete an SLA policy',
    tag: 'Service levels',
    access: 'admin',
    params: id,
    answer: answers.messageResponseSchema,
  },

  'GET /email/settings': {
    summary: 'The mail intake settings in force',
    tag: 'Email',
    access: 'admin',
    answer: answers.emailSettingsResponseSchema,
  },
  'GET /email/inbound': {
    summary: 'Received mail, newest first',
    tag: 'Email',
    access: 'admin',
    query: inboundListQuery,
    answer: answers.inboundMessagesResponseSchema,
  },
  'POST /email/inbound/:id/retry': {
    summary: 'File a failed message again',
    tag: 'Email',
    access: 'admin',
    params: id,
    answer: answers.inboundMessageResponseSchema,
    conflict: true,
  },
  'GET /email/inbound/:id/raw': {
    summary: 'A received message as it came (.eml)',
    tag: 'Email',
    access: 'staff',
    params: id,
    answer: 'file',
  },

  'GET /csat/:token': {
    summary: "A satisfaction survey, by its mailed link's token (reading records nothing)",
    tag: 'Satisfaction surveys',
    access: 'public',
    params: surveyToken,
    answer: answers.csatSurveyResponseSchema,
  },
  'POST /csat/:token': {
    summary: 'Answer a satisfaction survey by its link (again until it expires: the last answer counts)',
    tag: 'Satisfaction surveys',
    access: 'public',
    params: surveyToken,
    body: csatAnswerBody,
    answer: answers.messageResponseSchema,
  },
  'GET /tickets/:id/csat': {
    summary: "Your resolved ticket's survey while it can be answered (owner only)",
    tag: 'Satisfaction surveys',
    access: 'signedIn',
    params: id,
    answer: answers.ticketCsatSurveyResponseSchema,
  },
  'POST /tickets/:id/csat': {
    summary: "Answer your resolved ticket's survey (owner only)",
    tag: 'Satisfaction surveys',
    access: 'signedIn',
    params: id,
    body: csatAnswerBody,
    answer: answers.messageResponseSchema,
  },

  'GET /tokens': {
    summary: 'Your API tokens (an admin sees everyone’s)',
    tag: 'API tokens',
    access: 'staff',
    answer: answers.apiTokensResponseSchema,
  },
  'POST /tokens': {
    summary: 'Create an API token; its secret is shown once',
    tag: 'API tokens',
    access: 'staff',
    body: createApiTokenBody,
    status: 201,
    answer: answers.createdApiTokenResponseSchema,
    conflict: true,
  },
  'DELETE /tokens/:id': {
    summary: 'Revoke an API token',
    tag: 'API tokens',
    access: 'staff',
    params: id,
    answer: answers.messageResponseSchema,
  },

  'GET /webhooks': {
    summary: 'Outgoing webhooks, oldest first (never their secrets)',
    tag: 'Webhooks',
    access: 'admin',
    answer: answers.webhooksResponseSchema,
  },
  'POST /webhooks': {
    summary: 'Add a webhook; its signing secret is shown once',
    tag: 'Webhooks',
    access: 'admin',
    body: createWebhookBody,
    status: 201,
    answer: answers.webhookSecretResponseSchema,
  },
  'PUT /webhooks/:id': {
    summary: 'Change a webhook (turning it off fails its waiting deliveries)',
    tag: 'Webhooks',
    access: 'admin',
    params: id,
    body: updateWebhookBody,
    answer: answers.webhookResponseSchema,
  },
  'DELETE /webhooks/:id': {
    summary: 'Delete a webhook and its delivery log',
    tag: 'Webhooks',
    access: 'admin',
    params: id,
    answer: answers.messageResponseSchema,
  },
  'POST /webhooks/:id/rotate-secret': {
    summary: 'Make a new signing secret, shown once; the old one stops signing at once',
    tag: 'Webhooks',
    access: 'admin',
    params: id,
    answer: answers.webhookSecretResponseSchema,
  },
  'POST /webhooks/:id/test': {
    summary: 'Queue a webhook.test delivery to this webhook',
    tag: 'Webhooks',
    access: 'admin',
    params: id,
    answer: answers.webhookDeliveryResponseSchema,
  },
  'GET /webhooks/:id/deliveries': {
    summary: "A webhook's deliveries, newest first",
    tag: 'Webhooks',
    access: 'admin',
    params: id,
    query: webhookDeliveriesQuery,
    answer: answers.webhookDeliveriesResponseSchema,
  },
  'POST /webhooks/deliveries/:id/retry': {
    summary: 'Send a failed delivery again, with a fresh run of attempts',
    tag: 'Webhooks',
    access: 'admin',
    params: id,
    answer: answers.webhookDeliveryResponseSchema,
  },
};
