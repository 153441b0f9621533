import {
  MESSAGES,
  createApiTokenBody,
  idParam,
  isStaff,
  type ApiTokensResponse,
  type CreatedApiTokenResponse,
  type MessageResponse,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { RouteDeps } from './deps.js';
import { actorOf, createRouter } from './router.js';

/** docs/api.md#api-tokens: staff's own tokens; admins see and revoke everyone's. */
export function apiTokenRoutes({ services, auth }: RouteDeps) {
  const router = createRouter();
  const staff = auth.allow(isStaff, MESSAGES.http.staffOnly);

  router.get('/tokens', staff, async (ctx) => {
    ctx.body = { success: true, tokens: await services.apiTokens.list(actorOf(ctx)) } satisfies ApiTokensResponse;
  });

  router.post('/tokens', auth.allow(isStaff, MESSAGES.apiTokens.staffOnly), jsonBody, async (ctx) => {
    const input = parseBody(createApiTokenBody, ctx.request.body);
    const { token, secret } = await services.apiTokens.create(actorOf(ctx), input);
    ctx.status = 201;
    ctx.body = { success: true, token, secret } satisfies CreatedApiTokenResponse;
  });

  router.delete('/tokens/:id', staff, async (ctx) => {
    await services.apiTokens.revoke(actorOf(ctx), parseInput(idParam, ctx.params.id));
    ctx.body = { success: true, message: MESSAGES.apiTokens.revoked } satisfies MessageResponse;
  });

  return router;
}
