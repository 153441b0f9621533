import { existsSync } from 'node:fs';
import path from 'node:path';
import { send } from '@koa/send';
import type { Middleware } from 'koa';

/**
 * Serves the built web client on the API's port: files as they are (hashed assets cached for a
 * year, precompressed .br/.gz used when present), and index.html for every other page path so the
 * client router can show the page, or its own 404.
 */
export function clientApp(root: string): Middleware {
  const index = path.join(root, 'index.html');
  const available = existsSync(index);
  return async (ctx, next) => {
    if (!available || !['GET', 'HEAD'].includes(ctx.method) || isServerPath(ctx.path)) {
      await next();
      return;
    }
    const asset = ctx.path.startsWith('/assets/');
    try {
      await send(ctx, ctx.path, { root, index: false, gzip: true, brotli: true, immutable: asset, maxAge: asset ? 31_536_000_000 : 0 });
      if (ctx.status !== 404) return;
    } catch (error) {
      // A path send refuses (undecodable, or climbing out of the root) is answered as not found.
      if (isRefused(error)) {
        await next();
        return;
      }
      if (!isMissing(error)) throw error;
    }
    // A missing hashed asset must stay a 404, or a stale tab would parse HTML as JavaScript.
    if (asset) {
      await next();
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    await send(ctx, 'index.html', { root, gzip: true, brotli: true });
  };
}

/** Paths the API and Socket.IO answer; everything else is the client's. */
export const isServerPath = (p: string) => p === '/api' || p.startsWith('/api/') || p.startsWith('/socket.io') || p === '/metrics';
const statusOf = (error: unknown) => (typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined);
const isMissing = (error: unknown) => statusOf(error) === 404;
const isRefused = (error: unknown) => statusOf(error) === 400 || statusOf(error) === 403;
