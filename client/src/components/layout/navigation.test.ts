import { describe, expect, it } from 'vitest';
import { navItems } from './navigation';

describe('top navigation by role (docs/product.md#navigation)', () => {
  it.each([
    [null, [['Knowledge Base', '/knowledge']]],
    [
      { role: 'user' as const },
      [
        ['Dashboard', '/dashboard'],
        ['Knowledge Base', '/knowledge'],
      ],
    ],
    [
      { role: 'agent' as const },
      [
        ['Dashboard', '/agent-dashboard'],
        ['Tickets', '/tickets'],
        ['Knowledge Base', '/knowledge'],
        ['Reports', '/reports'],
      ],
    ],
    [
      { role: 'admin' as const },
      [
        ['Dashboard', '/agent-dashboard'],
        ['Knowledge Base', '/knowledge'],
        ['Reports', '/reports'],
        ['Support Management', '/support-management'],
        ['Email', '/admin/email'],
        ['Webhooks', '/admin/webhooks'],
      ],
    ],
  ])('%o sees its items in order', (user, expected) => {
    expect(navItems(user).map((item) => [item.label, item.href])).toEqual(expected);
  });
});
