import {
  MESSAGES,
  csatAnswerBody,
  idParam,
  isStaff,
  type CsatSurveyResponse,
  type MessageResponse,
  type TicketCsatSurveyResponse,
} from '@helpdesk/protocol';
import { ForbiddenError } from '../lib/errors.js';
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

  // Staff rate nobody's work: refused before the body is read, whatever it holds. Not a role gate
  // (auth.allow): the owner is a plain user, and so is everyone else this route refuses with 404.
  const notStaff = async (ctx: AppContext, next: () => Promise<unknown>) => {
    if (isStaff(actorOf(ctx))) throw new ForbiddenError(MESSAGES.csat.ownerOnly);
    await next();
  };

  router.get('/tickets/:id/csat', auth.required, notStaff, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    ctx.body = { success: true, survey: await services.csat.ofOwner(actorOf(ctx), id) } satisfies TicketCsatSurveyResponse;
  });

  router.post('/tickets/:id/csat', auth.required, notStaff, jsonBody, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const answer = parseBody(csatAnswerBody, ctx.request.body);
    await services.csat.answerAsOwner(actorOf(ctx), id, answer);
    ctx.body = { success: true, message: MESSAGES.csat.thanks } satisfies MessageResponse;
  });

  return router;
}
