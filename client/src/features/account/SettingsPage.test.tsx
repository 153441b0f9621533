import type { NotificationPreference } from '@helpdesk/protocol';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';

const me = testUser({ name: 'Ada Lovelace', email: 'ada@example.com', role: 'agent', email_notifications: 'all' });
const withPreference = (email_notifications: NotificationPreference) => ({ ...me, email_notifications });
const base = {
  'GET /auth/verify': { body: { success: true, user: me } },
  'GET /users/profile': { body: { success: true, user: me } },
  'GET /tokens': { body: { success: true, tokens: [] } },
};

describe('/settings', () => {
  it('shows the account read-only and the saved preference', async () => {
    fakeServer(base);
    renderApp('/settings', { user: me });
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    expect(await screen.findByRole('radio', { name: 'All notifications' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Important only' })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'None' })).not.toBeChecked();
    expect(screen.getByLabelText('Name')).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Role')).toHaveValue('Agent');
    for (const label of ['Name', 'Email', 'Role']) expect(screen.getByLabelText(label)).toHaveAttribute('readonly');
  });

  it('says when the preferences cannot be loaded', async () => {
    fakeServer({
      'GET /auth/verify': base['GET /auth/verify'],
      'GET /users/profile': { status: 400, body: { success: false, message: 'nope' } },
    });
    renderApp('/settings', { user: me });
    expect(await screen.findByText('Failed to load preferences')).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
  });

  it('saves a choice at once, updates the stored user, and hides the message after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeServer({
      ...base,
      'PUT /users/preferences': ({ body }) => ({
        body: {
          success: true,
          user: withPreference((body as { email_notifications: NotificationPreference }).email_notifications),
          message: 'Email preferences updated successfully!',
        },
      }),
    });
    renderApp('/settings', { user: me });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('radio', { name: 'Important only' }));

    expect(await screen.findByText('Email preferences updated successfully!')).toBeInTheDocument();
    expect(server.calls.find((c) => c.key === 'PUT /users/preferences')?.body).toEqual({ email_notifications: 'important' });
    expect(screen.getByRole('radio', { name: 'Important only' })).toBeChecked();
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ email_notifications: 'important' });

    act(() => {
      vi.advanceTimersByTime(2500);
    });
    expect(screen.getByText('Email preferences updated successfully!')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(600);
    });
    await waitFor(() => expect(screen.queryByText('Email preferences updated successfully!')).not.toBeInTheDocument());
    expect(screen.getByRole('radio', { name: 'Important only' })).toBeChecked();
  });

  it.each([
    [
      400,
      { success: false, message: 'Email notifications must be one of all, important, none' },
      'Email notifications must be one of all, important, none',
    ],
    [500, { success: false, message: 'boom' }, 'Failed to update preferences'],
  ])('a %i answer shows the right message and puts the radio back', async (status, body, message) => {
    fakeServer({ ...base, 'PUT /users/preferences': { status, body } });
    renderApp('/settings', { user: me });
    await userEvent.setup().click(await screen.findByRole('radio', { name: 'None' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'All notifications' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'None' })).not.toBeChecked();
    expect(screen.queryByText('Email preferences updated successfully!')).not.toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ email_notifications: 'all' });
  });
});
