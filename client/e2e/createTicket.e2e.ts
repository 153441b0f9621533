import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTicket, insertUser, STRONG_PASSWORD, uniqueEmail } from '../../server/test/factories';
import { logInThroughForm, openVisitor, useStage } from './harness';

const visible = (page: Page, text: string | RegExp) => page.getByText(text).first().waitFor({ state: 'visible' });

describe('journey: a new user raises, follows, edits and deletes tickets', () => {
  const stage = useStage();
  const email = uniqueEmail('erin');

  it('signs up, creates a ticket, follows it live, edits it and deletes another', { timeout: 180_000 }, async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'create-ticket');

    // Sign up through the form and land on the empty dashboard.
    await page.goto('/signup');
    await page.getByLabel('Full Name').fill('Erin Example');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel('Confirm Password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Welcome, Erin Example!' }).waitFor();
    await visible(page, 'No tickets yet');
    await visible(page, 'Create your first support ticket to get started');
    await shot('dashboard-empty');

    // Create a ticket: a too-short title is refused first.
    await page.getByRole('link', { name: 'New Ticket' }).click();
    await page.waitForURL('**/create-ticket');
    await page.getByRole('heading', { name: 'Create New Ticket' }).waitFor();
    await visible(page, 'Tips for a faster resolution');
    await shot('create-form');
    await page.getByLabel('Title').fill('Wifi');
    await page.getByLabel('Description').fill('The office wifi disconnects every few minutes since Monday.');
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await visible(page, 'Title must be at least 5 characters long');
    await shot('create-validation');
    expect(await page.getByText('4/200').isVisible()).toBe(true);

    await page.getByLabel('Title').fill('Wifi drops every few minutes');
    await page.getByRole('textbox', { name: 'Priority' }).click();
    await page.getByRole('option', { name: 'High' }).click();
    // The owner says what it is about; General is preselected.
    expect(await page.getByRole('textbox', { name: 'Category', exact: true }).inputValue()).toBe('General');
    await page.getByRole('textbox', { name: 'Category', exact: true }).click();
    await page.getByRole('option', { name: 'Technical' }).click();
    await shot('create-category');
    await page.getByRole('button', { name: 'Create Ticket' }).click();
    await visible(page, 'Ticket created successfully! Redirecting to dashboard...');
    await shot('create-success');
    await page.waitForURL('**/dashboard', { timeout: 5_000 });
    const card = page.getByTestId('ticket-card').filter({ hasText: 'Wifi drops every few minutes' });
    await card.waitFor();
    expect(await card.getByText('By Erin Example').isVisible()).toBe(true);
    expect(await card.locator('[data-category="technical"]').isVisible()).toBe(true);
    expect(await page.getByRole('group', { name: 'Total Tickets' }).innerText()).toContain('1');
    await shot('dashboard-with-ticket');

    // Open it; an agent starts work and replies while the page is open: it changes live.
    await card.click();
    await page.waitForURL(/\/ticket\/\d+$/);
    const ticketId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('heading', { name: `#${ticketId} Wifi drops every few minutes` }).waitFor();
    await page.locator('[data-category="technical"]').first().waitFor();
    await shot('detail');
    const agent = await insertUser(stage.product, { role: 'agent', name: 'Agent Smith' });
    expect((await stage.product.api.put(`/tickets/${ticketId}`, { status: 'in_progress' }, { token: agent.token })).status).toBe(200);
    expect(
      (
        await stage.product.api.post(
          `/tickets/${ticketId}/comments`,
          { content: 'Looking into the access point now.' },
          { token: agent.token },
        )
      ).status,
    ).toBe(201);
    await page.locator('[data-status="in_progress"]').waitFor();
    await visible(page, 'Status changed from Open to In Progress');
    await visible(page, 'Assigned to Agent Smith');
    await visible(page, 'Looking into the access point now.');
    // Support files it under another category: the chip and the timeline follow live; the owner cannot change it back.
    expect((await stage.product.api.put(`/tickets/${ticketId}`, { category: 'account' }, { token: agent.token })).status).toBe(200);
    await page.locator('[data-category="account"]').first().waitFor();
    await visible(page, 'Category changed from Technical to Account');
    const ownerToken = await page.evaluate(() => localStorage.getItem('token'));
    const refused = await stage.product.api.put(`/tickets/${ticketId}`, { category: 'technical' }, { token: ownerToken! });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Only support staff can change the category');
    // Support has answered: the owner may still edit, no longer delete.
    await expect.poll(() => page.getByRole('button', { name: 'Delete' }).count()).toBe(0);

    // The owner answers through the form.
    await page.getByLabel('Add a comment').fill('Thanks! It happens mostly in the afternoon.');
    await page.getByRole('button', { name: 'Add Comment' }).click();
    await visible(page, 'Thanks! It happens mostly in the afternoon.');
    await expect.poll(() => page.getByLabel('Add a comment').inputValue()).toBe('');
    await shot('detail-live-and-comments');

    // Edit it and see the change.
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`**/edit-ticket/${ticketId}`);
    await page.getByRole('heading', { name: `Edit Ticket #${ticketId}` }).waitFor();
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Wifi drops every few minutes');
    await shot('edit-form');
    await page.getByLabel('Title').fill('Wifi drops every few minutes on floor 2');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await visible(page, 'Ticket updated successfully!');
    await shot('edit-success');
    await page.waitForURL(`**/ticket/${ticketId}`, { timeout: 5_000 });
    await page.getByRole('heading', { name: `#${ticketId} Wifi drops every few minutes on floor 2` }).waitFor();
    await visible(page, 'Title edited');
    await shot('detail-after-edit');

    // Delete another ticket, after the confirmation.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const other = await createTicket(stage.product.api, token!, {
      title: 'Old monitor request',
      description: 'Please collect the old monitor from desk 14.',
    });
    await page.goto(`/ticket/${other.id}`);
    await page.getByRole('heading', { name: `#${other.id} Old monitor request` }).waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to delete this ticket?').waitFor();
    await shot('delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL('**/dashboard');
    await card.waitFor();
    await expect.poll(() => page.getByTestId('ticket-card').count()).toBe(1);
    expect((await stage.product.api.get(`/tickets/${other.id}`, { token: token! })).status).toBe(404);
    await shot('dashboard-after-delete');

    // The full list keeps its filters in the address.
    await page.goto('/tickets');
    await page.getByRole('link', { name: 'Wifi drops every few minutes on floor 2' }).waitFor();
    await shot('tickets-list');
    await page.getByLabel('Search').fill('printer');
    await page.waitForURL(/search=printer/);
    await visible(page, 'No tickets match your filters');
    await page.reload();
    await visible(page, 'No tickets match your filters');
    await expect.poll(() => page.getByLabel('Search').inputValue()).toBe('printer');
    await shot('tickets-no-match');
    await context.close();
  });

  it('fits the dashboard and a ticket on a phone', { timeout: 90_000 }, async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'create-ticket-phone', { width: 390, height: 844 });
    await logInThroughForm(page, email, STRONG_PASSWORD, /\/dashboard$/);
    await page.getByTestId('ticket-card').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('phone-dashboard');
    await page.getByTestId('ticket-card').first().click();
    await page.getByRole('heading', { name: /Wifi drops every few minutes/ }).waitFor();
    await page.locator('[data-category="account"]').first().waitFor();
    await shot('phone-detail');
    await page.goto('/create-ticket');
    await page.getByRole('heading', { name: 'Create New Ticket' }).waitFor();
    await page.getByRole('textbox', { name: 'Category', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await shot('phone-create');
    await page.goto('/tickets');
    await page.getByTestId('ticket-card').first().waitFor();
    await shot('phone-tickets');
    await context.close();
  });
});
