import { MESSAGES, loginBody, registerBody, requestPasswordResetBody, resetPasswordBody } from '@helpdesk/protocol';
import { parseBody } from '../lib/validation.js';
import type { RouteDeps } from './deps.js';
import { actorOf, clientIp, createRouter } from './router.js';

export function authRoutes({ services, auth, limiters }: RouteDeps) {
  const router = createRouter();

  // Optional auth: an admin's token is what allows role "admin" (CONTRACT §4).
  router.post('/auth/register', auth.optional, async (ctx) => {
    const input = parseBody(registerBody, ctx.request.body);
    const session = await services.accounts.register(ctx.state.actor, input);
    ctx.status = 201;
    ctx.body = { success: true, ...session };
  });

  router.post('/auth/login', async (ctx) => {
    const input = parseBody(loginBody, ctx.request.body);
    const key = `${clientIp(ctx)}|${input.email}`;
    await limiters.login.check(key);
    try {
      const session = await services.accounts.login(input);
      await limiters.login.reset(key);
      ctx.body = { success: true, ...session };
    } catch (error) {
      await limiters.login.consume(key).catch(() => undefined);
      throw error;
    }
  });

  router.post('/auth/request-password-reset', async (ctx) => {
    const { email } = parseBody(requestPasswordResetBody, ctx.request.body);
    await limiters.resetPerIp.consume(clientIp(ctx));
    await limiters.resetPerEmail.consume(`${clientIp(ctx)}|${email}`);
    await services.passwordReset.request(email);
    ctx.body = { success: true, message: MESSAGES.auth.resetRequested };
  });

  router.post('/auth/reset-password', async (ctx) => {
    const { token, newPassword } = parseBody(resetPasswordBody, ctx.request.body);
    await services.passwordReset.reset(token, newPassword);
    ctx.body = { success: true, message: MESSAGES.auth.resetDone };
  });

  router.get('/auth/verify', auth.required, async (ctx) => {
    ctx.body = { success: true, user: await services.accounts.profile(actorOf(ctx)) };
  });

  return router;
}
