import { describe, expect, it } from 'vitest';
import { createTicket, insertUser } from '../../server/test/factories';
import { logInThroughForm, openVisitor, useStage } from './harness';

/**
 * Needs the server side of the agent desk (`GET /api/users/:id/tickets`, the search syntax read by
 * `search=`): docs/decisions.md#ticket-page-panels.
 */
describe('journey: finding a customer (docs/product.md#agent-dashboard)', () => {
  const stage = useStage();

  it('finds a customer’s tickets with requester:<email> and lists their other tickets beside a ticket', async () => {
    const { product, browser } = stage;
    const rita = await insertUser(product, { name: 'Rita Requester' });
    const other = await insertUser(product, { name: 'Otto Other' });
    const agent = await insertUser(product, { role: 'agent', name: 'Agent Smith' });
    const first = await createTicket(product.api, rita.token, { title: 'Password reset mail never arrives' });
    const second = await createTicket(product.api, rita.token, { title: 'Laptop fan is very loud' });
    const foreign = await createTicket(product.api, other.token, { title: 'Printer is on fire' });

    const desk = await openVisitor(browser, product.url, 'desk-requester', { width: 1440, height: 900 });
    const page = desk.page;
    await logInThroughForm(page, agent.user.email, agent.password, /\/agent-dashboard/);
    await page.locator(`tr[data-ticket-id="${foreign.id}"]`).waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill(`requester:${rita.user.email}`);
    await page.getByRole('list', { name: 'Search terms' }).getByText(`Requester: ${rita.user.email}`).waitFor();
    await page.locator(`tr[data-ticket-id="${foreign.id}"]`).waitFor({ state: 'detached' });
    const ids = await page
      .locator('tbody tr[data-ticket-id]')
      .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-ticket-id'))));
    expect(ids.sort()).toEqual([first.id, second.id].sort());
    await desk.shot('requester-search');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.locator(`tr[data-ticket-id="${foreign.id}"]`).waitFor();

    // The same customer typed as free words: their email finds their tickets too.
    await page.getByRole('textbox', { name: 'Search' }).fill(rita.user.email);
    await page.getByRole('list', { name: 'Search terms' }).getByText(`Text: ${rita.user.email}`).waitFor();
    await expect
      .poll(() =>
        page.locator('tbody tr[data-ticket-id]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-ticket-id'))).sort()),
      )
      .toEqual([first.id, second.id].sort());

    await page.goto(`/ticket/${second.id}`);
    const panel = page.getByRole('region', { name: 'Requester' });
    await panel.getByRole('link', { name: new RegExp(`#${first.id} `) }).waitFor();
    expect(await panel.getByRole('link', { name: new RegExp(`#${second.id} `) }).count()).toBe(0);
    // Who they are: name, email and how long they have been a customer.
    expect(await panel.getByTestId('requester-name').innerText()).toBe('Rita Requester');
    expect(await panel.getByTestId('requester-email').innerText()).toBe(rita.user.email);
    await panel.getByText(/^Customer for /).waitFor();
    await desk.shot('requester-panel');

    // Merge the second into the first: the first opens, the second is closed with a link to it.
    const details = page.getByRole('region', { name: 'Ticket details' });
    await details.getByRole('textbox', { name: 'Merge into ticket #' }).fill(String(first.id));
    await desk.shot('merge-ready');
    await details.getByRole('button', { name: 'Merge' }).click();
    await page.waitForURL(new RegExp(`/ticket/${first.id}$`));
    await page.getByText(`Ticket #${second.id} merged into #${first.id}`).first().waitFor();
    await page.getByText(second.title).first().waitFor();
    await desk.shot('merge-target');
    await page.goto(`/ticket/${second.id}`);
    await page.getByText(`Merged into #${first.id}`).first().waitFor();
    expect(await page.locator('[data-status]').first().getAttribute('data-status')).toBe('closed');
    await desk.shot('merge-source');
    // The reply's ticket number is a link to where the conversation went on.
    await page
      .getByRole('link', { name: `#${first.id}` })
      .first()
      .click();
    await page.waitForURL(new RegExp(`/ticket/${first.id}$`));
    // The requester panel now lists the merged ticket as closed.
    await page
      .getByRole('region', { name: 'Requester' })
      .locator('li', { hasText: `#${second.id} ` })
      .getByText('Closed')
      .waitFor();
  });

  it('tags tickets in bulk from the queue and filters by the tag, from the box and from the Tag filter', async () => {
    const { product, browser } = stage;
    const owner = await insertUser(product, { name: 'Tara Tagged' });
    const agent = await insertUser(product, { role: 'agent', name: 'Agent Smith' });
    const a = await createTicket(product.api, owner.token, { title: 'VPN drops every hour' });
    const b = await createTicket(product.api, owner.token, { title: 'VPN client will not install' });
    const c = await createTicket(product.api, owner.token, { title: 'Monitor flickers' });

    const desk = await openVisitor(browser, product.url, 'desk-tags', { width: 1440, height: 900 });
    const page = desk.page;
    await logInThroughForm(page, agent.user.email, agent.password, /\/agent-dashboard/);
    await page.locator(`tr[data-ticket-id="${c.id}"]`).waitFor();
    for (const id of [a.id, b.id]) await page.locator(`tr[data-ticket-id="${id}"]`).getByRole('checkbox').check();
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await bar.getByRole('textbox', { name: 'Add tags' }).fill('VPN');
    await bar.getByRole('textbox', { name: 'Add tags' }).press('Enter');
    await desk.shot('bulk-tags');
    await bar.getByRole('button', { name: 'Apply to 2' }).click();
    await page.getByText('2 tickets updated').waitFor();

    // The Tag filter lists the tagged ones; the address keeps it.
    await page.getByRole('textbox', { name: 'Tag' }).click();
    await page.getByRole('option', { name: 'vpn' }).click();
    await page.locator(`tr[data-ticket-id="${c.id}"]`).waitFor({ state: 'detached' });
    expect(new URL(page.url()).searchParams.get('tag')).toBe('vpn');
    const listed = () =>
      page.locator('tbody tr[data-ticket-id]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-ticket-id'))).sort());
    expect(await listed()).toEqual([a.id, b.id].sort());
    await desk.shot('tag-filter');

    // tag: in the box is a chip and the same filter.
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.locator(`tr[data-ticket-id="${c.id}"]`).waitFor();
    await page.getByRole('textbox', { name: 'Search' }).fill('tag:vpn');
    await page.getByRole('list', { name: 'Search terms' }).getByText('Tag: vpn').waitFor();
    await page.locator(`tr[data-ticket-id="${c.id}"]`).waitFor({ state: 'detached' });
    expect(await listed()).toEqual([a.id, b.id].sort());
    await desk.shot('tag-chip');
  });
});
