import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { insertUser, logIn } from '../../server/test/factories';
import { logInThroughForm, openVisitor, TEST_ADMIN, useStage } from './harness';

/** Lets a dialog finish its opening or closing animation before a screenshot. */

const AGENT = { name: 'Agent Brown', email: 'agent.brown@example.test', password: 'Brown9!Desk' };

/** Tries the agent's sign-in through the form in a browser of their own. */
async function agentTriesToLogIn(page: Page) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(AGENT.email);
  await page.getByLabel('Password', { exact: true }).fill(AGENT.password);
  await page.getByRole('button', { name: 'Login' }).click();
}

describe('journey: an admin manages the support agents', () => {
  const stage = useStage();

  it('adds, edits and deletes an agent, who can sign in only while the account exists', async () => {
    const admin = await openVisitor(stage.browser, stage.product.url, 'support-management');
    const { page, shot } = admin;
    await logInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard$/);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Support Management' }).click();
    await page.waitForURL('**/support-management');
    await page.getByText('No support agents found').waitFor();
    await shot('empty');

    // Add
    await page.getByRole('button', { name: 'Add Support Agent' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Add Support Agent' });
    await addDialog.getByRole('button', { name: 'Add Agent' }).click();
    await addDialog.getByText('Name is required').waitFor();
    await shot('add-validation');
    await addDialog.getByLabel('Full Name').fill(AGENT.name);
    await addDialog.getByLabel('Email').fill(AGENT.email);
    await addDialog.getByLabel('Password').fill(AGENT.password);
    await shot('add-filled');
    await addDialog.getByRole('button', { name: 'Add Agent' }).click();
    await page.getByText('Support agent created successfully').waitFor();
    await addDialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: AGENT.name, exact: true }).waitFor();
    await shot('created');

    // The new agent signs in and lands on the agent dashboard.
    const agent = await openVisitor(stage.browser, stage.product.url, 'support-management-agent');
    await agentTriesToLogIn(agent.page);
    await agent.page.waitForURL(/\/agent-dashboard$/);
    await agent.shot('agent-signed-in');

    // A second address that is taken is refused with the server's words.
    await page.getByRole('button', { name: 'Add Support Agent' }).click();
    await addDialog.getByLabel('Full Name').fill('Agent Copy');
    await addDialog.getByLabel('Email').fill(AGENT.email);
    await addDialog.getByLabel('Password').fill(AGENT.password);
    await addDialog.getByRole('button', { name: 'Add Agent' }).click();
    await addDialog.getByText('An account with this email already exists').waitFor();
    await shot('duplicate-email');
    await addDialog.getByRole('button', { name: 'Cancel' }).click();
    await addDialog.waitFor({ state: 'hidden' });

    // Edit: the email is locked, the password may stay blank.
    await page.getByRole('button', { name: `Edit ${AGENT.name}` }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Support Agent' });
    expect(await editDialog.getByLabel('Email').isDisabled()).toBe(true);
    expect(await editDialog.getByLabel('Email').inputValue()).toBe(AGENT.email);
    await editDialog.getByText('Leave blank to keep current password').waitFor();
    await editDialog.getByLabel('Full Name').fill('Agent Browne');
    await shot('edit');
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Support agent updated successfully').waitFor();
    await editDialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'Agent Browne', exact: true }).waitFor();
    await shot('updated');
    // The blank password kept the old one.
    expect((await logIn(stage.product.api, AGENT.email, AGENT.password)).user.name).toBe('Agent Browne');

    // Delete, after confirming.
    await page.getByRole('button', { name: 'Delete Agent Browne' }).click();
    await page.getByText('Are you sure you want to delete this support agent?').waitFor();
    await shot('confirm-delete');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Support agent deleted successfully').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByText('No support agents found').waitFor();
    await shot('deleted');

    // The deleted agent's open session ends, and signing in no longer works.
    await agent.page.reload();
    await agent.page.waitForURL(/\/login/);
    await agentTriesToLogIn(agent.page);
    await agent.page.getByText('Invalid credentials, please try again.').waitFor();
    expect(agent.page.url()).toMatch(/\/login/);
    await agent.shot('agent-refused');

    await agent.context.close();
    await admin.context.close();
  });

  it('fits a phone screen, and stays closed to a non-admin', async () => {
    await insertUser(stage.product, { role: 'agent', name: 'Agent Phone' });
    const phone = await openVisitor(stage.browser, stage.product.url, 'support-management-phone', { width: 390, height: 844 });
    await logInThroughForm(phone.page, TEST_ADMIN.email, TEST_ADMIN.password, /\/agent-dashboard$/);
    await phone.page.goto('/support-management');
    // Cards instead of the wide table, with every action in reach.
    await phone.page.getByText('Agent Phone', { exact: true }).waitFor();
    expect(await phone.page.getByRole('table').count()).toBe(0);
    expect(await phone.page.getByRole('button', { name: 'Delete Agent Phone' }).isVisible()).toBe(true);
    await phone.shot('list');
    await phone.page.getByRole('button', { name: 'Add Support Agent' }).click();
    await phone.page.getByRole('dialog', { name: 'Add Support Agent' }).waitFor();
    await phone.shot('add-dialog');
    await phone.context.close();

    const user = await insertUser(stage.product, { name: 'Plain Paula' });
    const visitor = await openVisitor(stage.browser, stage.product.url, 'support-management-denied');
    await logInThroughForm(visitor.page, user.user.email, user.password, /\/dashboard$/);
    await visitor.page.goto('/support-management');
    await visitor.page
      .getByText("You don't have permission to access this page. Please contact an administrator if you believe this is an error.")
      .waitFor();
    await visitor.shot('no-permission');
    await visitor.context.close();
  });
});
