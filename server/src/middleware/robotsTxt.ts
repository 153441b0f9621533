import type { Middleware } from 'koa';

/**
 * Crawlers may read the public knowledge base and the sign-in page; everything else is private or
 * an API. Answered by the server (not the client folder) so it is text even where no client is built.
 */
export const ROBOTS_TXT = ['User-agent: *', 'Allow: /knowledge', 'Allow: /login', 'Disallow: /', ''].join('\n');

export function robotsTxt(): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/robots.txt' || !['GET', 'HEAD'].includes(ctx.method)) {
      await next();
      return;
    }
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = ROBOTS_TXT;
  };
}
