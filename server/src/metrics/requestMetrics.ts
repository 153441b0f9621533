import type { Middleware } from 'koa';
import { isServerPath } from '../middleware/clientApp.js';
import type { AppState } from '../middleware/state.js';
import type { MetricsRecorder } from './metrics.js';
import { METRICS_PATH } from './metricsEndpoint.js';

/**
 * Times every request by the router's template (`/api/tickets/:id`), never the path itself: a path
 * holds ids, and one label value per ticket would grow without end. The client's pages and files are
 * one route, `client`; a server path no route took is `unmatched`; the scrape itself is `/metrics`.
 */
export function requestMetrics(metrics: MetricsRecorder): Middleware<AppState> {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      const route =
        typeof matched === 'string' ? matched : ctx.path === METRICS_PATH ? METRICS_PATH : isServerPath(ctx.path) ? 'unmatched' : 'client';
      metrics.request(ctx.method, route, ctx.status, (performance.now() - started) / 1000);
    }
  };
}
