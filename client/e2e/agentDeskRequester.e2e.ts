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

    await page.goto(`/ticket/${second.id}`);
    const panel = page.getByRole('region', { name: 'Requester' });
    await panel.getByRole('link', { name: new RegExp(`#${first.id} `) }).waitFor();
    expect(await panel.getByRole('link', { name: new RegExp(`#${second.id} `) }).count()).toBe(0);
    await desk.shot('requester-panel');
  });
});
