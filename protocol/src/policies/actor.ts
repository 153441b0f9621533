import { STAFF_ROLES, type Role } from '../enums.js';

/**
 * Who is asking, as the policies need it. The server's session actor and the client's signed-in
 * `User` both fit, so each side asks the same functions.
 */
export interface Actor {
  id: number;
  role: Role;
  name?: string;
}

/** "Staff" means agent or admin (docs/product.md#roles). */
export const isStaff = (actor: Pick<Actor, 'role'>): boolean => (STAFF_ROLES as readonly Role[]).includes(actor.role);
export const isAdmin = (actor: Pick<Actor, 'role'>): boolean => actor.role === 'admin';
