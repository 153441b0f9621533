import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Middleware } from 'koa';
import { MESSAGES, type ErrorResponse } from '@helpdesk/protocol';
import type { Logger } from '../lib/logger.js';
import type { AppState } from '../middleware/state.js';
import type { Metrics } from './metrics.js';

export const METRICS_PATH = '/metrics';
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Compared as digests, so neither the token's length nor its first differing byte shows in the time taken. */
const digest = (text: string) => createHash('sha256').update(text).digest();
const bearerMatches = (header: string | undefined, token: string) => {
  const given = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
};

/**
 * `GET /metrics` on the app's own port, for a scraper that sends METRICS_TOKEN as a bearer token
 * (docs/api.md#metrics). Without the token set, the path is not served here (404), so an instance
 * reachable from the internet never shows its figures to anyone.
 */
export function metricsEndpoint(metrics: Metrics | undefined, token: string | undefined): Middleware<AppState> {
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH || !['GET', 'HEAD'].includes(ctx.method) || !metrics || token === undefined) {
      await next();
      return;
    }
    if (!bearerMatches(ctx.get('authorization') || undefined, token)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.body = { success: false, message: MESSAGES.auth.authRequired } satisfies ErrorResponse;
      return;
    }
    ctx.type = CONTENT_TYPE;
    ctx.body = await metrics.render();
  };
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * METRICS_PORT: `/metrics` alone on a port of its own, for a network only the scraper reaches; with
 * METRICS_TOKEN set it asks for the token there too. Anything else on that port is a 404.
 */
export async function startMetricsListener(
  metrics: Metrics,
  options: { port: number; host?: string; token?: string },
  logger: Logger,
): Promise<MetricsListener> {
  const answer = async (req: IncomingMessage): Promise<{ status: number; type: string; body: string }> => {
    const json = (status: number, message: string) => ({
      status,
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({ success: false, message } satisfies ErrorResponse),
    });
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return json(404, MESSAGES.http.notFound);
    if (options.token !== undefined && !bearerMatches(req.headers.authorization, options.token))
      return json(401, MESSAGES.auth.authRequired);
    return { status: 200, type: CONTENT_TYPE, body: await metrics.render() };
  };
  const server: Server = createServer((req, res) => {
    answer(req).then(
      ({ status, type, body }) => {
        res.writeHead(status, { 'Content-Type': type, ...(status === 401 && { 'WWW-Authenticate': 'Bearer' }) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        logger.error({ err }, 'metrics not rendered');
        res.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ success: false, message: MESSAGES.http.internal } satisfies ErrorResponse));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ host: options.host, port }, 'metrics listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
