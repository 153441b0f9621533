import type { Middleware } from 'koa';

/** Mantine sets inline styles, so styles allow 'unsafe-inline'; scripts come only from this origin. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // blob: the ticket page shows image attachments it fetched with the session's token.
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/**
 * Headers for every response, and for every HTML one (whichever path served it: `/`, a page path,
 * `/index.html`) the CSP and a frame ban, so no other site can frame the signed-in app.
 */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    try {
      await next();
    } finally {
      if (ctx.response.is('html')) {
        // A downloaded .html file keeps its own, stricter policy (routes/attachments.ts).
        if (!ctx.response.get('Content-Security-Policy')) ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
        ctx.set('X-Frame-Options', 'DENY');
      }
    }
  };
}
