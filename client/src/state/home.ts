import { isStaff, type Role } from '@helpdesk/protocol';

/** Agents and admins start on the agent dashboard, everyone else on theirs (docs/product.md#roles). */
export const homePath = (role: Role): string => (isStaff({ role }) ? '/agent-dashboard' : '/dashboard');
