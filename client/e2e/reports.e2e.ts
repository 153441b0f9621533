import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTicket, insertUser } from '../../server/test/factories';
import { logInThroughForm, openVisitor, TEST_ADMIN, useStage } from './harness';

const CSV_HEADER =
  'id,title,status,priority,category,requester,assignee,createdAt,firstResponseAt,resolvedAt,firstResponseSeconds,resolutionSeconds,slaMet,csatRating,csatComment';

/** A figure card's value as the page shows it. */
const figure = (page: Page, key: string) => page.getByTestId(`figure-${key}`).getByTestId('figure-value').textContent();

/** The page open, live, with its first figures read. */
async function reportsReady(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
  await page.getByTestId('live-indicator').waitFor({ state: 'detached' });
  await page.getByTestId('figure-created').getByTestId('figure-value').waitFor();
  await page.waitForLoadState('networkidle');
}

describe('journey: reports (docs/product.md#reports)', () => {
  const stage = useStage();

  it('an agent sees the figures of tickets made through the API, and a resolution elsewhere moves them without a reload', async () => {
    const { product, browser } = stage;
    const agent = await insertUser(product, { role: 'agent', name: 'Agent Reese' });
    const customer = await insertUser(product, { name: 'Customer Carla' });
    const make = (title: string, priority: string, category: string) =>
      createTicket(product.api, customer.token, { title, description: `${title}: details for support.`, priority, category });
    const printer = await make('Printer jams on floor 2', 'high', 'technical');
    const invoice = await make('Invoice shows the wrong VAT', 'urgent', 'billing');
    const email = await make('Cannot change my email address', 'low', 'account');
    // An answer from support: the first response the figures time.
    expect(
      (await product.api.post(`/tickets/${printer.id}/comments`, { content: 'Looking into it now.' }, { token: agent.token })).status,
    ).toBe(201);

    const visitor = await openVisitor(browser, product.url, 'reports-agent');
    const { page } = visitor;
    await logInThroughForm(page, agent.user.email, agent.password, /\/agent-dashboard/);
    await page.getByRole('link', { name: 'Reports' }).first().click();
    await page.waitForURL(/\/reports$/);
    await reportsReady(page);
    expect(await page.title()).toBe('Reports · HelpDesk System');
    await expect.poll(() => figure(page, 'created')).toBe('3');
    expect(await figure(page, 'resolved')).toBe('0');
    expect(await figure(page, 'backlog')).toBe('3');
    expect(await figure(page, 'first-response')).toBe('< 1 m');
    // The charts have their headings, and the figures as a table behind a disclosure.
    const byPriority = page.getByRole('region', { name: 'By priority' });
    await byPriority.getByText('Show the figures as a table').click();
    const urgent = byPriority.getByRole('row', { name: /Urgent/ });
    expect(await urgent.getByRole('cell').first().textContent()).toBe('1');
    await visitor.shot('agent-desktop');

    // Someone else resolves the printer ticket, then changes two more: the figures follow without a
    // reload, and the burst of events costs one read of each report (the page's 10-second throttle).
    await page.evaluate(() => Object.assign(window, { stillThisPage: true }));
    let summaryReads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/reports/summary') summaryReads += 1;
    });
    const put = (id: number, body: object) => product.api.put(`/tickets/${id}`, body, { token: agent.token });
    expect((await put(printer.id, { status: 'resolved', resolutionNotes: 'Cleared the jam.' })).status).toBe(200);
    expect((await put(invoice.id, { status: 'in_progress' })).status).toBe(200);
    expect((await put(email.id, { priority: 'medium' })).status).toBe(200);
    await expect.poll(() => figure(page, 'resolved'), { timeout: 30_000, interval: 500 }).toBe('1');
    expect(await figure(page, 'backlog')).toBe('2');
    await page.waitForTimeout(2_000);
    expect(summaryReads).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);

    // Filters live in the address: a priority narrows every figure and survives a reload.
    await page.getByRole('textbox', { name: 'Priority' }).click();
    await page.getByRole('option', { name: 'Urgent' }).click();
    await page.waitForURL(/priority=urgent/);
    await expect.poll(() => figure(page, 'created')).toBe('1');
    await page.reload();
    await reportsReady(page);
    expect(await page.getByRole('textbox', { name: 'Priority' }).inputValue()).toBe('Urgent');
    expect(await figure(page, 'created')).toBe('1');

    // A range the server refuses is said, with the server's words, before anything is asked.
    await page.goto('/reports?from=2026-01-01&to=2026-06-30&interval=day');
    await page.getByText('Use a weekly or monthly interval for ranges over 92 days').waitFor();
    await visitor.checkAccessibility('reports with a refused range');
    expect(await page.getByRole('button', { name: 'Download CSV' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Agents' }).count()).toBe(0);

    // A phone: the page fits its width (the tables scroll inside their boxes), and passes axe.
    const phone = await openVisitor(browser, product.url, 'reports-phone', { width: 390, height: 844 });
    await logInThroughForm(phone.page, agent.user.email, agent.password, /\/agent-dashboard/);
    await phone.page.goto('/reports');
    await reportsReady(phone.page);
    await phone.page.getByRole('region', { name: 'By category' }).getByText('Show the figures as a table').click();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Scrolled sideways, a row keeps its name: the first column stays where it was.
    const categories = phone.page.getByRole('group', { name: 'By category, table' });
    const rowName = categories.getByRole('rowheader').first();
    const before = await rowName.boundingBox();
    const scrolled = await categories.evaluate((box) => {
      box.scrollLeft = box.scrollWidth;
      return box.scrollLeft;
    });
    expect(scrolled).toBeGreaterThan(0);
    expect((await rowName.boundingBox())?.x).toBe(before?.x);
    await phone.shot('agent-phone');
    await phone.context.close();
    await visitor.context.close();
  }, 150_000);

  it('a user cannot reach the page, nor see its link', async () => {
    const { product, browser } = stage;
    const user = await insertUser(product, { name: 'Plain Paula' });
    const visitor = await openVisitor(browser, product.url, 'reports-user');
    await logInThroughForm(visitor.page, user.user.email, user.password, /\/dashboard/);
    expect(await visitor.page.getByRole('link', { name: 'Reports' }).count()).toBe(0);
    await visitor.page.goto('/reports');
    await visitor.page.waitForURL(/\/dashboard$/);
    expect((await product.api.get('/reports/summary', { token: user.token })).status).toBe(403);
    await visitor.context.close();
  });

  it('an admin sees the agents table and downloads the tickets as CSV', async () => {
    const { product, browser } = stage;
    const visitor = await openVisitor(browser, product.url, 'reports-admin', { width: 1280, height: 900 });
    const { page } = visitor;
    await logInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard/);
    await page.goto('/reports');
    await reportsReady(page);
    const agents = page.getByRole('region', { name: 'Agents' });
    await agents.getByRole('table', { name: 'Agents' }).waitFor();
    await visitor.shot('admin-desktop');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv.startsWith(`\uFEFF${CSV_HEADER}\r\n`) || csv.startsWith(`\uFEFF${CSV_HEADER}\n`)).toBe(true);
    expect(csv).toContain('Printer jams on floor 2');

    const phone = await openVisitor(browser, product.url, 'reports-admin-phone', { width: 390, height: 844 });
    await logInThroughForm(phone.page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard/);
    await phone.page.goto('/reports');
    await reportsReady(phone.page);
    await phone.page.getByRole('table', { name: 'Agents' }).waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.shot('admin-phone');
    await phone.context.close();
    await visitor.context.close();
  }, 120_000);
});
