import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTicket, insertUser } from '../../server/test/factories';
import { logInThroughForm, openVisitor, useStage, type Visitor } from './harness';

const REPLY = 'Thanks Olive, we are looking into the VPN drops right now.';

/** The number on one of the agent dashboard's count cards. */
async function count(page: Page, key: string): Promise<number> {
  const text = await page.getByTestId(`count-${key}`).innerText();
  return Number(text.match(/(\d+)\s*$/)?.[1] ?? Number.NaN);
}

async function counts(page: Page) {
  return {
    total: await count(page, 'total'),
    open: await count(page, 'open'),
    in_progress: await count(page, 'in_progress'),
    resolved: await count(page, 'resolved'),
    urgent: await count(page, 'urgent'),
  };
}

/** Live updates only flow once the socket is up; the header shows a badge until then. */
async function waitForLive(page: Page) {
  await page.getByTestId('live-indicator').waitFor({ state: 'detached' });
}

/** A flag on the window survives only as long as the page is not reloaded. */
const markPage = (page: Page) => page.evaluate(() => Object.assign(window, { __sameDocument: true }));
const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

describe('journey: an agent works a ticket while its owner watches', () => {
  const stage = useStage();

  it('Start, Quick Reply and Resolve reach the owner live, and the dashboard follows new tickets', async () => {
    const owner = await insertUser(stage.product, { name: 'Olive Owner' });
    const agent = await insertUser(stage.product, { role: 'agent', name: 'Agent Smith' });
    const ticket = await createTicket(stage.product.api, owner.token, {
      title: 'VPN drops every hour',
      description: 'The VPN disconnects every hour on the hour since Monday morning.',
      priority: 'urgent',
    });

    // Context A: the owner follows the ticket.
    const userSide: Visitor = await openVisitor(stage.browser, stage.product.url, 'agent-workflow-user');
    await logInThroughForm(userSide.page, owner.user.email, owner.password, /\/dashboard$/);
    await userSide.page.goto(`/ticket/${ticket.id}`);
    const userStatus = userSide.page.locator('[data-status]').first();
    await expect.poll(() => userStatus.getAttribute('data-status')).toBe('open');
    await waitForLive(userSide.page);
    await markPage(userSide.page);
    await userSide.shot('ticket-open');

    // Context B: the agent works from the dashboard.
    const agentSide: Visitor = await openVisitor(stage.browser, stage.product.url, 'agent-workflow-agent');
    const agentPage = agentSide.page;
    // Park the pointer on the header first, so a clicked action's tooltip does not cover the shot.
    const agentShot = async (name: string) => {
      await agentPage.mouse.move(1, 1, { steps: 5 });
      await agentSide.shot(name);
    };
    await logInThroughForm(agentPage, agent.user.email, agent.password, /\/agent-dashboard$/);
    await agentPage.getByRole('heading', { name: 'Agent Dashboard' }).waitFor();
    await agentPage.getByText('Welcome back, Agent Smith').waitFor();
    const row = agentPage.locator(`tr[data-ticket-id="${ticket.id}"]`);
    await row.getByText('VPN drops every hour').waitFor();
    await expect.poll(() => counts(agentPage)).toEqual({ total: 1, open: 1, in_progress: 0, resolved: 0, urgent: 1 });
    await waitForLive(agentPage);
    await markPage(agentPage);
    await agentShot('dashboard-open');

    // Start: the owner's chip turns In Progress without a reload.
    await row.getByRole('button', { name: `Start ticket #${ticket.id}` }).click();
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status')).toBe('in_progress');
    await expect.poll(() => userStatus.getAttribute('data-status')).toBe('in_progress');
    await expect.poll(() => userStatus.textContent()).toBe('In Progress');
    await expect.poll(() => counts(agentPage)).toEqual({ total: 1, open: 0, in_progress: 1, resolved: 0, urgent: 1 });
    await agentShot('dashboard-started');
    await userSide.shot('ticket-in-progress');

    // Quick Reply: the owner reads the answer without a reload.
    await row.getByRole('button', { name: `Quick reply to ticket #${ticket.id}` }).click();
    const replyBox = agentPage.getByRole('textbox', { name: 'Your response' });
    await replyBox.fill(REPLY);
    await agentShot('quick-reply');
    await agentPage.getByRole('button', { name: 'Send Reply' }).click();
    await agentPage.getByText('Reply sent').waitFor();
    await replyBox.waitFor({ state: 'detached' });
    await userSide.page.getByText(REPLY).waitFor();
    await userSide.shot('ticket-replied');
    await agentShot('dashboard-replied');

    // Resolve: the owner sees Resolved; the row keeps only view and update.
    await row.getByRole('button', { name: `Resolve ticket #${ticket.id}` }).click();
    await expect.poll(() => userStatus.getAttribute('data-status')).toBe('resolved');
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status')).toBe('resolved');
    await expect.poll(() => counts(agentPage)).toEqual({ total: 1, open: 0, in_progress: 0, resolved: 1, urgent: 1 });
    // Start, Quick Reply and Resolve are gone; the assignment menu and the More menu (View details, Update) are left.
    expect(await row.getByRole('button').allTextContents()).toHaveLength(2);
    expect(await row.getByRole('button', { name: `Assign ticket #${ticket.id}` }).count()).toBe(1);
    expect(await row.getByRole('button', { name: `More actions for ticket #${ticket.id}` }).count()).toBe(1);
    await agentShot('dashboard-resolved');
    await userSide.shot('ticket-resolved');

    // A ticket raised meanwhile appears in the agent's table and counts by itself.
    const second = await createTicket(stage.product.api, owner.token, {
      title: 'Cannot print invoices',
      description: 'The invoice printer says it is offline since this morning.',
      priority: 'low',
    });
    await agentPage.locator(`tr[data-ticket-id="${second.id}"]`).getByText('Cannot print invoices').waitFor();
    await expect.poll(() => counts(agentPage)).toEqual({ total: 2, open: 1, in_progress: 0, resolved: 1, urgent: 1 });
    await agentShot('dashboard-new-ticket');

    expect(await stillSamePage(userSide.page)).toBe(true);
    expect(await stillSamePage(agentPage)).toBe(true);
    await userSide.context.close();
    await agentSide.context.close();
  });

  it('keeps the filters after opening a ticket, sets a category in bulk, and updates a ticket from the update screen', async () => {
    const owner = await insertUser(stage.product, { name: 'Paula Printer' });
    const agent = await insertUser(stage.product, { role: 'agent', name: 'Agent Jones' });
    const ticket = await createTicket(stage.product.api, owner.token, {
      title: 'Toner smudges every page',
      description: 'Every printed page has a grey smudge down the left edge.',
      priority: 'high',
      category: 'technical',
    });

    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'agent-update');
    await logInThroughForm(page, agent.user.email, agent.password, /\/agent-dashboard$/);
    await page.getByRole('textbox', { name: 'Search' }).fill('toner');
    await page.getByRole('textbox', { name: 'Priority' }).click();
    await page.getByRole('option', { name: 'High' }).click();
    const row = page.locator(`tr[data-ticket-id="${ticket.id}"]`);
    await row.waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByRole('textbox', { name: 'Category', exact: true }).click();
    await page.getByRole('option', { name: 'Technical' }).click();
    await page.waitForURL(/category=technical/);
    await row.locator('[data-category="technical"]').waitFor();
    await shot('dashboard-filtered');

    // Filed under billing in bulk: it leaves the technical list live, and the billing filter finds it.
    await row.getByRole('checkbox').check();
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await bar.getByRole('textbox', { name: 'Set category' }).click();
    await page.getByRole('option', { name: 'Billing' }).click();
    await page.mouse.move(1, 1);
    await shot('bulk-category');
    await bar.getByRole('button', { name: 'Apply to 1' }).click();
    await page.getByText('1 ticket updated').first().waitFor();
    await expect.poll(() => page.locator(`tr[data-ticket-id="${ticket.id}"]`).count()).toBe(0);
    await page.getByRole('textbox', { name: 'Category', exact: true }).click();
    await page.getByRole('option', { name: 'Billing' }).click();
    await row.locator('[data-category="billing"]').waitFor();
    await page.mouse.move(1, 1);
    await shot('dashboard-billing');

    await row.getByRole('button', { name: `More actions for ticket #${ticket.id}` }).click();
    await page.getByRole('menuitem', { name: `Update ticket #${ticket.id}` }).click();
    await page.waitForURL(`**/agent/ticket/${ticket.id}/update`);
    await page.getByRole('heading', { name: `Update Ticket #${ticket.id}` }).waitFor();
    await page.getByText('Status Guidelines').waitFor();
    expect(await page.getByRole('textbox', { name: 'Updated by' }).inputValue()).toBe('Agent Jones');
    await page.getByRole('textbox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Resolved' }).click();
    await page.getByRole('textbox', { name: /Resolution Notes/ }).fill('Replaced the toner cartridge and cleaned the drum.');
    await shot('update-form');
    // Each guideline's status is named whole, the longest ("Waiting on customer") too, on a phone as well.
    const waitingName = page.locator('[aria-labelledby="status-guidelines-title"] [data-status="pending"] .mantine-Badge-label');
    const wholeName = () => waitingName.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(await wholeName()).toBe(true);
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(wholeName).toBe(true);
    await shot('update-form-390');
    if (desktop) await page.setViewportSize(desktop);
    await page.getByRole('button', { name: 'Update Ticket' }).click();
    await page.getByText('Ticket updated successfully!').waitFor();
    await shot('update-saved');

    // Back on the dashboard after the pause, with the filters as they were.
    await page.waitForURL('**/agent-dashboard');
    expect(await page.getByRole('textbox', { name: 'Search' }).inputValue()).toBe('toner');
    expect(await page.getByRole('textbox', { name: 'Priority' }).inputValue()).toBe('High');
    expect(await page.getByRole('textbox', { name: 'Category', exact: true }).inputValue()).toBe('Billing');
    await expect.poll(() => row.locator('[data-status]').getAttribute('data-status')).toBe('resolved');
    await shot('dashboard-after-update');

    const saved = await stage.product.api.get(`/tickets/${ticket.id}`, { token: agent.token });
    expect(saved.body.ticket).toMatchObject({
      status: 'resolved',
      resolutionNotes: 'Replaced the toner cartridge and cleaned the drum.',
      category: 'billing',
      updatedBy: { name: 'Agent Jones' },
    });
    await context.close();
  });

  it('fits a phone: each ticket is a card with its status and priority in view, and the page does not scroll sideways', async () => {
    const agent = await insertUser(stage.product, { role: 'agent', name: 'Agent Mobile' });
    const owner = await insertUser(stage.product, { name: 'Mo Bile' });
    await createTicket(stage.product.api, owner.token, {
      title: 'Phone cannot sync calendar',
      description: 'My phone stopped syncing the shared calendar yesterday.',
    });
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'agent-phone', { width: 390, height: 844 });
    await logInThroughForm(page, agent.user.email, agent.password, /\/agent-dashboard$/);
    const card = page
      .locator('[role="list"][aria-label="Tickets"] [role="listitem"][data-ticket-id]')
      .filter({ hasText: 'Phone cannot sync calendar' });
    await card.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const text of ['Open', 'Medium', 'General']) {
      const box = await card.getByText(text, { exact: true }).first().boundingBox();
      expect(box, text).not.toBeNull();
      expect(box!.x + box!.width, text).toBeLessThanOrEqual(390);
    }
    await shot('dashboard-phone');
    await context.close();
  });
});
