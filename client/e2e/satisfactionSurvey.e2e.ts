import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, insertUser } from '../../server/test/factories';
import { ifSetUp } from '../../server/test/hooks';
import { startMailReceiver, type MailReceiver } from '../../server/test/mailReceiver';
import type { TestServer } from '../../server/test/server';
import { launchBrowser, logInThroughForm, openVisitor, startProduct } from './harness';

const waitForLive = (page: Page) => page.getByTestId('live-indicator').waitFor({ state: 'detached' });
const TITLE = 'Docking station drops the second screen';
const COMMENT = 'Fixed within the hour, and the explanation was clear.';

describe('journey: a satisfaction survey from the resolution to the staff page', () => {
  let smtp: MailReceiver;
  let product: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startMailReceiver();
    [product, browser] = await Promise.all([startProduct({ SMTP_URL: smtp.url }), launchBrowser()]);
  });
  afterAll(async () => {
    await ifSetUp(browser)?.close();
    await ifSetUp(product)?.close();
    await ifSetUp(smtp)?.close();
  });

  it('the agent resolves, the owner rates from the mailed link, and the agent sees the rating live', async () => {
    const owner = await insertUser(product, { name: 'Rating Rosa' });
    const agent = await insertUser(product, { role: 'agent', name: 'Agent Smith' });
    const ticket = await createTicket(product.api, owner.token, { title: TITLE });

    // The agent resolves the ticket from its page and stays there.
    const desk = await openVisitor(browser, product.url, 'csat-agent');
    await logInThroughForm(desk.page, agent.user.email, agent.password, /\/agent-dashboard/);
    await desk.page.goto(`/ticket/${ticket.id}`);
    await desk.page.getByRole('heading', { name: new RegExp(TITLE) }).waitFor();
    await waitForLive(desk.page);
    const panel = desk.page.getByRole('region', { name: 'Ticket details' });
    await panel.getByRole('textbox', { name: 'Status' }).click();
    await desk.page.getByRole('option', { name: 'Resolved' }).click();
    await desk.page.getByText('Status changed from Open to Resolved').first().waitFor();

    // The owner's mail arrives at the real SMTP receiver with one link per rating.
    const subject = `How did we do on ticket #${ticket.id}?`;
    await expect
      .poll(async () => (await product.server.mailer.idle(), smtp.to(owner.user.email).filter((m) => m.subject === subject).length), {
        timeout: 15_000,
      })
      .toBe(1);
    const mail = smtp.to(owner.user.email).find((m) => m.subject === subject)!;
    const links = [...mail.text.matchAll(/(http:\/\/[^\s]+\/rate\/[A-Za-z0-9_-]{43}\?rating=(good|neutral|bad))/g)].map((m) => m[1]!);
    expect(links.map((link) => new URL(link).searchParams.get('rating'))).toEqual(['good', 'neutral', 'bad']);
    const good = new URL(links[0]!);

    // Opening the link (signed out, on a phone) records nothing: the choice is only preselected.
    const phone = await openVisitor(browser, product.url, 'csat-rate-phone', { width: 390, height: 844 });
    await phone.page.goto(`${good.pathname}${good.search}`);
    await phone.page.getByText(`Ticket #${ticket.id}: ${TITLE}`).waitFor();
    expect(await phone.page.getByRole('radio', { name: 'Good' }).isChecked()).toBe(true);
    await phone.shot('rate-page');
    const staffView = async () => (await product.api.get(`/tickets/${ticket.id}`, { token: agent.token })).body.ticket.csat;
    expect(await staffView()).toBeNull();
    await expect(desk.page.getByRole('region', { name: 'Customer Rating' }).count()).resolves.toBe(0);

    // By keyboard: the arrow keys move the choice, the comment is typed, then Send.
    await phone.page.getByRole('radio', { name: 'Good' }).focus();
    await phone.page.keyboard.press('ArrowRight');
    expect(await phone.page.getByRole('radio', { name: 'Neutral' }).isChecked()).toBe(true);
    await phone.page.keyboard.press('ArrowLeft');
    expect(await phone.page.getByRole('radio', { name: 'Good' }).isChecked()).toBe(true);
    await phone.page.getByRole('textbox', { name: 'Comment (optional)' }).fill(COMMENT);
    await phone.page.getByText(`${COMMENT.length} / 2000 characters`).waitFor();
    await phone.shot('rate-page-filled');
    expect(await staffView()).toBeNull();
    await phone.page.getByRole('button', { name: 'Send' }).click();
    await phone.page.getByText('Thank you for your feedback!').waitFor();
    await phone.shot('thanks');

    // The agent's open page shows the rating without a reload.
    const rating = desk.page.getByRole('region', { name: 'Customer Rating' });
    await rating.getByText('Good').waitFor();
    await rating.getByText(COMMENT).waitFor();
    await desk.shot('staff-rating');

    // The owner, signed in, finds the same choices with their answer on the resolved ticket.
    const own = await openVisitor(browser, product.url, 'csat-owner');
    await logInThroughForm(own.page, owner.user.email, owner.password, /\/dashboard$/);
    await own.page.goto(`/ticket/${ticket.id}`);
    const section = own.page.getByRole('region', { name: 'Rate Our Support' });
    await section.getByRole('radio', { name: 'Good' }).waitFor();
    expect(await section.getByRole('radio', { name: 'Good' }).isChecked()).toBe(true);
    expect(await section.getByRole('textbox', { name: 'Comment (optional)' }).inputValue()).toBe(COMMENT);
    await own.shot('owner-ticket');

    // A changed answer there is what staff see next, live again.
    await section.getByRole('radio', { name: 'Neutral' }).check();
    await section.getByRole('button', { name: 'Send' }).click();
    await section.getByText('Thank you for your feedback!').waitFor();
    await rating.getByText('Neutral').waitFor();
    expect(await staffView()).toMatchObject({ rating: 'neutral', comment: COMMENT });

    await Promise.all([desk.context.close(), phone.context.close(), own.context.close()]);
  });
});
