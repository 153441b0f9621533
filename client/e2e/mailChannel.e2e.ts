import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../server/test/factories';
import { ifSetUp } from '../../server/test/hooks';
import { deliver, sendMail, SUPPORT } from '../../server/test/inboundMail';
import { startMailReceiver, type MailReceiver, type ReceivedMail } from '../../server/test/mailReceiver';
import type { TestServer } from '../../server/test/server';
import { launchBrowser, logInThroughForm, openVisitor, startProduct, TEST_ADMIN, type Visitor } from './harness';

const CUSTOMER = 'mara.mailer@customer.example.test';
const TITLE = 'Scanner shows error E-42';
const REPLY = 'Please update the scanner firmware with the file attached, then restart it.';
const ANSWER = 'Updated and restarted: the scanner works again, thank you!';
/** A 1×1 PNG: the composer shows it, the mail carries it. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const NOTES = Buffer.from('Firmware 4.2.1\nFixes error E-42 on start.\n');

const waitForLive = (page: Page) => page.getByTestId('live-indicator').waitFor({ state: 'detached' });
const row = (page: Page, id: number) => page.locator(`tr[data-ticket-id="${id}"]`);

/**
 * One screenshot of the whole page at this width. The window is made as tall as the page first:
 * a full-page capture of a shorter window draws the pinned header and reply box where they stuck.
 */
async function shotAt(visitor: Visitor, size: { width: number; height: number }, name: string) {
  await visitor.page.setViewportSize(size);
  // The drawer slides to its place for the new width: a capture during the slide shows its edge.
  await visitor.page.waitForFunction(() => (document.querySelector('#mobile-navigation')?.getBoundingClientRect().right ?? 0) <= 0);
  await visitor.page.mouse.move(1, 1);
  const height = await visitor.page.evaluate(() => document.documentElement.scrollHeight);
  await visitor.page.setViewportSize({ width: size.width, height: Math.max(size.height, height) });
  await visitor.shot(`${name}-${size.width}`);
  await visitor.page.setViewportSize(size);
}

/** The same screen at the desktop (1440×900) and the phone (390×844) sizes. */
async function shotBothSizes(visitor: Visitor, name: string) {
  await shotAt(visitor, { width: 1440, height: 900 }, name);
  await shotAt(visitor, { width: 390, height: 844 }, name);
  await visitor.page.setViewportSize({ width: 1440, height: 900 });
}

/** The first mail the receiver has for `address`, waiting for the outbox to send it. */
async function mailTo(product: TestServer, smtp: MailReceiver, address: string): Promise<ReceivedMail> {
  await expect.poll(async () => (await product.server.mailer.idle(), smtp.to(address).length), { timeout: 15_000 }).toBe(1);
  return smtp.to(address)[0]!;
}

describe('journey: a customer writes by mail and the agent answers from the browser', () => {
  let smtp: MailReceiver;
  let product: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startMailReceiver();
    [product, browser] = await Promise.all([
      startProduct({ INBOUND_SMTP_PORT: '0', SUPPORT_ADDRESS: SUPPORT, SMTP_URL: smtp.url }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    // Whatever beforeAll started, in the order it depends on: a failed start leaves the rest unset.
    await ifSetUp(browser)?.close();
    await ifSetUp(product)?.close();
    await ifSetUp(smtp)?.close();
  });

  it('the mail arrives live, the reply goes out threaded with its file, and the answer comes back live', async () => {
    const agent = await insertUser(product, { role: 'agent', name: 'Agent Smith' });
    const side = await openVisitor(browser, product.url, 'mail-channel-agent', { width: 1440, height: 900 });
    const page = side.page;
    await logInThroughForm(page, agent.user.email, agent.password, /\/agent-dashboard/);
    await page.getByRole('heading', { name: 'Agent Dashboard' }).waitFor();
    await waitForLive(page);

    // The customer mails in; the ticket shows up on the agent's queue without a reload.
    const opened = await deliver(product, {
      from: `"Mara Mailer" <${CUSTOMER}>`,
      to: SUPPORT,
      subject: TITLE,
      text: 'Since this morning the scanner on floor 2 stops with error E-42 right after it starts.',
    });
    expect(opened.status).toBe('ticket');
    const ticketId = opened.ticketId!;
    await row(page, ticketId).getByText(TITLE).waitFor();
    await side.shot('queue-with-mailed-ticket');

    // Open it and answer with two files from the composer.
    await row(page, ticketId).getByText(TITLE).click();
    await page.waitForURL(new RegExp(`/ticket/${ticketId}$`));
    // The mail as received is one click away, saved under its own name with the session's token.
    const [original] = await Promise.all([page.waitForEvent('download'), page.getByTestId('original-email').first().click()]);
    expect(original.suggestedFilename()).toBe(`message-${opened.id}.eml`);
    expect(await readFile(await original.path(), 'utf8')).toContain(`Subject: ${TITLE}`);
    const composer = page.getByRole('textbox', { name: 'Reply to the customer' });
    await composer.fill(REPLY);
    // One file by the button, one pasted into the reply box (a screenshot from the clipboard).
    await page.getByLabel('Attach files').setInputFiles([{ name: 'firmware-notes.txt', mimeType: 'text/plain', buffer: NOTES }]);
    await composer.evaluate(
      (box, bytes) => {
        const clipboard = new DataTransfer();
        clipboard.items.add(new File([new Uint8Array(bytes)], 'scanner-panel.png', { type: 'image/png' }));
        box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
      },
      [...PNG],
    );
    await expect.poll(() => page.getByTestId('draft-file').getByText('Uploaded').count()).toBe(2);
    await composer.scrollIntoViewIfNeeded();
    await shotBothSizes(side, 'composer-with-files');

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const sent = page.getByTestId('comment').filter({ hasText: REPLY });
    await sent.waitFor();
    // The thread shows the reply's files with their sizes.
    await sent.getByText('scanner-panel.png').waitFor();
    await sent.getByText('firmware-notes.txt').waitFor();
    await expect.poll(() => page.getByTestId('draft-file').count()).toBe(0);

    // The reply reaches the customer's mail server in the thread they started, with both files.
    const reply = await mailTo(product, smtp, CUSTOMER);
    expect(reply.subject).toBe(`Re: ${TITLE} [#${ticketId}]`);
    expect(reply.inReplyTo).toBe(`<${opened.messageId}>`);
    expect(reply.references).toContain(`<${opened.messageId}>`);
    expect(reply.text).toContain(REPLY);
    expect(reply.attachments.map((a) => a.filename).sort()).toEqual(['firmware-notes.txt', 'scanner-panel.png']);
    expect(reply.attachments.find((a) => a.filename === 'scanner-panel.png')!.content.equals(PNG)).toBe(true);
    // The reply's badge turns to Emailed live.
    await expect.poll(() => page.getByTestId('email-status').first().textContent()).toBe('Emailed');

    // The customer answers from their mail program; the answer appears in the open thread by itself.
    const answered = await sendMail(product, {
      from: CUSTOMER,
      to: SUPPORT,
      subject: `Re: ${TITLE} [#${ticketId}]`,
      inReplyTo: reply.messageId!,
      references: [...reply.references, reply.messageId!],
      text: `${ANSWER}\n\n-- Reply above this line --\n> ${REPLY}`,
    });
    expect(answered.response).toMatch(/^250 /);
    await page.getByTestId('comment').filter({ hasText: ANSWER }).waitFor();
    expect(await page.getByText('-- Reply above this line --').count()).toBe(0);
    await shotBothSizes(side, 'thread-with-mail-badges');
    await side.context.close();

    // The admin sees both messages on the Email page.
    const admin = await openVisitor(browser, product.url, 'mail-channel-admin', { width: 1440, height: 900 });
    await logInThroughForm(admin.page, TEST_ADMIN.email, TEST_ADMIN.password, /-dashboard/);
    await admin.page.goto('/admin/email');
    await admin.page.getByRole('heading', { name: 'Email', exact: true }).waitFor();
    await admin.page.getByText(TITLE, { exact: true }).first().waitFor();
    await expect.poll(() => admin.page.getByText(`Re: ${TITLE} [#${ticketId}]`).count()).toBeGreaterThan(0);
    await shotBothSizes(admin, 'email-admin');
    // On a phone each message is a card: no table to scroll, nothing past the screen's edge.
    await admin.page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => admin.page.getByRole('table').count()).toBe(0);
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await admin.context.close();
  });
});
