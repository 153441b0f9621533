import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { logIn } from '../../server/test/factories';
import { expectAccessible } from './accessibility';
import { logInThroughForm, openVisitor, TEST_ADMIN, useStage } from './harness';

/** Lets transitions (radios, buttons, snackbars) finish before a screenshot. */

const storedUser = async (page: Page) => JSON.parse((await page.evaluate(() => localStorage.getItem('user'))) ?? 'null');

async function pickRole(page: Page, role: string) {
  await page.getByRole('textbox', { name: 'Role' }).click();
  await page.getByRole('option', { name: role }).click();
}

describe('journey: signing up, settings and the API test page', () => {
  const stage = useStage();

  it('a visitor signs up and chooses email notifications; the API test page sends them home', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'account-signup-settings');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign up here' }).click();
    await page.waitForURL('**/signup');
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    await shot('signup-form');

    // The visitor sees User and Agent (once the server's config says agent sign-up is open), never Admin.
    await page.getByText("Agent accounts see every customer's tickets.").waitFor();
    await page.getByRole('textbox', { name: 'Role' }).click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['User', 'Agent']);
    await page.keyboard.press('Escape');

    await page.getByLabel('Full Name').fill('Signup Sara');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('weakpass');
    await page.getByLabel('Confirm Password').fill('weakpas');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Password must include uppercase, number, and special character').waitFor();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByText('Invalid email format').waitFor();
    await shot('signup-validation');

    await page.getByLabel('Email').fill('sara@example.test');
    await page.getByLabel('Password', { exact: true }).fill('Sara4$Signup');
    await page.getByLabel('Confirm Password').fill('Sara4$Signup');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(/\/dashboard$/);
    expect(await storedUser(page)).toMatchObject({ name: 'Signup Sara', email: 'sara@example.test', role: 'user' });

    // Settings: read-only account, preference saved on the spot.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.waitForURL('**/settings');
    await page.getByRole('radio', { name: 'All notifications' }).waitFor();
    expect(await page.getByRole('radio', { name: 'All notifications' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Name').inputValue()).toBe('Signup Sara');
    expect(await page.getByLabel('Role').inputValue()).toBe('User');
    await shot('settings');

    await page.getByRole('radio', { name: 'Important only' }).check();
    await page.getByText('Email preferences updated successfully!').waitFor();
    await shot('settings-saved');
    await page.getByText('Email preferences updated successfully!').waitFor({ state: 'detached', timeout: 6_000 });
    expect(await storedUser(page)).toMatchObject({ email_notifications: 'important' });
    await page.reload();
    await page.getByRole('radio', { name: 'Important only' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Important only' }).isChecked()).toBe(true);

    // The API test page is a public page: a signed-in visitor is sent home.
    await page.goto('/api-test');
    await page.waitForURL(/\/dashboard$/);
    await context.close();
  });

  it('a signed-out visitor tests the API on /api-test, on a desktop and on a phone', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'account-api-test');
    await page.goto('/api-test');
    await page.getByRole('heading', { name: 'API Connection Test' }).waitFor();
    await page.getByRole('button', { name: 'Test Login' }).click();
    await page.getByText('Email and password are required').first().waitFor();
    await page.getByLabel('Email').fill('sara@example.test');
    await page.getByLabel('Password', { exact: true }).fill('WrongPass1!');
    await page.getByRole('button', { name: 'Test Login' }).click();
    await page.getByText('Status: 401').waitFor();
    await page.getByText('URL: /auth/login').waitFor();
    await shot('api-test-failure');
    await page.getByLabel('Password', { exact: true }).fill('Sara4$Signup');
    await page.getByRole('button', { name: 'Test Login' }).click();
    await page.getByText('"token":').waitFor();
    await shot('api-test-success');
    // It shows the answer and signs nobody in.
    expect(page.url()).toMatch(/\/api-test$/);
    expect(await storedUser(page)).toBeNull();
    await page.setViewportSize({ width: 390, height: 844 });
    await shot('api-test-phone');
    await context.close();
  });

  it('shows settings on a phone', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'account-phone', { width: 390, height: 844 });
    await logInThroughForm(page, 'sara@example.test', 'Sara4$Signup', /\/dashboard$/);
    await page.goto('/settings');
    await page.getByRole('radio', { name: 'None' }).waitFor();
    await shot('settings');
    await context.close();
  });

  it('an admin creates an admin account at /signup and stays signed in as themselves', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'account-admin-signup');
    await logInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard$/);
    const me = await storedUser(page);
    await page.goto('/signup');
    await page.getByRole('heading', { name: 'Create Account' }).waitFor();
    await page.getByRole('textbox', { name: 'Role' }).click();
    expect(await page.getByRole('option').allTextContents()).toEqual(['User', 'Agent', 'Admin']);
    await page.keyboard.press('Escape');

    await page.getByLabel('Full Name').fill('Second Admin');
    await page.getByLabel('Email').fill('second.admin@example.test');
    await pickRole(page, 'Admin');
    await page.getByLabel('Password', { exact: true }).fill('Admin2$Second');
    await page.getByLabel('Confirm Password').fill('Admin2$Second');
    await shot('admin-signup');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByText('Account created for Second Admin (second.admin@example.test) as Admin').waitFor();
    await page.waitForURL(/\/agent-dashboard$/);
    await page.getByRole('heading', { name: 'Agent Dashboard' }).waitFor();
    await shot('admin-created');
    expect(await storedUser(page)).toMatchObject({ id: me.id, email: TEST_ADMIN.email });
    expect((await logIn(stage.product.api, 'second.admin@example.test', 'Admin2$Second')).user.role).toBe('admin');
    await context.close();
  });

  it('an admin makes an API token in Settings, a script uses it within its scope, and revoking ends it', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'account-api-tokens');
    await logInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard$/);
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Tokens' }).waitFor();
    await page.getByText('No API tokens yet.').waitFor();
    await page.getByLabel('Token name').fill('Nightly export');
    await page.getByRole('checkbox', { name: /^users:read/ }).check();
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('new-token-secret').textContent()) ?? '';
    expect(secret).toMatch(/^hd_pat_/);
    await page.getByRole('table', { name: 'API tokens' }).getByText('Nightly export').waitFor();
    await expectAccessible(page, 'settings with an API token');
    await shot('api-token-created');

    // A script's calls: what the scopes allow, and nothing else.
    const call = (path: string, method = 'GET') =>
      fetch(`${stage.product.url}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      });
    expect((await call('/tickets')).status).toBe(200);
    expect((await call('/users/staff')).status).toBe(200);
    const refused = await call('/tickets', 'POST');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ success: false, message: 'This token does not have the tickets:write scope' });

    await page.reload();
    const row = page.getByRole('row', { name: /Nightly export/ });
    await row.getByText('a few seconds ago', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Revoke Nightly export' }).click();
    await page.getByRole('dialog', { name: 'Revoke this token?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('No API tokens yet.').waitFor();
    expect((await call('/tickets')).status).toBe(401);
    await context.close();
  });

  it('shows the Tokens section on a phone', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'account-api-tokens-phone', {
      width: 390,
      height: 844,
    });
    await logInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard$/);
    await page.goto('/settings');
    await page.getByLabel('Token name').fill('Phone token');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByTestId('new-token-secret').waitFor();
    await page.getByRole('heading', { name: 'Tokens' }).scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('api-tokens');
    await context.close();
  });
});
