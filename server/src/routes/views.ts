import {
  MESSAGES,
  canUseSharedItems,
  createViewBody,
  updateViewBody,
  viewIdParam,
  type ViewCountsResponse,
  type ViewResponse,
  type ViewsResponse,
} from '@helpdesk/protocol';
import type { RouteDeps } from './deps.js';
import { actorOf, createRouter } from './router.js';
import { addSharedItemRoutes } from './sharedItems.js';

export function viewRoutes({ services, auth }: RouteDeps) {
  const router = createRouter();
  const staff = auth.allow(canUseSharedItems, MESSAGES.http.staffOnly);

  // Registered before /views/:id, so "counts" is never read as an id.
  router.get('/views/counts', staff, async (ctx) => {
    ctx.body = { success: true, counts: await services.views.counts(actorOf(ctx)) } satisfies ViewCountsResponse;
  });

  addSharedItemRoutes(router, {
    path: '/views',
    guard: staff,
    calls: services.views,
    schemas: { id: viewIdParam, create: createViewBody, update: updateViewBody },
    answerList: (ctx, views) => {
      ctx.body = { success: true, views } satisfies ViewsResponse;
    },
    answerItem: (ctx, view) => {
      ctx.body = { success: true, view } satisfies ViewResponse;
    },
    deleted: MESSAGES.views.deleted,
  });

  return router;
}
