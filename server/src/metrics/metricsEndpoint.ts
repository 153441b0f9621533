import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Middleware } from 'koa';
import { MESSAGES, type ErrorResponse } from '@helpdesk/protocol';
import type { Logger } from '../lib/logger.js';
import { bearer } from '../middleware/auth.js';
import type { AppState } from '../middleware/state.js';
import type { Metrics } from './metrics.js';

export const METRICS_PATH = '/metrics';
const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Compared as digests, so neither the token's length nor its first differing byte shows in the time taken. */
const digest = (text: string) => createHash('sha256').update(text).digest();

interface ScrapeAnswer {
  status: number;
  type: string;
  body: string;
}
const JSON_TYPE = 'application/json; charset=utf-8';
const errorAnswer = (status: number, message: string): ScrapeAnswer => ({
  status,
  type: JSON_TYPE,
  body: JSON.stringify({ success: false, message } satisfies ErrorResponse),
});

/**
 * The answer to a request, on either listener, when it is a scrape (`GET` or `HEAD` of /metrics);
 * undefined for anything else. With `token` set it must come as the bearer token, else 401.
 */
async function scrape(
  metrics: Metrics,
  token: string | undefined,
  request: { method: string; path: string; authorization: string | undefined },
): Promise<ScrapeAnswer | undefined> {
  if (request.path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
  const given = bearer(request.authorization);
  if (token !== undefined && (given === undefined || !timingSafeEqual(digest(given), digest(token))))
    return errorAnswer(401, MESSAGES.auth.authRequired);
  return { status: 200, type: CONTENT_TYPE, body: await metrics.render() };
}

const headersOf = ({ status }: ScrapeAnswer): Record<string, string> => (status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {});

/**
 * `GET /metrics` on the app's own port, for a scraper that sends METRICS_TOKEN as a bearer token
 * (docs/api.md#metrics). Without the token set, the path is not served here (404), so an instance
 * reachable from the internet never shows its figures to anyone.
 */
export function metricsEndpoint(metrics: Metrics | undefined, token: string | undefined): Middleware<AppState> {
  return async (ctx, next) => {
    const answer =
      metrics && token !== undefined
        ? await scrape(metrics, token, { method: ctx.method, path: ctx.path, authorization: ctx.get('authorization') || undefined })
        : undefined;
    if (!answer) {
      await next();
      return;
    }
    ctx.status = answer.status;
    ctx.set(headersOf(answer));
    ctx.type = answer.type;
    ctx.body = answer.body;
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
  const answer = async (req: IncomingMessage): Promise<ScrapeAnswer> => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    const request = { method: req.method ?? 'GET', path, authorization: req.headers.authorization };
    return (await scrape(metrics, options.token, request)) ?? errorAnswer(404, MESSAGES.http.notFound);
  };
  const server: Server = createServer((req, res) => {
    answer(req).then(
      (scraped) => {
        res.writeHead(scraped.status, { 'Content-Type': scraped.type, ...headersOf(scraped) });
        res.end(req.method === 'HEAD' ? undefined : scraped.body);
      },
      (err: unknown) => {
        logger.error({ err }, 'metrics not rendered');
        const failed = errorAnswer(500, MESSAGES.http.internal);
        res.writeHead(failed.status, { 'Content-Type': failed.type });
        res.end(failed.body);
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
