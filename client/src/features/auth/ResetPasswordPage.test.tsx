import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp } from '../../test-utils/renderApp';

describe('/reset-password without a token', () => {
  const requestLink = async (email: string) => {
    const user = userEvent.setup();
    if (email) await user.type(await screen.findByLabelText('Email'), email);
    await user.click(await screen.findByRole('button', { name: 'Send Reset Link' }));
  };

  it('asks for an email, with a way back to login', async () => {
    fakeServer({});
    renderApp('/reset-password');
    expect(await screen.findByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByLabelText('New Password')).not.toBeInTheDocument();
  });

  it('checks the address before sending', async () => {
    const server = fakeServer({});
    renderApp('/reset-password');
    await requestLink('not-an-email');
    expect(await screen.findByText('Invalid email format')).toBeInTheDocument();
    expect(server.calls).toEqual([]);
  });

  it('sends the request and says a link is on its way', async () => {
    const server = fakeServer({
      'POST /auth/request-password-reset': {
        body: { success: true, message: 'If an account with that email exists, a password reset link has been sent.' },
      },
    });
    renderApp('/reset-password');
    await requestLink('ada@example.com');
    expect(await screen.findByText('If an account with that email exists, a password reset link has been sent.')).toBeInTheDocument();
    expect(server.calls[0]).toMatchObject({ key: 'POST /auth/request-password-reset', body: { email: 'ada@example.com' } });
    expect(screen.queryByRole('button', { name: 'Send Reset Link' })).not.toBeInTheDocument();
  });

  it.each([
    [500, { success: false, message: 'boom' }, 'Error requesting password reset'],
    [
      429,
      { success: false, message: 'Too many password reset requests. Please try again later.' },
      'Too many password reset requests. Please try again later.',
    ],
    [400, { success: false, message: 'Invalid email format' }, 'Invalid email format'],
  ])('a %i answer shows the right message', async (status, body, message) => {
    fakeServer({ 'POST /auth/request-password-reset': { status, body } });
    renderApp('/reset-password');
    await requestLink('ada@example.com');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeInTheDocument();
  });
});

describe('/reset-password?token=…', () => {
  const choose = async (password: string, confirm: string) => {
    const user = userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime } : {});
    await user.type(await screen.findByLabelText('New Password'), password);
    if (confirm) await user.type(screen.getByLabelText('Confirm Password'), confirm);
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
  };

  it('asks for the new password twice', async () => {
    fakeServer({});
    renderApp('/reset-password?token=abc');
    expect(await screen.findByRole('heading', { name: 'Set New Password' })).toBeInTheDocument();
    expect(screen.getByLabelText('New Password')).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm Password')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Reset Link' })).not.toBeInTheDocument();
  });

  it('refuses passwords that differ or are weak', async () => {
    const server = fakeServer({});
    renderApp('/reset-password?token=abc');
    await choose('Secret123!', 'Secret123?');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    await userEvent.setup().clear(screen.getByLabelText('New Password'));
    await choose('weakpassword', 'weakpassword');
    expect(await screen.findByText('Password must include uppercase, number, and special character')).toBeInTheDocument();
    expect(server.calls).toEqual([]);
  });

  it('sets the password, says so, and goes to /login after 3 seconds', async () => {
    // Fake clocks that still tick with real time, so the page's own waits keep working.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = fakeServer({
      'POST /auth/reset-password': { body: { success: true, message: 'Password has been reset successfully.' } },
    });
    renderApp('/reset-password?token=tok-123');
    await choose('Newpass1!', 'Newpass1!');
    expect(await screen.findByText('Password has been reset successfully. Redirecting to login...')).toBeInTheDocument();
    expect(server.calls[0]).toMatchObject({ key: 'POST /auth/reset-password', body: { token: 'tok-123', newPassword: 'Newpass1!' } });

    // The message stays for the full 3 s before the redirect.
    act(() => {
      vi.advanceTimersByTime(2500);
    });
    expect(window.location.pathname).toBe('/reset-password');
    act(() => {
      vi.advanceTimersByTime(600);
    });
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(await screen.findByRole('heading', { name: 'HelpDesk Login' })).toBeInTheDocument();
  });

  it.each([
    [400, { success: false, message: 'Invalid or expired reset token' }, 'Invalid or expired reset token'],
    [500, { success: false, message: 'boom' }, 'Error resetting password'],
  ])('a %i answer shows the right message and stays', async (status, body, message) => {
    fakeServer({ 'POST /auth/reset-password': { status, body } });
    renderApp('/reset-password?token=used');
    await choose('Newpass1!', 'Newpass1!');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(window.location.pathname).toBe('/reset-password');
  });
});
