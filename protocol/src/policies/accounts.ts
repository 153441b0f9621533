import type { AgentSignup } from '../api/system.js';
import { ROLES, type Role } from '../enums.js';
import { MESSAGES } from '../messages.js';
import { isAdmin, isStaff, type Actor } from './actor.js';

/**
 * Which roles a signup may ask for (docs/product.md#permissions): admin only from an admin's
 * session; agent unless the server closed agent signup, which an admin still may do.
 * Returns the refusal, or undefined.
 */
export function registrationRefusal(
  actor: Pick<Actor, 'role'> | undefined | null,
  role: Role,
  agentSignup: AgentSignup,
): string | undefined {
  const admin = actor != null && isAdmin(actor);
  if (role === 'admin' && !admin) return MESSAGES.auth.adminOnlyAdmin;
  if (role === 'agent' && agentSignup === 'closed' && !admin) return MESSAGES.auth.adminOnlyAgent;
  return undefined;
}

/** The roles a signup form may offer: those `registrationRefusal` lets through. */
export const registrableRoles = (actor: Pick<Actor, 'role'> | undefined | null, agentSignup: AgentSignup): Role[] =>
  ROLES.filter((role) => registrationRefusal(actor, role, agentSignup) === undefined);

export const canManageUsers = (actor: Pick<Actor, 'role'>): boolean => isAdmin(actor);

/**
 * Whether this admin may delete or demote that account: never their own, so an admin cannot lock
 * themselves out of running the team.
 */
export const canDeleteAccount = (actor: Actor, target: { id: number }): boolean => canManageUsers(actor) && target.id !== actor.id;
export const canChangeRoleOf = canDeleteAccount;

export const canManageArticles = (actor: Pick<Actor, 'role'>): boolean => isStaff(actor);

/** Staff see each other's names, to mention and assign; users never list anyone. */
export const canListStaff = (actor: Pick<Actor, 'role'>): boolean => isStaff(actor);
