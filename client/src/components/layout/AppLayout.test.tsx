import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';

describe('header', () => {
  it('links the title to / and shows an admin the admin navigation', async () => {
    const admin = testUser({ role: 'admin', name: 'Grace Hopper' });
    fakeServer({ 'GET /auth/verify': { body: { success: true, user: admin } } });
    renderApp('/no-such-page', { user: admin });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Support Management' })).toHaveAttribute('href', '/support-management');
    expect(within(nav).queryByRole('link', { name: 'Tickets' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /HelpDesk System/ })).toHaveAttribute('href', '/');
  });

  it('shows name and role in the account menu, with Settings and Logout', async () => {
    const agent = testUser({ role: 'agent', name: 'Alan Turing' });
    fakeServer({ 'GET /auth/verify': { body: { success: true, user: agent } } });
    renderApp('/no-such-page', { user: agent });
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Alan Turing')).toBeInTheDocument();
    expect(within(menu).getByText('Agent')).toBeInTheDocument();
    expect(await within(menu).findByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings');

    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe('/login?session_expired=true'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
  });
});
