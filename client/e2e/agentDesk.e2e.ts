import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTicket, insertUser } from '../../server/test/factories';
import { logInThroughForm, openVisitor, useStage } from './harness';

/** Live updates only flow once the socket is up; the header shows a badge until then. */
const waitForLive = (page: Page) => page.getByTestId('live-indicator').waitFor({ state: 'detached' });
const LONG_TITLE = 'Quarterly invoice export fails for every EU customer account';

/** How many of a cut-short text's characters show: its visible share of its full width. */
const charactersShown = (page: Page, selector: string, length: number) =>
  page.locator(selector).evaluate((el, n) => Math.floor((el.clientWidth / el.scrollWidth) * n), length);

describe('journey: the agent desk (docs/product.md#agent-dashboard)', () => {
  const stage = useStage();

  it('fits the queue at desktop widths and puts the first ticket on a phone’s first screen', async () => {
    const { product, browser } = stage;
    expect(LONG_TITLE).toHaveLength(60);
    const owner = await insertUser(product, { name: 'Olive Owner' });
    const agent = await insertUser(product, { role: 'agent', name: 'Agent Smith' });
    const long = await createTicket(product.api, owner.token, { title: LONG_TITLE, description: 'Every export since Monday.' });
    const printer = await createTicket(product.api, owner.token, {
      title: 'Printer is on fire',
      description: 'Smoke comes out of the printer on floor 3 and its red colour light blinks.',
      priority: 'urgent',
    });

    const desk = await openVisitor(browser, product.url, 'desk-queue', { width: 1440, height: 900 });
    await logInThroughForm(desk.page, agent.user.email, agent.password, /\/agent-dashboard/);
    const row = desk.page.locator(`tr[data-ticket-id="${long.id}"]`);
    await row.waitFor();
    await waitForLive(desk.page);
    const scroll = desk.page.getByTestId('queue-scroll');
    const fits = () => scroll.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    const at1440 = await fits();
    expect(at1440.scroll).toBeLessThanOrEqual(at1440.client);
    const titleCell = `tr[data-ticket-id="${long.id}"] [data-testid="ticket-title"]`;
    expect(await charactersShown(desk.page, titleCell, 60)).toBeGreaterThanOrEqual(40);
    expect(await desk.page.locator(titleCell).getAttribute('title')).toBe(LONG_TITLE);
    // The unread mark is whole and named New; the times of today read relative, the exact time on hover.
    const badge = row.getByTestId('new-badge');
    expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(await row.getByText('New', { exact: true }).count()).toBe(1);
    expect(await row.locator('time').first().innerText()).toMatch(/just now|min ago|h ago/);
    await desk.shot('queue-1440');
    // The search box's terms as chips: a filter, a word searched as text, an unknown key said so.
    await desk.page.getByRole('textbox', { name: 'Search' }).fill('status:open printer colour:red');
    const chips = desk.page.getByRole('list', { name: 'Search terms' });
    await chips.getByText('Status: open').waitFor();
    expect(await chips.getByRole('listitem').allInnerTexts()).toEqual([
      'Status: open',
      'Text: printer',
      '“colour:red” (unknown filter, searched as text)',
    ]);
    // The list follows the terms: the unknown key's words narrow it like any text.
    await row.waitFor({ state: 'detached' });
    await desk.page.locator(`tr[data-ticket-id="${printer.id}"]`).waitFor();
    await desk.shot('search-chips');
    await chips.getByRole('button', { name: 'Remove Text: printer' }).click();
    await chips.getByRole('button', { name: 'Remove “colour:red” (unknown filter, searched as text)' }).click();
    await chips.getByRole('button', { name: 'Remove Status: open' }).click();
    await row.waitFor();
    for (const width of [1280, 1920]) {
      await desk.page.setViewportSize({ width, height: 900 });
      await expect.poll(async () => (await fits()).scroll <= (await fits()).client).toBe(true);
      await desk.shot(`queue-${width}`);
    }

    const phone = await openVisitor(browser, product.url, 'desk-queue-phone', { width: 390, height: 844 });
    await logInThroughForm(phone.page, agent.user.email, agent.password, /\/agent-dashboard/);
    const first = phone.page.locator('[role="listitem"][data-ticket-id]').first();
    await first.waitFor();
    expect((await first.boundingBox())?.y ?? Infinity).toBeLessThan(844);
    // Each card's actions are named on screen.
    expect(await first.getByRole('button', { name: /More actions for ticket/ }).innerText()).toBe('More');
    await phone.shot('queue-390');
    await phone.page.getByRole('button', { name: 'Counts, views and filters' }).click();
    await phone.page.getByRole('navigation', { name: 'Saved views' }).waitFor();
    await phone.shot('queue-390-controls-open');
  });

  it('works a ticket from its page: side panel changes reach a colleague live, 64 comments, a draft survives a reload', async () => {
    const { product, browser } = stage;
    const owner = await insertUser(product, { name: 'Rita Requester' });
    const agent = await insertUser(product, { role: 'agent', name: 'Agent Smith' });
    const colleague = await insertUser(product, { role: 'agent', name: 'Bea Backup' });
    const ticket = await createTicket(product.api, owner.token, { title: 'Laptop fan is very loud', priority: 'low' });
    for (let n = 1; n <= 64; n += 1) {
      const by = n % 2 === 0 ? agent.token : owner.token;
      const res = await product.api.post(`/tickets/${ticket.id}/comments`, { content: `Message number ${n}` }, { token: by });
      expect(res.status).toBe(201);
    }

    const watcher = await openVisitor(browser, product.url, 'desk-ticket-colleague', { width: 1440, height: 900 });
    await logInThroughForm(watcher.page, colleague.user.email, colleague.password, /\/agent-dashboard/);
    await watcher.page.goto(`/ticket/${ticket.id}`);
    await waitForLive(watcher.page);

    const desk = await openVisitor(browser, product.url, 'desk-ticket', { width: 1440, height: 900 });
    const page = desk.page;
    await logInThroughForm(page, agent.user.email, agent.password, /\/agent-dashboard/);
    await page.goto(`/ticket/${ticket.id}`);
    await waitForLive(page);

    // The heading counts all 64; Show older reaches the first one.
    await page.getByRole('heading', { name: 'Comments (64)' }).waitFor();
    expect(await page.getByText('Message number 1', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Show older' }).click();
    await page.getByText('Message number 1', { exact: true }).waitFor();
    expect(await page.getByText('Comment added').count()).toBe(0);

    // The reply box stays on screen while the thread is scrolled.
    await page.mouse.wheel(0, -4000);
    const box = await page.getByTestId('reply-box').boundingBox();
    expect((box?.y ?? Infinity) + (box?.height ?? 0)).toBeLessThanOrEqual(900 + 1);

    // A priority change from the side panel reaches the colleague live; neither page moves.
    const panel = page.getByRole('region', { name: 'Ticket details' });
    await panel.getByRole('textbox', { name: 'Priority' }).click();
    await page.getByRole('option', { name: 'Urgent' }).click();
    await expect.poll(() => watcher.page.locator('[data-priority]').first().getAttribute('data-priority')).toBe('urgent');
    expect(new URL(page.url()).pathname).toBe(`/ticket/${ticket.id}`);
    expect(new URL(watcher.page.url()).pathname).toBe(`/ticket/${ticket.id}`);
    await panel.getByRole('textbox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Closed' }).click();
    await expect.poll(() => watcher.page.locator('[data-status]').first().getAttribute('data-status')).toBe('closed');
    await page.getByText('Status changed from Open to Closed').first().waitFor();
    // The older messages loaded stay loaded through those changes.
    expect(await page.getByText('Message number 1', { exact: true }).count()).toBe(1);
    await desk.shot('ticket-with-panels');

    // A draft survives a reload.
    const reply = page.getByRole('textbox', { name: 'Reply to the customer' });
    await reply.fill('Draft: we ordered a new fan');
    await page.reload();
    await expect.poll(() => page.getByRole('textbox', { name: 'Reply to the customer' }).inputValue()).toBe('Draft: we ordered a new fan');

    // On a phone the reply box is on the first screen too, pinned while the thread scrolls.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Comments (64)' }).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 600);
    const bottomOf = async () => {
      const pinned = await page.getByTestId('reply-box').boundingBox();
      return Math.round((pinned?.y ?? Infinity) + (pinned?.height ?? 0));
    };
    await expect.poll(bottomOf).toBeLessThanOrEqual(845);
    // Pinned, it leaves most of the screen to the thread: one row of controls, the status sends in a
    // menu beside Send (with a row per button it was 445 px, over half the screen; now ~245).
    expect((await page.getByTestId('reply-box').boundingBox())?.height ?? Infinity).toBeLessThanOrEqual(300);
    await desk.shot('ticket-phone');
    await desk.shot('ticket-phone-screen', { screen: true });
    await page.getByRole('button', { name: 'Send and change status' }).click();
    await page.getByRole('menuitem', { name: 'Send and resolve' }).waitFor();
    await desk.shot('ticket-phone-send-menu', { screen: true });
    await page.keyboard.press('Escape');
  });
});
