import {
  MESSAGES,
  canManageUsers,
  loginBody,
  registerBody,
  requestPasswordResetBody,
  resetPasswordBody,
  type AuthResponse,
  type MessageResponse,
  type UserResponse,
} from '@helpdesk/protocol';
import { parseBody } from '../lib/validation.js';
import { noApiTokens } from '../middleware/auth.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { RouteDeps } from './deps.js';
import { actorOf, clientIp, createRouter } from './router.js';

export function authRoutes({ services, auth, limiters }: RouteDeps) {
  const router = createRouter();

  // Optional auth: an admin's token is what allows role "admin" (docs/api.md#auth-endpoints).
  router.post('/auth/register', auth.optional, jsonBody, async (ctx) => {
    const input = parseBody(registerBody, ctx.request.body);
    // An admin creating accounts for others is not the abuse the per-address budget is about.
    if (!ctx.state.actor || !canManageUsers(ctx.state.actor)) await limiters.signupPerAddress.consume(clientIp(ctx));
    const session = await services.accounts.register(ctx.state.actor, input);
    ctx.status = 201;
    ctx.body = { success: true, ...session } satisfies AuthResponse;
  });

  router.post('/auth/login', noApiTokens, jsonBody, async (ctx) => {
    const input = parseBody(loginBody, ctx.request.body);
    const address = clientIp(ctx);
    const key = `${address}|${input.email}`;
    // Both budgets are spent (atomically, in memory or Redis) before the password is checked, so
    // parallel guesses cannot overrun them. A success clears the email's count and gives the address
    // its point back, so successful sign-ins (a whole office behind one NAT) do not spend it.
    await limiters.login.consume(key);
    await limiters.loginPerAddress.consume(address);
    const session = await services.accounts.login(input);
    await Promise.all([limiters.login.reset(key), limiters.loginPerAddress.refund(address)]);
    ctx.body = { success: true, ...session } satisfies AuthResponse;
  });

  router.post('/auth/request-password-reset', noApiTokens, jsonBody, async (ctx) => {
    const { email } = parseBody(requestPasswordResetBody, ctx.request.body);
    await limiters.resetPerIp.consume(clientIp(ctx));
    await limiters.resetPerEmail.consume(`${clientIp(ctx)}|${email}`);
    services.passwordReset.request(email);
    ctx.body = { success: true, message: MESSAGES.auth.resetRequested } satisfies MessageResponse;
  });

  router.post('/auth/reset-password', noApiTokens, jsonBody, async (ctx) => {
    const { token, newPassword } = parseBody(resetPasswordBody, ctx.request.body);
    await limiters.resetSubmitPerAddress.consume(clientIp(ctx));
    await services.passwordReset.reset(token, newPassword);
    ctx.body = { success: true, message: MESSAGES.auth.resetDone } satisfies MessageResponse;
  });

  router.get('/auth/verify', auth.required, async (ctx) => {
    ctx.body = { success: true, user: await services.accounts.profile(actorOf(ctx)) } satisfies UserResponse;
  });

  return router;
}
