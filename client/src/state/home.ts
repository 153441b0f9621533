import { isStaffRole, type Role } from '@helpdesk/protocol';

/** SPEC §2: agents and admins start on the agent dashboard, everyone else on theirs. */
export const homePath = (role: Role): string => (isStaffRole(role) ? '/agent-dashboard' : '/dashboard');
