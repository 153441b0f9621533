import type { Notification } from '@helpdesk/protocol';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';
import { admin, allowForLazyPages, listBody, statsBody, verified } from '../../test-utils/ticketFixtures';

allowForLazyPages();

const notification = (overrides: Partial<Notification>): Notification => ({
  id: 1,
  type: 'mention',
  ticketId: 7,
  by: { id: 1, name: 'Ada Lovelace' },
  excerpt: '',
  createdAt: new Date().toISOString(),
  readAt: null,
  ...overrides,
});

describe('the bell: service-level notifications', () => {
  it('says which ticket’s deadline is near or missed, with the target in the excerpt, and links to it', async () => {
    fakeServer({
      ...verified(admin),
      'GET /tickets/stats': statsBody(),
      'GET /tickets': listBody([]),
      'GET /views': { body: { success: true, views: [] } },
      'GET /views/counts': { body: { success: true, counts: {} } },
      'GET /users/staff': { body: { success: true, staff: [] } },
      'GET /notifications': {
        body: {
          success: true,
          unread: 2,
          notifications: [
            notification({ id: 2, type: 'sla_breached', ticketId: 12, excerpt: 'First response overdue: Printer on fire' }),
            notification({ id: 1, type: 'sla_warning', ticketId: 9, excerpt: 'Resolution due soon: VPN drops' }),
          ],
        },
      },
    });
    renderApp('/agent-dashboard', { user: admin });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Notifications, 2 unread' }));
    const items = await screen.findAllByTestId('notification');
    expect(items.map((item) => item.getAttribute('href'))).toEqual(['/ticket/12', '/ticket/9']);
    expect(items[0]).toHaveTextContent('SLA deadline missed on #12');
    expect(items[0]).toHaveTextContent('First response overdue: Printer on fire');
    expect(items[1]).toHaveTextContent('SLA deadline near on #9');
  });
});
