import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../server/test/factories';
import { logInThroughForm, openVisitor, useStage } from './harness';
import { resetLinkFor } from './outbox';

const storedSession = (page: Page) => page.evaluate(() => ({ token: localStorage.getItem('token'), user: localStorage.getItem('user') }));

describe('journey: a session that ends', () => {
  const stage = useStage();

  /** A password reset elsewhere revokes every token issued before it (docs/api.md#authentication). */
  async function revokeByPasswordReset(email: string, newPassword: string) {
    await stage.product.api.post('/auth/request-password-reset', { email });
    const link = await resetLinkFor(stage.product, email);
    const token = new URL(link, stage.product.url).searchParams.get('token');
    expect((await stage.product.api.post('/auth/reset-password', { token, newPassword })).status).toBe(200);
  }

  async function expectExpiredNotice(page: Page) {
    await page.waitForURL('**/login?session_expired=true');
    await page.getByText('Your session has expired. Please log in again.').waitFor();
    expect(await page.getByText('You have been logged out.').count()).toBe(0);
    expect(await storedSession(page)).toEqual({ token: null, user: null });
  }

  it('ends a revoked session at the next API call, with the expiry notice', async () => {
    const account = await insertUser(stage.product, { name: 'Expiring Eve' });
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'session-expiry');
    // No live connection here, so it is the refused API call, not the socket, that ends the session.
    await Promise.all([
      context.route('**/socket.io/**', (route) => route.abort()),
      context.routeWebSocket(/\/socket\.io\//, (ws) => ws.close()),
    ]);
    await logInThroughForm(page, account.user.email, account.password, /\/dashboard$/);
    expect((await storedSession(page)).token).toBeTruthy();
    await shot('signed-in');

    await revokeByPasswordReset(account.user.email, 'Changed7&Pass');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expectExpiredNotice(page);
    await shot('session-expired');

    // Signing in again with the new password works from there.
    await page.getByLabel('Email').fill(account.user.email);
    await page.getByLabel('Password', { exact: true }).fill('Changed7&Pass');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/dashboard$/);
    await context.close();
  });

  it('ends a revoked session at once when the server drops its live connection', async () => {
    const account = await insertUser(stage.product, { name: 'Live Lena' });
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'session-expiry-live');
    await logInThroughForm(page, account.user.email, account.password, /\/dashboard$/);
    await revokeByPasswordReset(account.user.email, 'Changed8&Pass');
    await expectExpiredNotice(page);
    await shot('session-expired');
    await context.close();
  });

  it('ends a stored token the server refuses when the app loads', async () => {
    const account = await insertUser(stage.product, { name: 'Stale Stan' });
    const { page, context } = await openVisitor(stage.browser, stage.product.url, 'session-expiry-stale');
    await logInThroughForm(page, account.user.email, account.password, /\/dashboard$/);
    await page.evaluate(() => localStorage.setItem('token', 'not-a-real-token'));
    await page.goto('/settings');
    await expectExpiredNotice(page);
    await context.close();
  });

  it('logs out from the account menu with its own notice', async () => {
    const account = await insertUser(stage.product, { name: 'Leaving Leo' });
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'logout');
    await logInThroughForm(page, account.user.email, account.password, /\/dashboard$/);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
    await shot('account-menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL('**/login?session_expired=true');
    await page.getByText('You have been logged out.').waitFor();
    expect(await page.getByText('Your session has expired. Please log in again.').count()).toBe(0);
    expect(await storedSession(page)).toEqual({ token: null, user: null });
    await shot('logged-out');

    // A protected page now leads to the login form, which keeps where the visitor was going.
    await page.goto('/settings');
    await page.waitForURL('**/login?next=%2Fsettings');
    await context.close();
  });
});
