import { createAccountService } from './accounts.js';
import { createApiTokenService } from './apiTokens.js';
import { createAttachmentService } from './attachments.js';
import { createCannedResponseService } from './cannedResponses.js';
import { createCsatService } from './csat.js';
import { createReportService } from './reports.js';
import { createInboundService } from './inbound/index.js';
import type { ServiceContext } from './context.js';
import { createKnowledgeService } from './knowledge.js';
import { createNotificationService } from './notifications.js';
import { createPasswordResetService } from './passwordReset.js';
import { createSearchCounts } from './searchCounts.js';
import { createSlaSettingsService } from './sla/settings.js';
import { createSlaReapply } from './sla/reapply.js';
import { createSlaScan } from './sla/scanner.js';
import { createTicketService } from './tickets/index.js';
import { createUserService } from './users.js';
import { createViewService } from './views.js';
import { createWebhookService } from './webhooks.js';

export type Services = ReturnType<typeof createServices>;

export function createServices(context: ServiceContext) {
  const accounts = createAccountService(context);
  const searchCounts = createSearchCounts(context);
  const tickets = createTicketService(context, searchCounts);
  const slaReapply = createSlaReapply(context.db, context.withTransaction, context.logger, { singleConnection: context.singleConnection });
  return {
    accounts,
    passwordReset: createPasswordResetService(context, accounts),
    users: createUserService(context),
    tickets,
    inbound: createInboundService(context, tickets),
    knowledge: createKnowledgeService(context),
    notifications: createNotificationService(context),
    views: createViewService(context, searchCounts),
    cannedResponses: createCannedResponseService(context),
    slaSettings: createSlaSettingsService(context, slaReapply),
    /** Re-applies edited SLA settings to open tickets in the background. */
    slaReapply,
    /** One pass of the SLA scanner (server.ts runs it every SLA_SCAN_INTERVAL_MS under its lock). */
    slaScan: createSlaScan(context),
    attachments: createAttachmentService(context),
    apiTokens: createApiTokenService(context),
    webhooks: createWebhookService(context),
    csat: createCsatService(context),
    reports: createReportService(context, context.settings.reportTimeZone),
  };
}
