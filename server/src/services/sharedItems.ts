import { canChangeItem, canSeeItem, canShareItems, type ItemsChangedEvent, type OwnedItem } from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import type { AnnounceWrite } from '../db/unitOfWork.js';
import type { Actor } from '../lib/actor.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../lib/errors.js';

interface ItemTexts {
  notFound: string;
  sharedAdminOnly: string;
  tooMany: (max: number) => string;
}

/**
 * The access rules of saved views and canned responses: another staff member's private item looks
 * like it does not exist (404); a shared one can be read by all staff but changed by admins only (403).
 */
export function itemAccess(texts: ItemTexts) {
  return {
    visible<T extends OwnedItem>(actor: Actor, item: T | undefined): T {
      if (!item || !canSeeItem(actor, item)) throw new NotFoundError(texts.notFound);
      return item;
    },
    changeable<T extends OwnedItem>(actor: Actor, item: T | undefined, nextShared?: boolean): T {
      const seen = this.visible(actor, item);
      if (!canChangeItem(actor, seen) || (nextShared === true && !canShareItems(actor))) throw new ForbiddenError(texts.sharedAdminOnly);
      return seen;
    },
    creatable(actor: Actor, shared: boolean): void {
      if (shared && !canShareItems(actor)) throw new ForbiddenError(texts.sharedAdminOnly);
    },
  };
}

/** What db/queries gives for one kind of shared item: its row as stored, and with its owner's name. */
export interface SharedItemQueries<Record extends OwnedItem, Insert, Set> {
  find(db: Db, id: number): Promise<(Record & { ownerName: string }) | undefined>;
  findVisible(db: Db, userId: number): Promise<(Record & { ownerName: string })[]>;
  /** Undefined once the owner already has `max` of them. */
  insert(db: Db, values: Insert, max: number): Promise<Record | undefined>;
  update(db: Db, id: number, set: Set): Promise<Record>;
  remove(db: Db, id: number): Promise<void>;
}

interface SharedItemKind<
  Record extends OwnedItem,
  Item,
  Create extends { shared: boolean },
  Update extends { shared?: boolean },
  Insert,
  Set,
> {
  texts: ItemTexts;
  /** What the change is announced as, so other staff's lists (or the owner's other tabs) follow. */
  announcedAs: ItemsChangedEvent['kind'];
  /** How many one staff member may own (shared ones they own included). */
  maxPerOwner: number;
  queries: SharedItemQueries<Record, Insert, Set>;
  present: (row: Record & { ownerName: string }) => Item;
  /** The row a create body makes for its author. */
  toInsert: (actor: Actor, input: Create) => Insert;
  /** The columns an update body sets; none given writes nothing. */
  toSet: (input: Update) => Set;
}

/**
 * List, create, update and delete of a staff member's own-or-shared items (saved views, canned
 * responses), under the rules of `itemAccess`. An update that sets nothing answers the item as it is.
 */
export function sharedItemService<
  Record extends OwnedItem,
  Item,
  Create extends { shared: boolean },
  Update extends { shared?: boolean },
  Insert,
  Set extends object,
>(db: Db, announceWrite: AnnounceWrite, kind: SharedItemKind<Record, Item, Create, Update, Insert, Set>) {
  const { queries, present } = kind;
  const access = itemAccess(kind.texts);
  /** Runs the one write and announces it: to staff if the item is or was `shared`, else to its owner. */
  const announced = <T>({ ownerId, shared }: OwnedItem, write: (writer: Db) => Promise<T>) =>
    announceWrite(async (writer, emit) => {
      const result = await write(writer);
      emit('items.changed', { kind: kind.announcedAs, ownerId, shared });
      return result;
    });
  return {
    async list(actor: Actor): Promise<Item[]> {
      return (await queries.findVisible(db, actor.id)).map(present);
    },

    async create(actor: Actor, input: Create): Promise<Item> {
      access.creatable(actor, input.shared);
      const row = await announced({ ownerId: actor.id, shared: input.shared }, async (writer) => {
        const inserted = await queries.insert(writer, kind.toInsert(actor, input), kind.maxPerOwner);
        if (!inserted) throw new ValidationError(kind.texts.tooMany(kind.maxPerOwner));
        return inserted;
      });
      return present({ ...row, ownerName: actor.name });
    },

    async update(actor: Actor, id: number, input: Update): Promise<Item> {
      const current = access.changeable(actor, await queries.find(db, id), input.shared);
      const set = kind.toSet(input);
      if (Object.keys(set).length === 0) return present(current);
      const wasOrIsShared = { ownerId: current.ownerId, shared: current.shared || input.shared === true };
      const row = await announced(wasOrIsShared, (writer) => queries.update(writer, id, set));
      return present({ ...row, ownerName: current.ownerName });
    },

    async remove(actor: Actor, id: number): Promise<void> {
      const current = access.changeable(actor, await queries.find(db, id));
      await announced(current, (writer) => queries.remove(writer, id));
    },
  };
}
