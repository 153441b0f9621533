import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { tickets } from '../../server/src/db/schema/index';
import { createTicket, insertUser } from '../../server/test/factories';
import { logInThroughForm, openVisitor, TEST_ADMIN, useStage, type Visitor } from './harness';

const waitForLive = (page: Page) => page.getByTestId('live-indicator').waitFor({ state: 'detached' });
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const stateOf = (badge: Locator) => badge.getAttribute('data-sla-state');
/** What the badge shows on screen (a screen reader hears the whole sentence instead). */
const shownOn = (badge: Locator) => badge.locator('span[aria-hidden="true"]').textContent();

/** Open all day, every day, so the deadlines of a test run fall minutes away whatever the hour. */
async function buildCalendar({ page, checkAccessibility }: Visitor): Promise<void> {
  await page.getByRole('button', { name: 'Add Calendar' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Always open');
  // By keyboard the time zone's option list is passed over: Tab goes on to the week's hours. Open, the
  // list scrolls and holds nothing but options (axe).
  await page.keyboard.press('Tab');
  await dialog.getByRole('listbox').waitFor();
  await checkAccessibility('the time zone list open');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Mon–Fri 09:00–17:00');
  // A new calendar starts with office hours on weekdays: each day gets one interval, midnight to midnight.
  for (const day of WEEKDAYS) {
    const opens = dialog.getByLabel(`${day} opens`);
    if ((await opens.count()) === 0) await dialog.getByRole('button', { name: `Add opening hours on ${day}` }).click();
    await opens.first().fill('00:00');
    await dialog.getByLabel(`${day} closes`).first().fill('24:00');
  }
  await dialog.getByRole('button', { name: 'Add Calendar' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('region', { name: 'Business calendars' }).getByText('Always open').waitFor();
}

/** Urgent: first response in one minute, warned at once (the warning time is longer than the target). */
async function buildPolicy(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add Policy' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Urgent desk');
  await dialog.getByRole('textbox', { name: 'Business calendar' }).click();
  await page.getByRole('option', { name: 'Always open' }).click();
  await dialog.getByLabel('Urgent first response minutes').fill('1');
  await dialog.getByLabel('Urgent resolution minutes').fill('240');
  await dialog.getByLabel('Warn this many minutes before a deadline').fill('30');
  await dialog.getByRole('button', { name: 'Add Policy' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('region', { name: 'SLA policies' }).getByText('Urgent desk').waitFor();
}

describe('journey: service levels (docs/product.md#service-levels)', () => {
  // The scanner looks every half second, so a warning or a breach reaches the page within a second.
  const stage = useStage({ SLA_SCAN_INTERVAL_MS: '500' });

  it('an admin sets a policy up; a ticket’s badge counts down, turns amber and red live, and pauses while waiting on the customer', async () => {
    const { product, browser } = stage;
    const owner = await insertUser(product, { name: 'Una Urgent' });

    const admin = await openVisitor(browser, product.url, 'sla-admin', { width: 1440, height: 900 });
    await logInThroughForm(admin.page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard|\/admin/);
    await admin.page.goto('/service-levels');
    await buildCalendar(admin);
    await buildPolicy(admin.page);
    await admin.shot('service-levels');

    // A ticket waiting on the customer stops its clock; a second one runs out.
    const waiting = await createTicket(product.api, owner.token, { title: 'Payroll export is empty', priority: 'urgent' });
    const running = await createTicket(product.api, owner.token, { title: 'Checkout rejects every card', priority: 'urgent' });

    await admin.page.goto('/agent-dashboard');
    await waitForLive(admin.page);
    const badgeOf = (id: number) => admin.page.locator(`tr[data-ticket-id="${id}"] [data-testid="sla-badge"]`);
    await badgeOf(running.id).waitFor();
    // Warned at once by the scanner: amber, with the minute still counting.
    await expect.poll(() => stateOf(badgeOf(running.id)), { timeout: 30_000 }).toBe('warning');
    expect(await shownOn(badgeOf(running.id))).toBe('1 m');
    expect(await badgeOf(running.id).getAttribute('title')).toMatch(/^First response due in 1 m/);

    // The ticket page: the side panel sets the other ticket to Waiting on customer, and its badge pauses.
    const ticketPage = await openVisitor(browser, product.url, 'sla-ticket', { width: 1440, height: 900 });
    await logInThroughForm(ticketPage.page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard|\/admin/);
    await ticketPage.page.goto(`/ticket/${waiting.id}`);
    const panel = ticketPage.page.getByRole('region', { name: 'Ticket details' });
    await panel.getByTestId('sla-badge').waitFor();
    await panel.getByRole('textbox', { name: 'Status' }).click();
    await ticketPage.page.getByRole('option', { name: 'Waiting on customer' }).click();
    await expect.poll(() => stateOf(panel.getByTestId('sla-badge')), { timeout: 10_000 }).toBe('paused');
    expect(await shownOn(panel.getByTestId('sla-badge'))).toBe('Paused');
    await ticketPage.shot('ticket-paused');
    // The queue follows both without a reload: the status and the badge.
    await expect.poll(() => stateOf(badgeOf(waiting.id)), { timeout: 10_000 }).toBe('paused');
    await admin.page.locator(`tr[data-ticket-id="${waiting.id}"] [data-status="pending"]`).waitFor();
    await admin.shot('queue-warning-and-paused');

    // "SLA at risk" (due soon, nearest first) lists the warned ticket, not the paused one, with its count.
    const views = admin.page.getByRole('navigation', { name: 'Saved views' });
    await views.getByRole('button', { name: /SLA at risk/ }).click();
    await admin.page.waitForURL(/sla=warning/);
    await admin.page.locator(`tr[data-ticket-id="${running.id}"]`).waitFor();
    expect(await admin.page.locator(`tr[data-ticket-id="${waiting.id}"]`).count()).toBe(0);
    const atRiskCount = views.getByTestId('view-count--4');
    await expect.poll(() => atRiskCount.textContent()).toBe('1');
    await admin.shot('queue-sla-at-risk');

    // The running ticket's minute runs out: red and "Overdue" on its page, and it leaves the at-risk
    // view, count included, without a reload. Rather than idle out the rest of the minute, its deadline
    // (and with it the scanner's next mark) moves to two seconds from now.
    await ticketPage.page.goto(`/ticket/${running.id}`);
    await panel.getByTestId('sla-badge').waitFor();
    const soon = new Date(Date.now() + 2_000);
    await product.server.database.db.update(tickets).set({ slaResponseDueAt: soon, slaNextMarkAt: soon }).where(eq(tickets.id, running.id));
    await expect.poll(() => stateOf(panel.getByTestId('sla-badge')), { timeout: 20_000, interval: 500 }).toBe('breached');
    expect(await shownOn(panel.getByTestId('sla-badge'))).toMatch(/^Overdue/);
    await admin.page.locator(`tr[data-ticket-id="${running.id}"]`).waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => atRiskCount.textContent()).toBe('0');
    await ticketPage.shot('ticket-breached');

    // The SLA filter's Overdue shows it red; the paused one never ran out.
    await admin.page.getByRole('textbox', { name: 'SLA' }).click();
    await admin.page.getByRole('option', { name: 'Overdue' }).click();
    await admin.page.waitForURL(/sla=breached/);
    await expect.poll(() => stateOf(badgeOf(running.id))).toBe('breached');
    expect(await shownOn(badgeOf(running.id))).toMatch(/^Overdue/);
    await admin.shot('queue-overdue');
    expect(await stateOf(panel.getByTestId('sla-badge'))).toBe('breached');

    // The phone's queue shows the badges on the cards.
    const phone = await openVisitor(browser, product.url, 'sla-phone', { width: 390, height: 844 });
    await logInThroughForm(phone.page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard|\/admin/);
    await phone.page.goto('/agent-dashboard');
    await phone.page.locator(`[role="listitem"][data-ticket-id="${running.id}"] [data-testid="sla-badge"]`).waitFor();
    await phone.shot('queue-390');
    await phone.page.goto(`/ticket/${running.id}`);
    await phone.page.getByRole('region', { name: 'Ticket details' }).getByTestId('sla-badge').waitFor();
    await phone.shot('ticket-390');
  }, 180_000);
});
