import { asc, eq, or } from 'drizzle-orm';
import { MESSAGES, type CannedResponse, type CreateCannedResponseBody, type UpdateCannedResponseBody } from '@helpdesk/protocol';
import { returnedRow } from '../db/rows.js';
import { cannedResponses, users } from '../db/schema/index.js';
import type { Actor } from './actor.js';
import type { ServiceContext } from './context.js';
import { itemAccess } from './sharedItems.js';

export type CannedResponseService = ReturnType<typeof createCannedResponseService>;

type Row = typeof cannedResponses.$inferSelect & { ownerName: string };

const present = (row: Row): CannedResponse => ({
  id: row.id,
  title: row.title,
  content: row.content,
  shared: row.shared,
  owner: { id: row.ownerId, name: row.ownerName },
});

export function createCannedResponseService({ db }: ServiceContext) {
  const access = itemAccess(MESSAGES.cannedResponses);
  const select = () =>
    db
      .select({ item: cannedResponses, ownerName: users.name })
      .from(cannedResponses)
      .innerJoin(users, eq(users.id, cannedResponses.ownerId));
  const load = async (id: number): Promise<Row | undefined> => {
    const [row] = await select().where(eq(cannedResponses.id, id));
    return row && { ...row.item, ownerName: row.ownerName };
  };

  return {
    async list(actor: Actor): Promise<CannedResponse[]> {
      const rows = await select()
        .where(or(eq(cannedResponses.ownerId, actor.id), eq(cannedResponses.shared, true)))
        .orderBy(asc(cannedResponses.title), asc(cannedResponses.id));
      return rows.map((row) => present({ ...row.item, ownerName: row.ownerName }));
    },

    async create(actor: Actor, input: CreateCannedResponseBody): Promise<CannedResponse> {
      access.creatable(actor, input.shared);
      const inserted = await db
        .insert(cannedResponses)
        .values({ ownerId: actor.id, ...input })
        .returning();
      return present({ ...returnedRow(inserted, 'the canned response insert'), ownerName: actor.name });
    },

    async update(actor: Actor, id: number, input: UpdateCannedResponseBody): Promise<CannedResponse> {
      const current = access.changeable(actor, await load(id), input.shared);
      const set = {
        ...(input.title !== undefined && { title: input.title }),
        ...(input.content !== undefined && { content: input.content }),
        ...(input.shared !== undefined && { shared: input.shared }),
      };
      if (Object.keys(set).length === 0) return present(current);
      const updated = await db.update(cannedResponses).set(set).where(eq(cannedResponses.id, id)).returning();
      return present({ ...returnedRow(updated, 'the canned response update'), ownerName: current.ownerName });
    },

    async remove(actor: Actor, id: number): Promise<void> {
      access.changeable(actor, await load(id));
      await db.delete(cannedResponses).where(eq(cannedResponses.id, id));
    },
  };
}
