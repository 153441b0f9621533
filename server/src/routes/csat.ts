import {
  MESSAGES,
  csatAnswerBody,
  idParam,
  type CsatSurveyResponse,
  type MessageResponse,
  type TicketCsatSurveyResponse,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { AppContext } from '../middleware/state.js';
import type { RouteDeps } from './deps.js';
import { actorOf, clientIp, createRouter } from './router.js';

/**
 * docs/api.md#satisfaction-surveys: the survey link's page reads and answers without a session (the
 * link is the key, every call counted per address); the signed-in owner answers from the ticket page.
 */
export function csatRoutes({ services, auth, limiters }: RouteDeps) {
  const router = createRouter();
  // Counted before the body is read, so a failed or refused call costs a guesser as much as a good one.
  const perAddress = async (ctx: AppContext, next: () => Promise<unknown>) => {
    await limiters.csatPerAddress.consume(clientIp(ctx));
    await next();
  };

  router.get('/csat/:token', perAddress, async (ctx) => {
    ctx.body = { success: true, survey: await services.csat.read(ctx.params.token ?? '') } satisfies CsatSurveyResponse;
  });

  router.post('/csat/:token', perAddress, jsonBody, async (ctx) => {
    const answer = parseBody(csatAnswerBody, ctx.request.body);
    await services.csat.answer(ctx.params.token ?? '', answer);
    ctx.body = { success: true, message: MESSAGES.csat.thanks } satisfies MessageResponse;
  });

  router.get('/tickets/:id/csat', auth.required, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    ctx.body = { success: true, survey: await services.csat.ofOwner(actorOf(ctx), id) } satisfies TicketCsatSurveyResponse;
  });

  router.post('/tickets/:id/csat', auth.required, jsonBody, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const answer = parseBody(csatAnswerBody, ctx.request.body);
    await services.csat.answerAsOwner(actorOf(ctx), id, answer);
    ctx.body = { success: true, message: MESSAGES.csat.thanks } satisfies MessageResponse;
  });

  return router;
}
