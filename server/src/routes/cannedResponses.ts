import {
  MESSAGES,
  canUseSharedItems,
  createCannedResponseBody,
  idParam,
  updateCannedResponseBody,
  type CannedResponseResponse,
  type CannedResponsesResponse,
} from '@helpdesk/protocol';
import type { RouteDeps } from './deps.js';
import { createRouter } from './router.js';
import { addSharedItemRoutes } from './sharedItems.js';

export function cannedResponseRoutes({ services, auth }: RouteDeps) {
  const router = createRouter();
  addSharedItemRoutes(router, {
    path: '/canned-responses',
    guard: auth.allow(canUseSharedItems, MESSAGES.http.staffOnly),
    calls: services.cannedResponses,
    schemas: { id: idParam, create: createCannedResponseBody, update: updateCannedResponseBody },
    answerList: (ctx, cannedResponses) => {
      ctx.body = { success: true, cannedResponses } satisfies CannedResponsesResponse;
    },
    answerItem: (ctx, cannedResponse) => {
      ctx.body = { success: true, cannedResponse } satisfies CannedResponseResponse;
    },
    deleted: MESSAGES.cannedResponses.deleted,
  });
  return router;
}
