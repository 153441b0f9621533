import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';

const run = async (email: string, password: string) => {
  const user = userEvent.setup();
  if (email) await user.type(await screen.findByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(await screen.findByRole('button', { name: 'Test Login' }));
};

describe('/api-test', () => {
  it('needs both fields', async () => {
    const server = fakeServer({});
    renderApp('/api-test');
    await run('', '');
    expect((await screen.findAllByText('Email and password are required')).length).toBe(2);
    expect(server.calls).toEqual([]);
  });

  it('shows the JSON answer of a successful login without signing anyone in', async () => {
    const account = testUser({ email: 'ada@example.com' });
    fakeServer({ 'POST /auth/login': { body: { success: true, token: 'tok-xyz', user: account } } });
    renderApp('/api-test');
    await run('ada@example.com', 'Secret123!');
    const response = await screen.findByTestId('api-test-response');
    expect(response).toHaveTextContent('"token": "tok-xyz"');
    expect(response).toHaveTextContent('"email": "ada@example.com"');
    expect(localStorage.getItem('token')).toBeNull();
    expect(window.location.pathname).toBe('/api-test');
  });

  it('shows the status, url and message of a failure', async () => {
    fakeServer({ 'POST /auth/login': { status: 401, body: { success: false, message: 'Invalid credentials' } } });
    renderApp('/api-test');
    await run('ada@example.com', 'wrong-pass');
    expect(await screen.findByText('Status: 401')).toBeInTheDocument();
    expect(screen.getByText('URL: /auth/login')).toBeInTheDocument();
    expect(screen.getByText('Invalid credentials')).toBeInTheDocument();
  });

  it('reports a server that does not answer', async () => {
    fakeServer({});
    renderApp('/api-test');
    await run('ada@example.com', 'Secret123!');
    expect(await screen.findByText('Status: no response')).toBeInTheDocument();
    expect(screen.getByText('Unable to connect to the server. Please check your internet connection and try again.')).toBeInTheDocument();
  });
});
