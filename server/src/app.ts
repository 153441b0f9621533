import Koa from 'koa';
import { MESSAGES, type ErrorResponse } from '@helpdesk/protocol';
import type { Logger } from './lib/logger.js';
import { clientApp } from './middleware/clientApp.js';
import { errorHandler } from './middleware/errors.js';
import { readAt } from './middleware/readAt.js';
import { requestLog } from './middleware/requestLog.js';
import { robotsTxt } from './middleware/robotsTxt.js';
import { securityHeaders } from './middleware/securityHeaders.js';
import type { Metrics } from './metrics/metrics.js';
import { metricsEndpoint } from './metrics/metricsEndpoint.js';
import { requestMetrics } from './metrics/requestMetrics.js';
import type { AppState } from './middleware/state.js';
import { apiReferenceRoutes } from './routes/apiReference.js';
import { apiTokenRoutes } from './routes/apiTokens.js';
import { attachmentRoutes } from './routes/attachments.js';
import { authRoutes } from './routes/auth.js';
import { csatRoutes } from './routes/csat.js';
import { reportRoutes } from './routes/reports.js';
import { emailRoutes } from './routes/email.js';
import type { RouteDeps } from './routes/deps.js';
import { knowledgeRoutes } from './routes/knowledge.js';
import { notificationRoutes } from './routes/notifications.js';
import { createRouter } from './routes/router.js';
import { systemRoutes } from './routes/system.js';
import { ticketRoutes } from './routes/tickets.js';
import { viewRoutes } from './routes/views.js';
import { cannedResponseRoutes } from './routes/cannedResponses.js';
import { userRoutes } from './routes/users.js';
import { slaRoutes } from './routes/sla.js';
import { webhookRoutes } from './routes/webhooks.js';

export interface AppOptions extends RouteDeps {
  logger: Logger;
  /** Trust X-Forwarded-* (behind a load balancer), so rate limits see the real client address. */
  trustProxy?: boolean;
  /** The built web client, served with an SPA fallback; absent in API-only tests. */
  clientDir?: string;
  /** Prometheus figures; absent when metrics are off (docs/api.md#metrics). */
  metrics?: Metrics;
  /** METRICS_TOKEN: with it, `/metrics` is served on this port to whoever sends it. */
  metricsToken?: string;
}

/** Every router under /api; tests list the registered routes from here, so none can be missed. */
export const API_ROUTERS = [
  systemRoutes,
  authRoutes,
  userRoutes,
  ticketRoutes,
  knowledgeRoutes,
  notificationRoutes,
  viewRoutes,
  cannedResponseRoutes,
  slaRoutes,
  attachmentRoutes,
  emailRoutes,
  apiTokenRoutes,
  webhookRoutes,
  csatRoutes,
  reportRoutes,
  apiReferenceRoutes,
] as const;

/** The Koa application without a listener, so tests and main.ts mount it alike. */
export function createApp(options: AppOptions): Koa<AppState> {
  // One trusted hop: the address our load balancer saw, never one a client wrote into the header.
  const app = new Koa<AppState>({ proxy: options.trustProxy ?? false, maxIpsCount: 1 });
  app.silent = true; // errors are logged by errorHandler, with the request id

  const api = createRouter();
  api.prefix('/api');
  for (const routes of API_ROUTERS) {
    api.use(routes(options).routes());
  }

  app.use(requestLog(options.logger));
  if (options.metrics) app.use(requestMetrics(options.metrics));
  app.use(readAt());
  app.use(errorHandler(options.logger));
  app.use(securityHeaders());
  app.use(robotsTxt());
  app.use(metricsEndpoint(options.metrics, options.metricsToken));
  if (options.clientDir) app.use(clientApp(options.clientDir));
  app.use(api.routes());
  app.use(async (ctx, next) => {
    await next();
    if (ctx.body === undefined && ctx.status === 404) {
      ctx.status = 404;
      ctx.body = { success: false, message: MESSAGES.http.notFound } satisfies ErrorResponse;
    }
  });
  return app;
}
