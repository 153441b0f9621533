import {
  MESSAGES,
  canUseSharedItems,
  createCannedResponseBody,
  idParam,
  updateCannedResponseBody,
  type CannedResponseResponse,
  type CannedResponsesResponse,
  type MessageResponse,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import type { RouteDeps } from './deps.js';
import { actorOf, createRouter } from './router.js';

export function cannedResponseRoutes({ services, auth }: RouteDeps) {
  const router = createRouter();
  const staff = auth.allow(canUseSharedItems, MESSAGES.http.staffOnly);

  router.get('/canned-responses', staff, async (ctx) => {
    ctx.body = { success: true, cannedResponses: await services.cannedResponses.list(actorOf(ctx)) } satisfies CannedResponsesResponse;
  });

  router.post('/canned-responses', staff, async (ctx) => {
    const input = parseBody(createCannedResponseBody, ctx.request.body);
    const cannedResponse = await services.cannedResponses.create(actorOf(ctx), input);
    ctx.status = 201;
    ctx.body = { success: true, cannedResponse } satisfies CannedResponseResponse;
  });

  router.put('/canned-responses/:id', staff, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const input = parseBody(updateCannedResponseBody, ctx.request.body);
    ctx.body = {
      success: true,
      cannedResponse: await services.cannedResponses.update(actorOf(ctx), id, input),
    } satisfies CannedResponseResponse;
  });

  router.delete('/canned-responses/:id', staff, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    await services.cannedResponses.remove(actorOf(ctx), id);
    ctx.body = { success: true, message: MESSAGES.cannedResponses.deleted } satisfies MessageResponse;
  });

  return router;
}
