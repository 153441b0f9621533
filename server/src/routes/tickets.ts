import {
  MESSAGES,
  canMergeTickets,
  canSeeTags,
  mergeTicketBody,
  bulkUpdateBody,
  isStaff,
  commentBody,
  createTicketBody,
  idParam,
  olderQuery,
  ticketFiltersQuery,
  ticketListQuery,
  updateTicketBody,
} from '@helpdesk/protocol';
import { parseBody, parseInput } from '../lib/validation.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { RouteDeps } from './deps.js';
import { jsonOnce } from '../lib/jsonOnce.js';
import { actorOf, clientIp, createRouter } from './router.js';
import type {
  TicketDetail,
  BulkUpdateResponse,
  CommentResponse,
  MessageResponse,
  TicketListResponse,
  TicketMessageResponse,
  TicketResponse,
  TicketStatsResponse,
  TicketCommentsResponse,
  TicketHistoryResponse,
  MergeTicketResponse,
  TagsResponse,
} from '@helpdesk/protocol';

export function ticketRoutes({ services, auth, limiters }: RouteDeps) {
  const router = createRouter();
  const sendList = jsonOnce<Awaited<ReturnType<RouteDeps['services']['tickets']['list']>>>();
  const sendTicket = jsonOnce<TicketDetail>();

  router.get('/tickets', auth.required, async (ctx) => {
    const query = parseInput(ticketListQuery, ctx.query);
    // The kept answer belongs to this exact query, so its page and limit go with its text.
    sendList(
      ctx,
      await services.tickets.list(actorOf(ctx), query),
      ({ tickets, next, total, totalCapped }) =>
        ({
          success: true,
          tickets,
          data: tickets,
          total,
          ...(totalCapped && { totalCapped }),
          page: query.page,
          limit: query.limit,
          next,
        }) satisfies TicketListResponse,
    );
  });

  router.get('/tickets/stats', auth.required, async (ctx) => {
    const filters = parseInput(ticketFiltersQuery, ctx.query);
    const { stats, totalCapped } = await services.tickets.stats(actorOf(ctx), filters);
    ctx.body = { success: true, stats, ...(totalCapped && { totalCapped }) } satisfies TicketStatsResponse;
  });

  router.post('/tickets/bulk', auth.allow(isStaff, MESSAGES.http.staffOnly), jsonBody, async (ctx) => {
    const { ids, changes } = parseBody(bulkUpdateBody, ctx.request.body);
    const actor = actorOf(ctx);
    // One call writes up to 100 tickets and notifies their assignees: a loop of them is a flood.
    await limiters.bulkPerUser.consume(String(actor.id));
    await limiters.bulkPerAddress.consume(clientIp(ctx));
    const { updated, failed } = await services.tickets.bulkUpdate(actor, ids, changes);
    ctx.body = { success: true, updated, failed } satisfies BulkUpdateResponse;
  });

  router.post('/tickets/:id/merge', auth.allow(canMergeTickets, MESSAGES.http.staffOnly), jsonBody, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const { intoId } = parseBody(mergeTicketBody, ctx.request.body);
    ctx.body = { success: true, ticket: await services.tickets.merge(actorOf(ctx), id, intoId) } satisfies MergeTicketResponse;
  });

  router.get('/tags', auth.allow(canSeeTags, MESSAGES.http.staffOnly), async (ctx) => {
    ctx.body = { success: true, tags: await services.tickets.tags(actorOf(ctx)) } satisfies TagsResponse;
  });

  router.get('/tickets/:id/comments', auth.required, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const { before } = parseInput(olderQuery, ctx.query);
    ctx.body = { success: true, ...(await services.tickets.olderComments(actorOf(ctx), id, before)) } satisfies TicketCommentsResponse;
  });

  router.get('/tickets/:id/history', auth.required, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const { before } = parseInput(olderQuery, ctx.query);
    ctx.body = { success: true, ...(await services.tickets.olderHistory(actorOf(ctx), id, before)) } satisfies TicketHistoryResponse;
  });

  router.get('/tickets/:id', auth.required, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    sendTicket(ctx, await services.tickets.get(actorOf(ctx), id), (ticket) => ({ success: true, ticket }) satisfies TicketResponse);
  });

  router.post('/tickets', auth.required, jsonBody, async (ctx) => {
    const input = parseBody(createTicketBody, ctx.request.body);
    const ticket = await services.tickets.create(actorOf(ctx), input);
    ctx.status = 201;
    ctx.body = { success: true, ticket, message: MESSAGES.tickets.created } satisfies TicketMessageResponse;
  });

  router.put('/tickets/:id', auth.required, jsonBody, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const input = parseBody(updateTicketBody, ctx.request.body);
    const ticket = await services.tickets.update(actorOf(ctx), id, input);
    ctx.body = { success: true, ticket, message: MESSAGES.tickets.updated } satisfies TicketMessageResponse;
  });

  router.delete('/tickets/:id', auth.required, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    await services.tickets.remove(actorOf(ctx), id);
    ctx.body = { success: true, message: MESSAGES.tickets.deleted } satisfies MessageResponse;
  });

  router.post('/tickets/:id/comments', auth.required, jsonBody, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const input = parseBody(commentBody, ctx.request.body);
    const actor = actorOf(ctx);
    await limiters.commentPerUser.consume(String(actor.id));
    const { comment, ticket } = await services.tickets.addComment(actor, id, input);
    ctx.status = 201;
    ctx.body = { success: true, comment, ...(ticket && { ticket }) } satisfies CommentResponse;
  });

  return router;
}
