import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, createTicket, insertUser, uniqueEmail } from '../../server/test/factories';
import { openVisitor, useStage } from './harness';

const PHONE = { width: 390, height: 844 };

/** Live updates only flow once the socket is up; the header shows a badge until then. */
const waitForLive = (page: Page) => page.getByTestId('live-indicator').waitFor({ state: 'detached' });

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Headless tabs are always visible; this makes the page believe it went to the background (or back). */
const setTabHidden = (page: Page, hidden: boolean) =>
  page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);

describe('journey: never lost, never silent', () => {
  const stage = useStage();

  it('keeps a deep link through sign-in, and refuses to send anyone off the site', async () => {
    const owner = await insertUser(stage.product, { name: 'Deep Link Dora' });
    const ticket = await createTicket(stage.product.api, owner.token, { title: 'Printer offline on floor 2' });
    for (const viewport of [undefined, PHONE]) {
      const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, `deep-link-${viewport ? 390 : 1280}`, viewport);
      await page.goto(`/ticket/${ticket.id}`);
      await page.waitForURL(`**/login?next=%2Fticket%2F${ticket.id}`);
      expect(await page.title()).toBe('Login · HelpDesk System');
      await shot('login-remembers-target');
      await signIn(page, owner.user.email, STRONG_PASSWORD);
      await page.waitForURL(new RegExp(`/ticket/${ticket.id}$`));
      await page.getByRole('heading', { level: 1, name: 'Printer offline on floor 2' }).waitFor();
      expect(await page.title()).toBe(`Ticket #${ticket.id} · HelpDesk System`);
      await shot('ticket-after-sign-in');
      await context.close();
    }

    // Through sign-up too: the login page hands the target on to the sign-up form.
    const { page, context } = await openVisitor(stage.browser, stage.product.url, 'deep-link-signup');
    await page.goto('/create-ticket');
    await page.waitForURL('**/login?next=%2Fcreate-ticket');
    await page.getByRole('link', { name: 'Sign up here' }).click();
    await page.waitForURL('**/signup?next=%2Fcreate-ticket');
    await page.getByLabel('Full Name').fill('New Nadia');
    await page.getByLabel('Email').fill(uniqueEmail('nadia'));
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel('Confirm Password').fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: /create account/i }).click();
    await page.waitForURL(/\/create-ticket$/);

    // Another origin in ?next= is ignored: the sign-in lands on the home page.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login?next=%2F%2Fevil.test%2Fphish');
    await signIn(page, owner.user.email, STRONG_PASSWORD);
    await page.waitForURL(/\/dashboard$/);
    expect(new URL(page.url()).host).toBe(new URL(stage.product.url).host);
    await context.close();
  });

  it('names every tab, moves focus to the new page, and counts, announces and toasts changes made elsewhere', async () => {
    const owner = await insertUser(stage.product, { name: 'Toast Tom' });
    const agent = await insertUser(stage.product, { role: 'agent', name: 'Agent Ada' });
    const watched = await createTicket(stage.product.api, owner.token, { title: 'Laptop will not boot' });
    const elsewhere = await createTicket(stage.product.api, owner.token, { title: 'Mailbox is full again' });

    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'live-attention');
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Login' }).waitFor();
    // The first Tab stop is the skip link, which leads to the page's content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await signIn(page, agent.user.email, STRONG_PASSWORD);
    await page.waitForURL(/\/agent-dashboard$/);
    await page.getByRole('heading', { level: 1, name: 'Agent Dashboard' }).waitFor();
    expect(await page.title()).toBe('Agent Dashboard · HelpDesk System');
    await waitForLive(page);

    // After an in-app navigation, focus is on the new page's heading.
    await page.getByRole('link', { name: 'Knowledge Base' }).first().click();
    await page.waitForURL(/\/knowledge$/);
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Knowledge Base');
    expect(await page.title()).toBe('Knowledge Base · HelpDesk System');

    // On one ticket's page, a change to another ticket arrives as a toast with a link, and is announced.
    await page.goto(`/ticket/${watched.id}`);
    await page.getByRole('heading', { level: 1, name: 'Laptop will not boot' }).waitFor();
    await waitForLive(page);
    await stage.product.api.put(`/tickets/${elsewhere.id}`, { priority: 'urgent' }, { token: owner.token });
    const toast = page.getByRole('alert').filter({ hasText: `Ticket #${elsewhere.id} updated` });
    await toast.waitFor();
    expect(await toast.innerText()).toContain('Toast Tom: priority Medium → Urgent');
    expect(await page.getByTestId('live-announcer').innerText()).toContain(`Ticket #${elsewhere.id} updated`);
    await shot('toast-for-another-ticket');

    // A change to the ticket on screen shows on the page itself (its badge is ringed), with no toast.
    await stage.product.api.put(`/tickets/${watched.id}`, { status: 'resolved' }, { token: owner.token });
    const chip = page.locator('[data-status="resolved"][data-changed]').first();
    await chip.waitFor();
    expect(
      await page
        .getByRole('alert')
        .filter({ hasText: `Ticket #${watched.id} updated` })
        .count(),
    ).toBe(0);
    await shot('badge-highlighted');

    // In a background tab, changes are counted in the title until the tab is looked at again.
    await setTabHidden(page, true);
    await stage.product.api.post(`/tickets/${elsewhere.id}/comments`, { content: 'Any news on this?' }, { token: owner.token });
    await page.waitForFunction((id) => document.title === `(1) Ticket #${id} · HelpDesk System`, watched.id);
    await setTabHidden(page, false);
    await page.waitForFunction((id) => document.title === `Ticket #${id} · HelpDesk System`, watched.id);
    await context.close();
  });

  it('says plainly when live updates cannot connect, and reconnects on Retry', async () => {
    const user = await insertUser(stage.product, { name: 'Offline Otto' });
    for (const viewport of [undefined, PHONE]) {
      const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, `offline-${viewport ? 390 : 1280}`, viewport);
      // The network to the live connection is cut until `blocked` is lifted.
      let blocked = true;
      await Promise.all([
        context.route('**/socket.io/**', (route) => (blocked ? route.abort() : route.continue())),
        context.routeWebSocket(/\/socket\.io\//, (ws) => (blocked ? ws.close() : ws.connectToServer())),
      ]);
      await page.goto('/login');
      await signIn(page, user.user.email, STRONG_PASSWORD);
      await page.waitForURL(/\/dashboard$/);
      const banner = page.getByTestId('offline-banner');
      await banner.waitFor();
      expect(await banner.innerText()).toContain('Live updates are offline');
      await shot('offline-banner');

      blocked = false;
      await page.getByRole('button', { name: 'Retry now' }).click();
      await banner.waitFor({ state: 'detached' });
      await waitForLive(page);
      await context.close();
    }
  });

  it('lets a signed-in user change the password: this window stays in, every other session ends', async () => {
    const user = await insertUser(stage.product, { name: 'Changing Chris' });
    const other = await openVisitor(stage.browser, stage.product.url, 'change-password-other-window');
    await other.page.goto('/login');
    await signIn(other.page, user.user.email, STRONG_PASSWORD);
    await other.page.waitForURL(/\/dashboard$/);
    await waitForLive(other.page);

    for (const viewport of [PHONE, undefined]) {
      const { page, shot, context } = await openVisitor(
        stage.browser,
        stage.product.url,
        `change-password-${viewport ? 390 : 1280}`,
        viewport,
      );
      await page.goto('/settings');
      await signIn(page, user.user.email, viewport ? STRONG_PASSWORD : 'Changed9&Pass');
      await page.waitForURL(/\/settings$/);
      await page.getByRole('heading', { level: 2, name: 'Password' }).waitFor();
      if (!viewport) {
        await context.close();
        break;
      }
      await page.getByLabel('Current password').fill('Wrong123!');
      await page.getByLabel('New password', { exact: true }).fill('Changed9&Pass');
      await page.getByLabel('Confirm new password').fill('Changed9&Pass');
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByText('Current password is incorrect').waitFor();
      await shot('wrong-current-password');

      await page.getByLabel('Current password').fill(STRONG_PASSWORD);
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByText('Password changed successfully. Your other sessions have been signed out.').waitFor();
      await shot('password-changed');

      // The other window is signed out at once (its socket is dropped); this one stays, even after a reload.
      await other.page.waitForURL('**/login?session_expired=true');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      await waitForLive(page);
      expect(page.url()).toMatch(/\/settings$/);
      await context.close();
    }
    await other.context.close();
  });
});
