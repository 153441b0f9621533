import { MESSAGES, type ApiToken } from '@helpdesk/protocol';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';
import { API_TOKENS_TEXT } from './ApiTokens';

const me = testUser({ id: 7, name: 'Ada Lovelace', role: 'agent' });
const token = (over: Partial<ApiToken> = {}): ApiToken => ({
  id: 1,
  name: 'Nightly export',
  scopes: ['tickets:read'],
  createdAt: '2026-11-01T10:00:00.000Z',
  expiresAt: '2027-01-30T10:00:00.000Z',
  lastUsedAt: null,
  owner: { id: me.id, name: me.name },
  ...over,
});
const base = {
  'GET /auth/verify': { body: { success: true, user: me } },
  'GET /users/profile': { body: { success: true, user: me } },
};

describe('Settings → Tokens', () => {
  it('lists the tokens with their scopes and last use under Tokens, and shows no section to an end user', async () => {
    fakeServer({
      ...base,
      'GET /tokens': { body: { success: true, tokens: [token(), token({ id: 2, name: 'Zapier', lastUsedAt: new Date().toISOString() })] } },
    });
    const view = renderApp('/settings', { user: me });
    expect(await screen.findByRole('heading', { name: 'Tokens' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'API tokens' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('Nightly export')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('tickets:read')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(API_TOKENS_TEXT.neverUsed)).toBeInTheDocument();
    expect(within(rows[2]!).getByText('a few seconds ago')).toBeInTheDocument();
    view.unmount();

    const customer = testUser({ id: 8, role: 'user' });
    fakeServer({
      'GET /auth/verify': { body: { success: true, user: customer } },
      'GET /users/profile': { body: { success: true, user: customer } },
    });
    renderApp('/settings', { user: customer });
    expect(await screen.findByRole('heading', { name: 'Password' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Tokens' })).not.toBeInTheDocument();
  });

  it('creates a token with the chosen scopes and shows its secret once', async () => {
    let listed: ApiToken[] = [];
    const server = fakeServer({
      ...base,
      'GET /tokens': () => ({ body: { success: true, tokens: listed } }),
      'POST /tokens': ({ body }) => {
        const made = token({ id: 3, name: (body as { name: string }).name, scopes: ['tickets:read', 'tickets:write'] });
        listed = [made];
        return { status: 201, body: { success: true, token: made, secret: 'hd_pat_secretvalue' } };
      },
    });
    renderApp('/settings', { user: me });
    const user = userEvent.setup();
    expect(await screen.findByText(API_TOKENS_TEXT.empty)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: API_TOKENS_TEXT.create }));
    expect(await screen.findByText(MESSAGES.apiTokens.nameRequired)).toBeInTheDocument();
    expect(server.calls.some((c) => c.key === 'POST /tokens')).toBe(false);

    await user.type(screen.getByLabelText('Token name'), 'CI sync');
    await user.click(screen.getByRole('checkbox', { name: /tickets:write/ }));
    await user.click(screen.getByRole('button', { name: API_TOKENS_TEXT.create }));
    expect(await screen.findByTestId('new-token-secret')).toHaveTextContent('hd_pat_secretvalue');
    expect(server.calls.find((c) => c.key === 'POST /tokens')?.body).toEqual({
      name: 'CI sync',
      scopes: ['tickets:read', 'tickets:write'],
      expiresInDays: 90,
    });
    expect(await screen.findByRole('table', { name: 'API tokens' })).toHaveTextContent('CI sync');
    expect(screen.getByLabelText('Token name')).toHaveValue('');
  });

  it('shows the server’s refusal: a name used twice', async () => {
    fakeServer({
      ...base,
      'GET /tokens': { body: { success: true, tokens: [] } },
      'POST /tokens': { status: 409, body: { success: false, message: MESSAGES.apiTokens.duplicateName } },
    });
    renderApp('/settings', { user: me });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Token name'), 'Nightly export');
    await user.click(screen.getByRole('button', { name: API_TOKENS_TEXT.create }));
    expect(await screen.findByText(MESSAGES.apiTokens.duplicateName)).toBeInTheDocument();
    expect(screen.queryByTestId('new-token-secret')).not.toBeInTheDocument();
  });

  it('revokes a token after asking', async () => {
    let listed = [token()];
    const server = fakeServer({
      ...base,
      'GET /tokens': () => ({ body: { success: true, tokens: listed } }),
      'DELETE /tokens/1': () => {
        listed = [];
        return { body: { success: true, message: MESSAGES.apiTokens.revoked } };
      },
    });
    renderApp('/settings', { user: me });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke Nightly export' }));
    const dialog = await screen.findByRole('dialog', { name: API_TOKENS_TEXT.revokeTitle });
    await user.click(within(dialog).getByRole('button', { name: API_TOKENS_TEXT.revoke }));
    await waitFor(() => expect(server.calls.some((c) => c.key === 'DELETE /tokens/1')).toBe(true));
    expect(await screen.findByText(API_TOKENS_TEXT.empty)).toBeInTheDocument();
  });
});
