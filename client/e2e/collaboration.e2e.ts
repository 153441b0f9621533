import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createTicket, insertUser, type Account } from '../../server/test/factories';
import { logInThroughForm, openVisitor, useStage, type Visitor } from './harness';

const CONFLICT = 'This ticket was changed by someone else. Review the latest version and try again.';

/** Live updates only flow once the socket is up; the header shows a badge until then. */
const waitForLive = (page: Page) => page.getByTestId('live-indicator').waitFor({ state: 'detached' });

/** The composer's Reply / Internal note switch (its radio inputs are visually hidden; the labels are what people click). */
const chooseMode = (page: Page, mode: 'Reply' | 'Internal note') =>
  page.getByRole('radiogroup', { name: 'Reply type' }).getByText(mode, { exact: true }).click();

describe('journey: working a ticket together', () => {
  const stage = useStage();

  const signIn = async (journey: string, account: Account, width = 1280): Promise<Visitor> => {
    const visitor = await openVisitor(stage.browser, stage.product.url, journey, { width, height: 860 });
    const home = account.user.role === 'user' ? /\/dashboard$/ : /\/agent-dashboard$/;
    await logInThroughForm(visitor.page, account.user.email, account.password, home);
    return visitor;
  };
  const openTicket = async (visitor: Visitor, id: number) => {
    await visitor.page.goto(`/ticket/${id}`);
    await visitor.page.getByRole('heading', { name: new RegExp(`#${id}`) }).waitFor();
    await waitForLive(visitor.page);
  };

  it('two agents on one ticket see each other and each other typing', async () => {
    const owner = await insertUser(stage.product, { name: 'Olive Owner' });
    const ana = await insertUser(stage.product, { role: 'agent', name: 'Ana Agent' });
    const ben = await insertUser(stage.product, { role: 'agent', name: 'Ben Backup' });
    const ticket = await createTicket(stage.product.api, owner.token, { title: 'Printer prints blank pages' });

    const anaSide = await signIn('collaboration-presence-ana', ana);
    const benSide = await signIn('collaboration-presence-ben', ben, 390);
    await openTicket(anaSide, ticket.id);
    await openTicket(benSide, ticket.id);

    await anaSide.page.getByRole('img', { name: 'Also viewing: Ben Backup' }).waitFor();
    await benSide.page.getByRole('img', { name: 'Also viewing: Ana Agent' }).waitFor();
    await anaSide.shot('sees-ben');

    await benSide.page.getByRole('textbox', { name: 'Reply to the customer' }).pressSequentially('Checking the toner');
    await anaSide.page.getByText('Ben Backup is typing…').waitFor();
    await anaSide.shot('ben-typing');
    await benSide.shot('ben-writes-390');

    // The queue shows who is on each ticket.
    await anaSide.page.goto('/agent-dashboard');
    await anaSide.page.getByTestId(`viewers-${ticket.id}`).waitFor();
    await anaSide.shot('queue-shows-viewer');

    // Ben leaves: he is gone from the queue row.
    await benSide.page.goto('/agent-dashboard');
    await anaSide.page.getByTestId(`viewers-${ticket.id}`).waitFor({ state: 'detached' });
    await anaSide.context.close();
    await benSide.context.close();
  });

  it("an internal note never appears on the owner's open page", async () => {
    const owner = await insertUser(stage.product, { name: 'Olive Owner' });
    const ana = await insertUser(stage.product, { role: 'agent', name: 'Nora Note' });
    const ticket = await createTicket(stage.product.api, owner.token, { title: 'Invoice address is wrong' });

    const ownerSide = await signIn('collaboration-note-owner', owner);
    await openTicket(ownerSide, ticket.id);
    const anaSide = await signIn('collaboration-note-agent', ana);
    await openTicket(anaSide, ticket.id);

    await chooseMode(anaSide.page, 'Internal note');
    await anaSide.page.getByRole('textbox', { name: 'Internal note' }).fill('Secret: customer is on the legacy billing plan');
    await anaSide.page.getByRole('button', { name: 'Add note' }).click();
    await anaSide.page.getByTestId('comment').getByText('Secret: customer is on the legacy billing plan').waitFor();
    await chooseMode(anaSide.page, 'Reply');
    await anaSide.page.getByRole('textbox', { name: 'Reply to the customer' }).fill('We are fixing your invoice address now.');
    await anaSide.page.getByRole('button', { name: 'Send', exact: true }).click();
    await anaSide.page.getByTestId('comment').getByText('We are fixing your invoice address now.').waitFor();
    await anaSide.shot('note-tinted-for-staff');

    // The reply, sent after the note, reaches the owner live: the note would have come first.
    await ownerSide.page.getByText('We are fixing your invoice address now.').waitFor();
    expect(await ownerSide.page.getByText('legacy billing plan').count()).toBe(0);
    expect(await ownerSide.page.getByText('Internal note').count()).toBe(0);
    await expect.poll(() => ownerSide.page.getByRole('heading', { name: /^Comments/ }).innerText()).toBe('Comments (1)');
    await ownerSide.shot('owner-sees-reply-only');
    // Nor after a reload.
    await ownerSide.page.reload();
    await ownerSide.page.getByText('We are fixing your invoice address now.').waitFor();
    expect(await ownerSide.page.getByText('legacy billing plan').count()).toBe(0);
    await ownerSide.context.close();
    await anaSide.context.close();
  });

  it("a mention lights the other agent's bell live", async () => {
    const owner = await insertUser(stage.product, { name: 'Olive Owner' });
    const ana = await insertUser(stage.product, { role: 'agent', name: 'Ana Agent' });
    const ben = await insertUser(stage.product, { role: 'agent', name: 'Bea Mention' });
    const ticket = await createTicket(stage.product.api, owner.token, { title: 'Laptop fan is very loud' });

    const benSide = await signIn('collaboration-mention-ben', ben);
    await waitForLive(benSide.page);
    await benSide.page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();

    const anaSide = await signIn('collaboration-mention-ana', ana);
    await openTicket(anaSide, ticket.id);
    await chooseMode(anaSide.page, 'Internal note');
    const box = anaSide.page.getByRole('textbox', { name: 'Internal note' });
    await box.pressSequentially('Can you take this, @Bea');
    await anaSide.page.getByRole('option', { name: 'Bea Mention' }).waitFor();
    await anaSide.shot('mention-autocomplete');
    await box.press('Enter');
    expect(await box.inputValue()).toBe('Can you take this, @Bea Mention ');
    await anaSide.page.getByRole('button', { name: 'Add note' }).click();
    await anaSide.page.getByTestId('comment').getByText('Can you take this, @Bea Mention').waitFor();

    await benSide.page.getByRole('button', { name: 'Notifications, 1 unread' }).waitFor();
    await benSide.shot('bell-lit');
    await benSide.page.getByRole('button', { name: 'Notifications, 1 unread' }).click();
    await benSide.page.getByText(`Ana Agent mentioned you on #${ticket.id}`).waitFor();
    await benSide.shot('bell-panel');
    await benSide.page.getByText(`Ana Agent mentioned you on #${ticket.id}`).click();
    await benSide.page.waitForURL(new RegExp(`/ticket/${ticket.id}$`));
    await benSide.page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    await anaSide.context.close();
    await benSide.context.close();
  });

  it('two agents edit the same ticket: the second gets the conflict screen, then re-applies', async () => {
    const owner = await insertUser(stage.product, { name: 'Olive Owner' });
    const ana = await insertUser(stage.product, { role: 'agent', name: 'Ana Agent' });
    const ben = await insertUser(stage.product, { role: 'agent', name: 'Ben Backup' });
    const ticket = await createTicket(stage.product.api, owner.token, { title: 'Mailbox is full' });

    const anaSide = await signIn('collaboration-conflict-ana', ana);
    const benSide = await signIn('collaboration-conflict-ben', ben);
    for (const side of [anaSide, benSide]) {
      await side.page.goto(`/agent/ticket/${ticket.id}/update`);
      await side.page.getByRole('button', { name: 'Update Ticket' }).waitFor();
    }

    await anaSide.page.getByRole('textbox', { name: 'Resolution Notes' }).fill('Archived old mail; 40% free now.');
    await anaSide.page.getByRole('button', { name: 'Update Ticket' }).click();
    await anaSide.page.getByText('Ticket updated successfully!').waitFor();

    await benSide.page.getByRole('textbox', { name: 'Resolution Notes' }).fill('Raised the quota to 50 GB.');
    await benSide.page.getByRole('button', { name: 'Update Ticket' }).click();
    const conflict = benSide.page.getByTestId('conflict');
    await conflict.waitFor();
    expect(await conflict.innerText()).toContain(CONFLICT);
    expect(await conflict.innerText()).toContain('Archived old mail; 40% free now.');
    expect(await conflict.innerText()).toContain('Raised the quota to 50 GB.');
    await benSide.shot('conflict-screen');

    await benSide.page.getByRole('button', { name: 'Re-apply my changes' }).click();
    await benSide.page.getByText('Ticket updated successfully!').waitFor();
    await benSide.shot('reapplied');
    const saved = await stage.product.api.get(`/tickets/${ticket.id}`, { token: ben.token });
    expect(saved.body.ticket.resolutionNotes).toBe('Raised the quota to 50 GB.');
    expect(saved.body.ticket.history.filter((h: { type: string }) => h.type === 'resolution')).toHaveLength(2);
    await anaSide.context.close();
    await benSide.context.close();
  });
});
