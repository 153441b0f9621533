import { MESSAGES, type Role } from '@helpdesk/protocol';
import { isAdmin, isStaff, type Actor } from './actor.js';

/**
 * Which roles a signup may ask for (CONTRACT §4): admin only from an admin's session; agent unless the
 * server closed agent signup, which an admin still may do. Returns the refusal, or undefined.
 */
export function registrationRefusal(actor: Actor | undefined, role: Role, agentSignup: 'open' | 'closed'): string | undefined {
  const admin = actor !== undefined && isAdmin(actor);
  if (role === 'admin' && !admin) return MESSAGES.auth.adminOnlyAdmin;
  if (role === 'agent' && agentSignup === 'closed' && !admin) return MESSAGES.auth.adminOnlyAgent;
  return undefined;
}

export const canManageUsers = (actor: Actor): boolean => isAdmin(actor);

export const canManageArticles = (actor: Actor): boolean => isStaff(actor);
