import type { ConfigResponse, HealthResponse } from '@helpdesk/protocol';
import type { RouteDeps } from './deps.js';
import { createRouter } from './router.js';

const HEALTH_TIMEOUT_MS = 2000;

export function systemRoutes({ settings, database, inboundSmtpPort }: RouteDeps) {
  const router = createRouter();

  router.get('/config', (ctx) => {
    ctx.body = { success: true, agentSignup: settings.agentSignup } satisfies ConfigResponse;
  });

  router.get('/health', async (ctx) => {
    const db = await Promise.race([
      database.ping().then(() => 'ok' as const),
      new Promise<'error'>((resolve) => setTimeout(resolve, HEALTH_TIMEOUT_MS, 'error').unref()),
    ]).catch(() => 'error' as const);
    ctx.status = db === 'ok' ? 200 : 503;
    ctx.body = {
      status: db === 'ok' ? 'ok' : 'error',
      db,
      ...(inboundSmtpPort !== undefined && { inboundSmtpPort }),
    } satisfies HealthResponse;
  });

  return router;
}
