import { isStaffRole, type Role } from '@helpdesk/protocol';

/** Who is asking: the signed-in user as the services see them. */
export interface Actor {
  id: number;
  name: string;
  email: string;
  role: Role;
}

export const isStaff = (actor: Pick<Actor, 'role'>): boolean => isStaffRole(actor.role);
export const isAdmin = (actor: Pick<Actor, 'role'>): boolean => actor.role === 'admin';
