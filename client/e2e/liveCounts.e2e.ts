import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTicket, insertUser, sessionOf, type Account } from '../../server/test/factories';
import { logInThroughForm, openVisitor, TEST_ADMIN, useStage, type Visitor } from './harness';

/** What an agent dashboard shows that changes live: view counts, count cards, the table's rows and the bell. */
const readout = (page: Page) =>
  page.evaluate(() => {
    const text = (element: Element | null | undefined) => element?.textContent.trim() ?? null;
    const byTestId = (prefix: string) =>
      [...document.querySelectorAll<HTMLElement>(`[data-testid^="${prefix}"]`)].map((e) => `${e.dataset.testid}=${text(e)}`).sort();
    return {
      views: byTestId('view-count-'),
      cards: byTestId('count-'),
      rows: [...document.querySelectorAll<HTMLElement>('tr[data-ticket-id]')].map((row) =>
        [
          row.dataset.ticketId,
          row.querySelector('[data-status]')?.getAttribute('data-status'),
          row.querySelector('[data-priority]')?.getAttribute('data-priority'),
          text(row.querySelector('[data-testid="ticket-assignee"]')),
        ].join(' '),
      ),
      bell: document.querySelector('[aria-label^="Notifications"]')?.getAttribute('aria-label') ?? null,
    };
  });
type Readout = Awaited<ReturnType<typeof readout>>;

/** Signed in, on the dashboard, live, with every count on screen. */
async function openDashboard(visitor: Visitor, account: Account): Promise<void> {
  await logInThroughForm(visitor.page, account.user.email, account.password, /\/agent-dashboard/);
  await dashboardReady(visitor);
}

async function dashboardReady(visitor: Visitor): Promise<void> {
  await visitor.page.getByTestId('live-indicator').waitFor({ state: 'detached' });
  await expect.poll(async () => (await readout(visitor.page)).views.some((v) => v.endsWith('=…'))).toBe(false);
  await expect.poll(async () => (await readout(visitor.page)).rows.length).toBeGreaterThan(0);
  await visitor.page.waitForLoadState('networkidle');
}

describe('journey: an open agent dashboard follows everyone’s changes without asking', () => {
  const stage = useStage();

  it('costs no request for others’ changes, view counts included, and at most one read for its own', async () => {
    const { product, browser } = stage;
    const admin = await sessionOf(product, TEST_ADMIN.email, TEST_ADMIN.password);
    const agent = await insertUser(product, { role: 'agent', name: 'Agent Live' });
    const colleague = await insertUser(product, { role: 'agent', name: 'Colleague Cole' });
    const customer = await insertUser(product, { name: 'Customer Cora' });
    const make = (title: string, priority = 'medium') =>
      createTicket(product.api, customer.token, { title, description: `${title}: more details for support.`, priority });
    const printer = await make('Printer jams on floor 2');
    const laptop = await make('Laptop will not boot', 'high');
    const mailbox = await make('Mailbox full');
    const vpn = await make('VPN drops hourly', 'low');
    const asAgent = { token: agent.token };

    const view = async (owner: Account, name: string, filters: object, shared = false) => {
      const res = await product.api.post('/views', { name, filters, shared }, { token: owner.token });
      expect(res.status).toBe(201);
      return res.body.view.id as number;
    };
    const teamPrinters = await view(admin, 'Team: printers', { search: 'printer' }, true);
    await view(admin, 'Team: open urgent', { status: 'open', priority: 'urgent' }, true);
    await view(agent, 'Mine: printers', { search: 'printer', assignee: 'me' });
    await view(agent, 'Mine: in progress', { status: 'in_progress', assignee: 'me' });
    const colleaguesOwn = await view(colleague, 'Cole: printers', { search: 'printer' });

    // The agent's dashboard, with every request it sends and every view count it is pushed recorded.
    const live = await openVisitor(browser, product.url, 'live-counts');
    const pushedViewIds = new Set<number>();
    live.page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        const frame = String(payload);
        if (!frame.startsWith('42["view-counts"')) return;
        const [, event] = JSON.parse(frame.slice(2)) as [string, { counts: Record<string, number> }];
        Object.keys(event.counts).forEach((id) => pushedViewIds.add(Number(id)));
      }),
    );
    await openDashboard(live, agent);
    const requests: string[] = [];
    live.page.on('request', (request) => requests.push(`${request.method()} ${request.url()}`));
    const fresh = await openVisitor(browser, product.url, 'live-counts-fresh');
    await openDashboard(fresh, agent);
    expect((await readout(live.page)).views).not.toContain(`view-count-${colleaguesOwn}=0`);

    /** The live page ends up showing what a fresh load of the same dashboard shows. */
    const matchesFreshLoad = async () => {
      await fresh.page.reload();
      await dashboardReady(fresh);
      const expected: Readout = await readout(fresh.page);
      await expect.poll(() => readout(live.page), { timeout: 10_000 }).toEqual(expected);
      return expected;
    };

    // Others change tickets through the API: a customer creates, comments and deletes; a colleague
    // starts, assigns and reprioritises.
    const put = (id: number, body: object) => product.api.put(`/tickets/${id}`, body, { token: colleague.token });
    const created = await make('Printer out of toner', 'urgent');
    expect((await put(printer.id, { status: 'in_progress', assignedAgentId: agent.user.id })).status).toBe(200);
    expect((await put(laptop.id, { assignedAgentId: colleague.user.id })).status).toBe(200);
    const comment = await product.api.post(
      `/tickets/${printer.id}/comments`,
      { content: 'Still jamming today.' },
      { token: customer.token },
    );
    expect(comment.status).toBe(201);
    expect((await product.api.delete(`/tickets/${mailbox.id}`, { token: customer.token })).status).toBe(200);
    expect((await put(vpn.id, { priority: 'urgent' })).status).toBe(200);

    const afterOthers = await matchesFreshLoad();
    expect(afterOthers.views).toContain(`view-count-${teamPrinters}=2`);
    expect(afterOthers.rows.map((row) => Number(row.split(' ')[0]))).not.toContain(mailbox.id);
    expect(requests).toEqual([]);
    // The searched views were pushed; the colleague's private one never reached this page.
    expect(pushedViewIds.has(teamPrinters)).toBe(true);
    expect(pushedViewIds.has(colleaguesOwn)).toBe(false);
    await live.shot('followed-others');

    // The agent's own change: its call, and at most one read.
    await live.page.getByRole('button', { name: `Start ticket #${created.id}` }).click();
    await expect
      .poll(() => live.page.locator(`tr[data-ticket-id="${created.id}"] [data-status]`).getAttribute('data-status'))
      .toBe('in_progress');
    await matchesFreshLoad();
    const own = requests.filter((r) => r.includes('/api/'));
    expect(own[0]).toBe(`PUT ${product.url}/api/tickets/${created.id}`);
    expect(requests.length, requests.join('\n')).toBeLessThanOrEqual(2);
    expect((await product.api.get(`/tickets/${created.id}`, asAgent)).body.ticket.status).toBe('in_progress');
  });
});
