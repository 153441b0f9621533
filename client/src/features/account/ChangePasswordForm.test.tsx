import { MESSAGES } from '@helpdesk/protocol';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';

const me = testUser({ name: 'Pat Password', email: 'pat@example.com' });
const base = { 'GET /auth/verify': { body: { success: true, user: me } }, 'GET /users/profile': { body: { success: true, user: me } } };

async function fill(current: string, next: string, confirm = next) {
  const currentField = await screen.findByLabelText('Current password');
  if (current) await userEvent.type(currentField, current);
  await userEvent.type(screen.getByLabelText('New password'), next);
  await userEvent.type(screen.getByLabelText('Confirm new password'), confirm);
  await userEvent.click(screen.getByRole('button', { name: 'Change Password' }));
}

describe('Settings → Password', () => {
  it('checks the fields with the sign-up rules before calling the server', async () => {
    const server = fakeServer(base);
    renderApp('/settings', { user: me });
    await fill('', 'weakpass', 'other');
    expect(await screen.findByText(MESSAGES.users.currentPasswordRequired)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.validation.passwordWeak)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.validation.passwordsDoNotMatch)).toBeInTheDocument();
    expect(server.calls.filter((c) => c.key === 'PUT /users/password')).toHaveLength(0);
  });

  it('sends current and new password only, keeps this tab signed in with the new token and says so', async () => {
    const server = fakeServer({
      ...base,
      'PUT /users/password': { body: { success: true, token: 'fresh-token', user: me, message: MESSAGES.users.passwordChanged } },
    });
    renderApp('/settings', { user: me, token: 'old-token' });
    await fill('Secret123!', 'Changed456!');
    expect(await screen.findByText(MESSAGES.users.passwordChanged)).toBeInTheDocument();
    const call = server.calls.find((c) => c.key === 'PUT /users/password');
    expect(call?.body).toEqual({ currentPassword: 'Secret123!', newPassword: 'Changed456!' });
    await waitFor(() => expect(localStorage.getItem('token')).toBe('fresh-token'));
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });

  it('shows a wrong current password on its field, and stays signed in', async () => {
    fakeServer({
      ...base,
      'PUT /users/password': {
        status: 400,
        body: {
          success: false,
          message: MESSAGES.users.currentPasswordWrong,
          errors: { currentPassword: MESSAGES.users.currentPasswordWrong },
        },
      },
    });
    renderApp('/settings', { user: me, token: 'old-token' });
    await fill('Wrong123!', 'Changed456!');
    expect(await screen.findByText(MESSAGES.users.currentPasswordWrong)).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('old-token');
  });

  it('explains a rate limit above the form', async () => {
    fakeServer({
      ...base,
      'PUT /users/password': { status: 429, body: { success: false, message: MESSAGES.users.tooManyPasswordChanges } },
    });
    renderApp('/settings', { user: me });
    await fill('Secret123!', 'Changed456!');
    expect(await screen.findByText('Failed to change password')).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.users.tooManyPasswordChanges)).toBeInTheDocument();
  });
});
