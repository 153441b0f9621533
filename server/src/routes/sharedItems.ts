import type { Middleware } from 'koa';
import type { MessageResponse } from '@helpdesk/protocol';
import type { z } from 'zod';
import type { Actor } from '../lib/actor.js';
import { parseBody, parseInput } from '../lib/validation.js';
import { jsonBody } from '../middleware/jsonBody.js';
import type { AppContext, AppState } from '../middleware/state.js';
import { actorOf, type createRouter } from './router.js';

/** What a kind of shared item offers the routes (services/sharedItems.ts). */
interface SharedItemCalls<Item, Create, Update> {
  list(actor: Actor): Promise<Item[]>;
  create(actor: Actor, input: Create): Promise<Item>;
  update(actor: Actor, id: number, input: Update): Promise<Item>;
  remove(actor: Actor, id: number): Promise<void>;
}

interface SharedItemRoutes<Item, Create, Update> {
  /** The collection's path, e.g. `/views`; one item is `<path>/:id`. */
  path: string;
  /** Who may call any of them: refused before a body is read. */
  guard: Middleware<AppState>;
  calls: SharedItemCalls<Item, Create, Update>;
  schemas: { id: z.ZodType<number>; create: z.ZodType<Create>; update: z.ZodType<Update> };
  /** The answers, each bound to its protocol response type where the resource names its fields. */
  answerList: (ctx: AppContext, items: Item[]) => void;
  answerItem: (ctx: AppContext, item: Item) => void;
  deleted: string;
}

/** List, create, update and delete of saved views or canned responses: the same four routes for both. */
export function addSharedItemRoutes<Item, Create, Update>(
  router: ReturnType<typeof createRouter>,
  spec: SharedItemRoutes<Item, Create, Update>,
) {
  const { path, guard, calls, schemas } = spec;

  router.get(path, guard, async (ctx) => {
    spec.answerList(ctx, await calls.list(actorOf(ctx)));
  });

  router.post(path, guard, jsonBody, async (ctx) => {
    const input = parseBody(schemas.create, ctx.request.body);
    const item = await calls.create(actorOf(ctx), input);
    ctx.status = 201;
    spec.answerItem(ctx, item);
  });

  router.put(`${path}/:id`, guard, jsonBody, async (ctx) => {
    const id = parseInput(schemas.id, ctx.params.id);
    const input = parseBody(schemas.update, ctx.request.body);
    spec.answerItem(ctx, await calls.update(actorOf(ctx), id, input));
  });

  router.delete(`${path}/:id`, guard, async (ctx) => {
    const id = parseInput(schemas.id, ctx.params.id);
    await calls.remove(actorOf(ctx), id);
    ctx.body = { success: true, message: spec.deleted } satisfies MessageResponse;
  });
}
