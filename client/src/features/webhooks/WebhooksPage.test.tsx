import { MESSAGES, type User, type Webhook, type WebhookDelivery } from '@helpdesk/protocol';
import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { asPhone } from '../../test-utils/phone';
import { renderApp, testUser } from '../../test-utils/renderApp';
import { WEBHOOKS_TEXT } from './texts';

const admin = testUser({ id: 1, name: 'Root Admin', email: 'root@example.com', role: 'admin' });
const agent = testUser({ id: 2, name: 'Agent Smith', email: 'smith@example.com', role: 'agent' });
const verify = (user: User) => ({ 'GET /auth/verify': { body: { success: true, user } } });
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const webhook = (overrides: Partial<Webhook> = {}): Webhook => ({
  id: 1,
  url: 'https://crm.example.com/helpdesk',
  description: 'CRM sync',
  events: ['ticket.created', 'ticket.updated'],
  includeInternal: false,
  active: true,
  disabledReason: null,
  createdAt: '2026-11-24T09:00:00.000Z',
  updatedAt: '2026-11-24T09:00:00.000Z',
  ...overrides,
});
const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 10,
  webhookId: 1,
  messageId: 'msg_1',
  event: 'ticket.created',
  status: 'delivered',
  attempts: 1,
  lastStatusCode: 200,
  lastError: null,
  durationMs: 42,
  createdAt: '2026-11-24T09:00:00.000Z',
  lastAttemptAt: '2026-11-24T09:00:01.000Z',
  nextAttemptAt: null,
  ...overrides,
});
const listOf = (webhooks: Webhook[]) => ({ body: { success: true, webhooks } });

describe('/admin/webhooks', () => {
  beforeEach(() => notifications.clean());

  it('tells a non-admin they may not be here, without asking for anything', async () => {
    const server = fakeServer({ ...verify(agent) });
    renderApp('/admin/webhooks', { user: agent });
    expect(await screen.findByText(/You don't have permission to access this page/)).toBeInTheDocument();
    expect(server.calls.map((c) => c.key).filter((k) => k.includes('/webhooks'))).toEqual([]);
  });

  it('adds a webhook, says what is wrong first, and shows its secret once with a copy button', async () => {
    let listed: Webhook[] = [];
    const server = fakeServer({
      ...verify(admin),
      'GET /webhooks': () => listOf(listed),
      'POST /webhooks': ({ body }) => {
        listed = [webhook({ id: 3, ...(body as object) })];
        return { status: 201, body: { success: true, webhook: listed[0], secret: SECRET } };
      },
    });
    renderApp('/admin/webhooks', { user: admin });
    const user = userEvent.setup();
    expect(await screen.findByText(WEBHOOKS_TEXT.empty)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: WEBHOOKS_TEXT.add }));
    const dialog = await screen.findByRole('dialog', { name: WEBHOOKS_TEXT.addTitle });
    const url = within(dialog).getByLabelText(WEBHOOKS_TEXT.fieldUrl);
    await user.clear(url);
    await user.type(url, 'ftp://nope');
    await user.click(within(dialog).getByRole('checkbox', { name: /ticket\.created/ }));
    await user.click(within(dialog).getByRole('button', { name: WEBHOOKS_TEXT.create }));
    expect(await within(dialog).findByText(MESSAGES.webhooks.urlInvalid)).toBeInTheDocument();
    expect(within(dialog).getByText(MESSAGES.webhooks.eventsRequired)).toBeInTheDocument();
    expect(server.calls.some((c) => c.key === 'POST /webhooks')).toBe(false);

    await user.clear(url);
    await user.type(url, 'https://crm.example.com/helpdesk');
    await user.type(within(dialog).getByLabelText(WEBHOOKS_TEXT.fieldDescription), 'CRM sync');
    await user.click(within(dialog).getByRole('checkbox', { name: /comment\.created/ }));
    await user.click(within(dialog).getByRole('switch', { name: new RegExp(`^${WEBHOOKS_TEXT.fieldIncludeInternal}`) }));
    await user.click(within(dialog).getByRole('button', { name: WEBHOOKS_TEXT.create }));
    await waitFor(() => expect(server.calls.some((c) => c.key === 'POST /webhooks')).toBe(true));
    expect(server.calls.find((c) => c.key === 'POST /webhooks')?.body).toEqual({
      url: 'https://crm.example.com/helpdesk',
      description: 'CRM sync',
      events: ['comment.created'],
      includeInternal: true,
      active: true,
    });
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent(SECRET);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    const card = await screen.findByTestId('webhook-3');
    expect(within(card).getByText('comment.created')).toBeInTheDocument();
    expect(within(card).getByText(WEBHOOKS_TEXT.internalNotes)).toBeInTheDocument();
  });

  it('shows the server’s field message on the field', async () => {
    fakeServer({
      ...verify(admin),
      'GET /webhooks': listOf([]),
      'POST /webhooks': {
        status: 400,
        body: { success: false, message: MESSAGES.webhooks.urlNotPublic, errors: { url: MESSAGES.webhooks.urlNotPublic } },
      },
    });
    renderApp('/admin/webhooks', { user: admin });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: WEBHOOKS_TEXT.add }));
    const dialog = await screen.findByRole('dialog', { name: WEBHOOKS_TEXT.addTitle });
    await user.type(within(dialog).getByLabelText(WEBHOOKS_TEXT.fieldUrl), '10.0.0.1/in');
    await user.click(within(dialog).getByRole('button', { name: WEBHOOKS_TEXT.create }));
    expect(await within(dialog).findByText(MESSAGES.webhooks.urlNotPublic)).toBeInTheDocument();
  });

  it('edits, sends a test and opens the log, retries a failed delivery, rotates the secret and deletes', async () => {
    let deliveries = [
      delivery({ id: 11, status: 'failed', attempts: 8, lastStatusCode: 503, lastError: 'Answered 503 Service Unavailable' }),
    ];
    let listed = [webhook()];
    const server = fakeServer({
      ...verify(admin),
      'GET /webhooks': () => listOf(listed),
      'PUT /webhooks/1': ({ body }) => {
        listed = [webhook({ ...(body as object) })];
        return { body: { success: true, webhook: listed[0] } };
      },
      'POST /webhooks/1/test': () => {
        deliveries = [delivery({ id: 12, event: 'webhook.test' }), ...deliveries];
        return { body: { success: true, message: MESSAGES.webhooks.testQueued, delivery: deliveries[0] } };
      },
      'GET /webhooks/1/deliveries': () => ({ body: { success: true, hasMore: false, deliveries } }),
      'POST /webhooks/deliveries/11/retry': () => {
        deliveries = deliveries.map((d) => (d.id === 11 ? delivery({ id: 11 }) : d));
        return { body: { success: true, message: MESSAGES.webhooks.retried, delivery: deliveries[1] } };
      },
      'POST /webhooks/1/rotate-secret': { body: { success: true, webhook: webhook(), secret: SECRET } },
      'DELETE /webhooks/1': () => {
        listed = [];
        return { body: { success: true, message: MESSAGES.webhooks.deleted } };
      },
    });
    renderApp('/admin/webhooks', { user: admin });
    const user = userEvent.setup();
    const card = await screen.findByTestId('webhook-1');
    expect(within(card).getByText('https://crm.example.com/helpdesk')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Edit webhook CRM sync' }));
    const dialog = await screen.findByRole('dialog', { name: WEBHOOKS_TEXT.editTitle });
    const description = within(dialog).getByLabelText(WEBHOOKS_TEXT.fieldDescription);
    await user.clear(description);
    await user.type(description, 'CRM');
    await user.click(within(dialog).getByRole('button', { name: WEBHOOKS_TEXT.save }));
    expect(await within(await screen.findByTestId('webhook-1')).findByText('CRM')).toBeInTheDocument();
    expect(server.calls.find((c) => c.key === 'PUT /webhooks/1')?.body).toMatchObject({ description: 'CRM', active: true });

    await user.click(within(screen.getByTestId('webhook-1')).getByRole('button', { name: WEBHOOKS_TEXT.deliveries }));
    const failed = await screen.findByTestId('delivery-11');
    expect(within(failed).getByText('failed')).toBeInTheDocument();
    expect(within(failed).getByText(/8 attempts · HTTP 503/)).toBeInTheDocument();
    expect(within(failed).getByText('Answered 503 Service Unavailable')).toBeInTheDocument();
    // The log opens with a transition, hidden from assistive technology until it ends.
    await user.click(await within(failed).findByRole('button', { name: 'Retry delivery 11' }));
    expect(await screen.findByText(MESSAGES.webhooks.retried)).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByTestId('delivery-11')).getByText('delivered')).toBeInTheDocument());
    expect(within(screen.getByTestId('delivery-11')).getByText(/1 attempt · HTTP 200 · 42 ms/)).toBeInTheDocument();

    await user.click(within(screen.getByTestId('webhook-1')).getByRole('button', { name: WEBHOOKS_TEXT.test }));
    expect(await screen.findByText(MESSAGES.webhooks.testQueued)).toBeInTheDocument();
    expect(await screen.findByTestId('delivery-12')).toHaveTextContent('webhook.test');

    await user.click(within(screen.getByTestId('webhook-1')).getByRole('button', { name: WEBHOOKS_TEXT.rotate }));
    const ask = await screen.findByRole('dialog', { name: WEBHOOKS_TEXT.rotateTitle });
    await user.click(within(ask).getByRole('button', { name: WEBHOOKS_TEXT.rotate }));
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent(SECRET);

    await user.click(within(screen.getByTestId('webhook-1')).getByRole('button', { name: 'Delete webhook CRM' }));
    const confirm = await screen.findByRole('dialog', { name: WEBHOOKS_TEXT.deleteTitle });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(WEBHOOKS_TEXT.empty)).toBeInTheDocument();
  });

  it('says why the server turned a webhook off, and fits a phone', async () => {
    asPhone();
    fakeServer({
      ...verify(admin),
      'GET /webhooks': listOf([
        webhook({ active: false, disabledReason: 'Webhook to crm.example.com was turned off: it answered 410 Gone' }),
      ]),
    });
    renderApp('/admin/webhooks', { user: admin });
    const card = await screen.findByTestId('webhook-1');
    expect(within(card).getByText('Webhook to crm.example.com was turned off: it answered 410 Gone')).toBeInTheDocument();
    expect(within(card).getByText(WEBHOOKS_TEXT.off)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
