import { createAccountService } from './accounts.js';
import { createCannedResponseService } from './cannedResponses.js';
import type { ServiceContext } from './context.js';
import { createKnowledgeService } from './knowledge.js';
import { createNotificationService } from './notifications.js';
import { createPasswordResetService } from './passwordReset.js';
import { createTicketService } from './tickets.js';
import { createUserService } from './users.js';
import { createViewService } from './views.js';

export type Services = ReturnType<typeof createServices>;

export function createServices(context: ServiceContext) {
  const accounts = createAccountService(context);
  return {
    accounts,
    passwordReset: createPasswordResetService(context, accounts),
    users: createUserService(context),
    tickets: createTicketService(context),
    knowledge: createKnowledgeService(context),
    notifications: createNotificationService(context),
    views: createViewService(context),
    cannedResponses: createCannedResponseService(context),
  };
}
