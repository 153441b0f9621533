import { isAdmin, isStaff, type Actor } from './actor.js';

/** Saved views and canned responses: each staff member's own, plus shared ones only an admin makes or changes. */
export interface OwnedItem {
  ownerId: number;
  shared: boolean;
}

export const canUseSharedItems = (actor: Actor): boolean => isStaff(actor);

export const canSeeItem = (actor: Actor, item: OwnedItem): boolean => isStaff(actor) && (item.shared || item.ownerId === actor.id);

/** Sharing, and any change to a shared item, is an admin's; a private item is its owner's. */
export const canChangeItem = (actor: Actor, item: OwnedItem): boolean =>
  isStaff(actor) && (item.shared ? isAdmin(actor) : item.ownerId === actor.id);

export const canShareItems = (actor: Actor): boolean => isAdmin(actor);
