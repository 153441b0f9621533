import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, logIn } from '../../server/test/factories';
import { startWebhookReceiver, type WebhookReceiver } from '../../server/test/webhookReceiver';
import { logInThroughForm, openVisitor, TEST_ADMIN, useStage } from './harness';

/** Webhooks may reach the receiver on 127.0.0.1 here; the address rules have server tests of their own. */
const OPEN_ADDRESSES = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' };

describe('journey: an admin sends ticket events to another system', () => {
  const stage = useStage(OPEN_ADDRESSES);
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('adds a webhook, copies its secret, sees a test and a ticket delivered, and recovers one that answered 410', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'webhooks');
    await logInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard$/);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL('**/admin/webhooks');
    await page.getByText('No webhooks yet').waitFor();
    await shot('empty');

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Webhook' });
    await dialog.getByLabel('Endpoint URL').fill('ftp://example.com');
    await dialog.getByRole('button', { name: 'Add Webhook' }).click();
    await dialog.getByText('Webhook URL must be an https URL of at most 2000 characters').waitFor();
    await dialog.getByLabel('Endpoint URL').fill(receiver.url('/crm'));
    await dialog.getByLabel('Description').fill('CRM sync');
    await dialog.getByRole('checkbox', { name: /^comment\.created/ }).check();
    await shot('add-dialog');
    await dialog.getByRole('button', { name: 'Add Webhook' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    const card = page.getByRole('region', { name: 'Webhook CRM sync' });
    await card.getByText('comment.created').waitFor();
    await shot('created-with-secret');

    // A test, then a real change: both reach the receiver signed with that secret.
    await card.getByRole('button', { name: 'Send test' }).click();
    await page.getByText('A test event is on its way').waitFor();
    await card.getByText('delivered').first().waitFor();
    const owner = await logIn(stage.product.api, TEST_ADMIN.email, TEST_ADMIN.password);
    const ticket = await createTicket(stage.product.api, owner.token, { title: 'Printer jams on floor 2' });
    await expect.poll(() => receiver.at('/crm').length).toBe(2);
    const [test, created] = receiver
      .at('/crm')
      .map((hook) => new StandardWebhook(secret).verify(hook.body, hook.headers as Record<string, string>));
    expect(test).toMatchObject({ type: 'webhook.test' });
    expect(created).toMatchObject({ type: 'ticket.created', data: { ticket: { id: ticket.id, title: 'Printer jams on floor 2' } } });
    await page.reload();
    await card.getByRole('button', { name: 'Deliveries' }).click();
    await card.getByText('ticket.created').last().waitFor();
    await shot('delivery-log');

    // An endpoint that answers 410 is turned off, and the admin hears of it.
    receiver.answer('/gone', { status: 410 });
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await dialog.getByLabel('Endpoint URL').fill(receiver.url('/gone'));
    await dialog.getByLabel('Description').fill('Old system');
    await dialog.getByRole('button', { name: 'Add Webhook' }).click();
    const gone = page.getByRole('region', { name: 'Webhook Old system' });
    await gone.getByRole('button', { name: 'Send test' }).click();
    await gone.getByText('failed').waitFor();
    await page.reload();
    await gone.getByText('Webhook to 127.0.0.1 was turned off: it answered 410 Gone').waitFor();
    await page.getByRole('button', { name: /Notifications, 1 unread/ }).click();
    await page.getByText('A webhook was turned off').waitFor();
    await shot('turned-off', { screen: true });
    await page.keyboard.press('Escape');

    // Turned on again, its failed delivery is retried and goes through.
    await gone.getByRole('button', { name: 'Edit webhook Old system' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Webhook' });
    await edit.getByRole('switch', { name: 'Active' }).check();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await gone.getByText('On', { exact: true }).waitFor();
    await gone.getByRole('button', { name: 'Deliveries' }).click();
    await gone.getByRole('button', { name: /^Retry delivery/ }).click();
    await page.getByText('The delivery will be sent again').waitFor();
    await gone.getByText('delivered').waitFor();
    expect(receiver.at('/gone')).toHaveLength(2);
    await shot('retried');

    await gone.getByRole('button', { name: 'Delete webhook Old system' }).click();
    await page.getByRole('dialog', { name: 'Delete this webhook?' }).getByRole('button', { name: 'Delete' }).click();
    await gone.waitFor({ state: 'detached' });
    await context.close();
  });

  it('fits a phone, with a delivery log open', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'webhooks-phone', { width: 390, height: 844 });
    await logInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard$/);
    await page.goto('/admin/webhooks');
    const card = page.getByRole('region', { name: 'Webhook CRM sync' });
    await card.getByRole('button', { name: 'Deliveries' }).click();
    await card.getByText('delivered').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('webhooks');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('dialog', { name: 'Add Webhook' }).getByLabel('Endpoint URL').waitFor();
    await shot('add-dialog', { screen: true });
    await context.close();
  });
});
