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

  it('works the account menu from the keyboard: focus inside, arrows move, Escape closes and returns', async () => {
    const admin = testUser({ role: 'admin', name: 'Grace Hopper' });
    fakeServer({ 'GET /auth/verify': { body: { success: true, user: admin } } });
    renderApp('/no-such-page', { user: admin });
    const trigger = await screen.findByRole('button', { name: 'Account menu' });
    trigger.focus();
    await userEvent.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Settings' })).toHaveFocus());
    await userEvent.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Service Levels' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toHaveFocus();
    // The name and role only say who is signed in: the arrows pass over them.
    await userEvent.keyboard('{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Settings' })).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    await waitFor(() => expect(trigger).toHaveFocus());
  });

  it('puts the account links in the phone drawer as well', async () => {
    const admin = testUser({ role: 'admin', name: 'Grace Hopper' });
    fakeServer({ 'GET /auth/verify': { body: { success: true, user: admin } } });
    renderApp('/no-such-page', { user: admin });
    await userEvent.click(await screen.findByLabelText('Toggle navigation'));
    const drawer = await screen.findByRole('navigation', { name: 'Mobile navigation', hidden: true });
    expect(within(drawer).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(within(drawer).getByRole('link', { name: 'Service Levels' })).toHaveAttribute('href', '/service-levels');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe('/login?session_expired=true'));
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('offers a signed-out visitor Login and Sign up in the drawer', async () => {
    fakeServer({});
    renderApp('/knowledge');
    await userEvent.click(await screen.findByLabelText('Toggle navigation'));
    const drawer = await screen.findByRole('navigation', { name: 'Mobile navigation', hidden: true });
    expect(within(drawer).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(within(drawer).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
    expect(within(drawer).queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
  });

  it("keeps the admin-only link out of a user's drawer", async () => {
    const user = testUser({ role: 'user', name: 'Jordan User' });
    fakeServer({ 'GET /auth/verify': { body: { success: true, user } } });
    renderApp('/no-such-page', { user });
    await userEvent.click(await screen.findByLabelText('Toggle navigation'));
    const drawer = await screen.findByRole('navigation', { name: 'Mobile navigation', hidden: true });
    expect(within(drawer).getByRole('link', { name: 'Settings' })).toBeInTheDocument();
    expect(within(drawer).queryByRole('link', { name: 'Service Levels' })).not.toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });
});
