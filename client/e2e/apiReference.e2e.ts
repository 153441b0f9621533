import { describe, expect, it } from 'vitest';
import { openVisitor, useStage } from './harness';

describe('journey: the interactive API reference', () => {
  const stage = useStage();

  it('a developer reads the reference at /api/docs, served from here under its own CSP', async () => {
    const { page, shot } = await openVisitor(stage.browser, stage.product.url, 'api-reference');
    const blocked: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') blocked.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(stage.product.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });

    await page.goto('/api/docs');
    await page.getByRole('heading', { name: /HelpDesk System API/ }).waitFor();
    // Operations by group, each with its access and token scope.
    await page.getByRole('heading', { name: 'Tickets' }).first().waitFor();
    const list = page.locator('#operations-Tickets-getTickets');
    await list.getByRole('button', { name: /GET \/tickets A page of tickets/ }).click();
    await list.getByText('API token scope: tickets:read').waitFor();
    await list.getByText('assignee', { exact: true }).waitFor();
    await shot('reference');

    // The answers' shapes, every level open.
    const ticket = page.locator('section.models article[data-json-schema-level="0"]', {
      has: page.locator('.json-schema-2020-12__title', { hasText: /^Ticket$/ }),
    });
    await ticket.getByRole('button', { name: 'Expand all' }).click();
    await ticket.getByText('assignedAgent').first().waitFor();
    await shot('reference-schema', { screen: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await shot('reference-phone');

    expect(blocked).toEqual([]);
    expect(elsewhere).toEqual([]);
  });
});
