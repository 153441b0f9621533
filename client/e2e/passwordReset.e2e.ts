import { describe, expect, it } from 'vitest';
import { insertUser } from '../../server/test/factories';
import { logInThroughForm, openVisitor, useStage } from './harness';
import { resetLinkFor } from './outbox';

describe('journey: a forgotten password', () => {
  const stage = useStage();

  it('asks for a link, follows it from the email, sets a new password and signs in with it', async () => {
    const account = await insertUser(stage.product, { name: 'Reset Rita' });
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'password-reset');

    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL('**/reset-password');
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await shot('request-form');

    await page.getByLabel('Email').fill(account.user.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText('If an account with that email exists, a password reset link has been sent.').waitFor();
    await shot('link-sent');

    const link = await resetLinkFor(stage.product, account.user.email);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set New Password' }).waitFor();
    await shot('set-new-password');

    await page.getByLabel('New Password').fill('Fresh4$Start');
    await page.getByLabel('Confirm Password').fill('Fresh4$Stars');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await shot('passwords-differ');

    await page.getByLabel('Confirm Password').fill('Fresh4$Start');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password has been reset successfully. Redirecting to login...').waitFor();
    const shown = Date.now();
    await shot('reset-done');
    await page.waitForURL('**/login', { timeout: 8_000 });
    // The success message stays for 3 s before the redirect (docs/product.md#password-reset).
    expect(Date.now() - shown).toBeGreaterThanOrEqual(2_000);
    await page.getByRole('heading', { name: 'HelpDesk Login' }).waitFor();

    // The link works once; the old password no longer does, the new one does.
    await page.goto(link);
    await page.getByLabel('New Password').fill('Another5%Try');
    await page.getByLabel('Confirm Password').fill('Another5%Try');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Invalid or expired reset token').waitFor();
    await shot('link-used');

    expect((await stage.product.api.post('/auth/login', { email: account.user.email, password: account.password })).status).toBe(401);
    await logInThroughForm(page, account.user.email, 'Fresh4$Start', /\/dashboard$/);
    await shot('signed-in');
    await context.close();
  });
});
