import {
  MESSAGES,
  canUseSharedItems,
  createViewBody,
  updateViewBody,
  viewIdParam,
  type MessageResponse,
  type ViewCountsResponse,
  type ViewResponse,
  type ViewsResponse,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import type { RouteDeps } from './deps.js';
import { actorOf, createRouter } from './router.js';

export function viewRoutes({ services, auth }: RouteDeps) {
  const router = createRouter();
  const staff = auth.allow(canUseSharedItems, MESSAGES.http.staffOnly);

  router.get('/views', staff, async (ctx) => {
    ctx.body = { success: true, views: await services.views.list(actorOf(ctx)) } satisfies ViewsResponse;
  });

  // Registered before /views/:id, so "counts" is never read as an id.
  router.get('/views/counts', staff, async (ctx) => {
    ctx.body = { success: true, counts: await services.views.counts(actorOf(ctx)) } satisfies ViewCountsResponse;
  });

  router.post('/views', staff, async (ctx) => {
    const input = parseBody(createViewBody, ctx.request.body);
    const view = await services.views.create(actorOf(ctx), input);
    ctx.status = 201;
    ctx.body = { success: true, view } satisfies ViewResponse;
  });

  router.put('/views/:id', staff, async (ctx) => {
    const id = parseInput(viewIdParam, ctx.params.id);
    const input = parseBody(updateViewBody, ctx.request.body);
    ctx.body = { success: true, view: await services.views.update(actorOf(ctx), id, input) } satisfies ViewResponse;
  });

  router.delete('/views/:id', staff, async (ctx) => {
    const id = parseInput(viewIdParam, ctx.params.id);
    await services.views.remove(actorOf(ctx), id);
    ctx.body = { success: true, message: MESSAGES.views.deleted } satisfies MessageResponse;
  });

  return router;
}
