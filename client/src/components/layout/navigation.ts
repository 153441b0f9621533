import type { User } from '@helpdesk/protocol';
import { homePath } from '../../state/home';

export interface NavItem {
  label: string;
  href: string;
}

/** SPEC §2 "Top navigation": what each role sees, in order. */
export function navItems(user: Pick<User, 'role'> | null): NavItem[] {
  if (!user) return [{ label: 'Knowledge Base', href: '/knowledge' }];
  const items: NavItem[] = [{ label: 'Dashboard', href: homePath(user.role) }];
  if (user.role === 'agent') items.push({ label: 'Tickets', href: '/tickets' });
  items.push({ label: 'Knowledge Base', href: '/knowledge' });
  if (user.role === 'admin') items.push({ label: 'Support Management', href: '/support-management' });
  return items;
}
