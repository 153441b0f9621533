import {
  MESSAGES,
  articleListQuery,
  canManageArticles,
  createArticleBody,
  idParam,
  updateArticleBody,
  type Article,
  type ArticleListResponse,
  type ArticleResponse,
  type HelpfulResponse,
  type MessageResponse,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { RouteDeps } from './deps.js';
import { jsonOnce } from '../lib/jsonOnce.js';
import { actorOf, clientIp, createRouter } from './router.js';

export function knowledgeRoutes({ services, auth, limiters }: RouteDeps) {
  const router = createRouter();
  const sendList = jsonOnce<Awaited<ReturnType<RouteDeps['services']['knowledge']['list']>>>();
  const sendArticle = jsonOnce<Article>();
  // The only check of "staff only": no article rule depends on the row.
  const staff = auth.allow(canManageArticles, MESSAGES.http.staffOnly);

  router.get('/knowledge', async (ctx) => {
    const query = parseInput(articleListQuery, ctx.query);
    sendList(ctx, await services.knowledge.list(query), (data) => ({ success: true, data }) satisfies ArticleListResponse);
  });

  router.get('/knowledge/:id', async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    sendArticle(ctx, await services.knowledge.get(id), (article) => ({ success: true, article }) satisfies ArticleResponse);
  });

  router.post('/knowledge/:id/helpful', auth.optional, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    if (!ctx.state.actor) await limiters.helpfulAnonymous.consume(clientIp(ctx));
    ctx.body = { success: true, helpfulCount: await services.knowledge.markHelpful(ctx.state.actor, id) } satisfies HelpfulResponse;
  });

  router.post('/knowledge', staff, jsonBody, async (ctx) => {
    const input = parseBody(createArticleBody, ctx.request.body);
    ctx.status = 201;
    ctx.body = { success: true, article: await services.knowledge.create(actorOf(ctx), input) } satisfies ArticleResponse;
  });

  router.put('/knowledge/:id', staff, jsonBody, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const input = parseBody(updateArticleBody, ctx.request.body);
    ctx.body = { success: true, article: await services.knowledge.update(id, input) } satisfies ArticleResponse;
  });

  router.delete('/knowledge/:id', staff, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    await services.knowledge.remove(id);
    ctx.body = { success: true, message: MESSAGES.knowledge.deleted } satisfies MessageResponse;
  });

  return router;
}
