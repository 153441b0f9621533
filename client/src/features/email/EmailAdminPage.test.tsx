import type { InboundMessage, User } from '@helpdesk/protocol';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { asPhone } from '../../test-utils/phone';
import { renderApp, testUser } from '../../test-utils/renderApp';

const admin = testUser({ id: 1, name: 'Root Admin', email: 'root@example.com', role: 'admin' });
const agent = testUser({ id: 2, name: 'Agent Smith', email: 'smith@example.com', role: 'agent' });
const verify = (user: User) => ({ 'GET /auth/verify': { body: { success: true, user } } });

const message = (overrides: Partial<InboundMessage>): InboundMessage => ({
  id: 1,
  messageId: 'abc@example.test',
  envelopeTo: 'support@helpdesk.test',
  from: 'olive@example.test',
  subject: 'Printer on fire',
  size: 1200,
  sha256: 'a'.repeat(64),
  source: 'smtp',
  receivedAt: '2026-11-24T09:00:00.000Z',
  status: 'ticket',
  reason: null,
  ticketId: 7,
  commentId: null,
  attempts: 1,
  ...overrides,
});

/** One page of recent messages, the last one. */
const inbound = (messages: InboundMessage[]) => ({ 'GET /email/inbound': { body: { success: true, hasMore: false, messages } } });

const SETTINGS = {
  'GET /email/settings': {
    body: {
      success: true,
      settings: {
        supportAddress: 'support@helpdesk.test',
        smtp: { host: '127.0.0.1', port: 2525 },
        imap: null,
        createUsers: true,
        maxBytes: 36 * 1024 * 1024,
        maxPerSenderPerHour: 20,
      },
    },
  },
};

describe('/admin/email', () => {
  beforeEach(() => notifications.clean());

  it('tells a non-admin they may not be here, without asking for anything', async () => {
    const server = fakeServer({ ...verify(agent) });
    renderApp('/admin/email', { user: agent });
    expect(await screen.findByText(/You don't have permission to access this page/)).toBeInTheDocument();
    expect(server.calls.map((c) => c.key).filter((k) => k.includes('/email'))).toEqual([]);
  });

  it('shows the settings in force and the latest messages with status and reason', async () => {
    fakeServer({
      ...verify(admin),
      ...SETTINGS,
      ...inbound([message({ id: 2, status: 'ignored', reason: 'auto-submitted', ticketId: null, subject: 'Out of office' }), message({})]),
    });
    renderApp('/admin/email', { user: admin });
    expect(await screen.findByText('127.0.0.1:2525')).toBeInTheDocument();
    expect(screen.getByText('support@helpdesk.test')).toBeInTheDocument();
    expect(screen.getByText('Off')).toBeInTheDocument();
    const ignored = await screen.findByTestId('inbound-row-2');
    expect(within(ignored).getByText('ignored')).toBeInTheDocument();
    expect(within(ignored).getByText('auto-submitted')).toBeInTheDocument();
    const filed = screen.getByTestId('inbound-row-1');
    expect(within(filed).getByRole('link', { name: '#7' })).toHaveAttribute('href', '/tickets/7');
    expect(within(filed).queryByRole('button', { name: 'Retry message 1' })).not.toBeInTheDocument();
  });

  it('stacks each message as a card on a phone, with its status, ticket and actions', async () => {
    asPhone();
    fakeServer({
      ...verify(admin),
      ...SETTINGS,
      ...inbound([message({ id: 3, status: 'failed', reason: 'could not parse', ticketId: null })]),
    });
    renderApp('/admin/email', { user: admin });
    const card = await screen.findByTestId('inbound-row-3');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(card).getByText('failed')).toBeInTheDocument();
    expect(within(card).getByText('could not parse')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Retry message 3' })).toBeEnabled();
  });

  it('retries a failed message and reads the list again', async () => {
    let listed = 0;
    const server = fakeServer({
      ...verify(admin),
      ...SETTINGS,
      'GET /email/inbound': () => {
        listed += 1;
        const status = listed === 1 ? 'failed' : 'queued';
        return { body: { success: true, hasMore: false, messages: [message({ id: 5, status, reason: listed === 1 ? 'ENOENT' : null })] } };
      },
      'POST /email/inbound/5/retry': {
        body: { success: true, message: 'The message will be filed again', inboundMessage: message({ id: 5, status: 'queued' }) },
      },
    });
    renderApp('/admin/email', { user: admin });
    await userEvent.click(await screen.findByRole('button', { name: 'Retry message 5' }));
    expect(await screen.findByText('The message will be filed again')).toBeInTheDocument();
    expect(await within(screen.getByTestId('inbound-row-5')).findByText('queued')).toBeInTheDocument();
    expect(server.calls.map((c) => c.key)).toContain('POST /email/inbound/5/retry');
  });
});
