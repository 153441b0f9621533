import { canManageUsers, isStaff, type User } from '@helpdesk/protocol';
import { homePath } from '../../state/home';

export interface NavItem {
  label: string;
  href: string;
}

/**
 * The top bar's links: what each role sees, in order (docs/product.md#navigation). Agents keep their
 * Tickets link; staff have one ticket list, so `/tickets` lands them on the queue.
 */
export function navItems(user: Pick<User, 'role'> | null): NavItem[] {
  if (!user) return [{ label: 'Knowledge Base', href: '/knowledge' }];
  const items: NavItem[] = [{ label: 'Dashboard', href: homePath(user.role) }];
  if (user.role === 'agent') items.push({ label: 'Tickets', href: '/tickets' });
  items.push({ label: 'Knowledge Base', href: '/knowledge' });
  if (isStaff(user)) items.push({ label: 'Reports', href: '/reports' });
  if (canManageUsers(user)) {
    items.push({ label: 'Support Management', href: '/support-management' });
    items.push({ label: 'Email', href: '/admin/email' });
    items.push({ label: 'Webhooks', href: '/admin/webhooks' });
  }
  return items;
}
