import { canChangeItem, canSeeItem, canShareItems, type OwnedItem } from '@helpdesk/protocol';
import { ForbiddenError, NotFoundError } from '../lib/errors.js';
import type { Actor } from './actor.js';

interface ItemTexts {
  notFound: string;
  sharedAdminOnly: string;
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
