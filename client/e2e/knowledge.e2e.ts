import type { Article } from '@helpdesk/protocol';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { insertUser, type Account } from '../../server/test/factories';
import { logInThroughForm, openVisitor, useStage } from './harness';

const ARTICLES = [
  {
    title: 'Resetting your password',
    category: 'account',
    keywords: ['password', 'login', 'reset', 'email', 'security'],
    content:
      '## Forgot your password?\n\nOpen the **login page** and choose *Forgot Password?*.\n\n1. Enter your email\n2. Open the link we send\n3. Choose a new password',
  },
  {
    title: 'Understanding your invoice',
    category: 'billing',
    keywords: ['invoice', 'payment'],
    content: 'Every invoice lists the **plan**, the billing period and taxes. Download past invoices from the billing page.',
  },
  {
    title: 'Fixing VPN connection drops',
    category: 'technical',
    keywords: ['vpn', 'network'],
    content: 'If the VPN drops every few minutes, update the client and switch to the `TCP` transport.',
  },
  {
    title: 'Welcome to the help center',
    category: 'general',
    keywords: [],
    content: 'Browse the articles by category or search for a word. Still stuck? Create a ticket.',
  },
];

/** The socket is up once the header's "Connecting…" badge is gone. */
const waitForLive = (page: Page) => page.getByTestId('live-indicator').waitFor({ state: 'detached' });
const card = (page: Page, title: string) => page.getByRole('article', { name: title });
const cardTitles = (page: Page) => page.locator('article h2').allTextContents();

describe('journey: knowledge base', () => {
  const stage = useStage();
  let agent: Account;
  const created: Article[] = [];

  beforeAll(async () => {
    agent = await insertUser(stage.product, { role: 'agent', name: 'Agent Smith' });
    for (const article of ARTICLES) {
      const res = await stage.product.api.post('/knowledge', article, { token: agent.token });
      expect(res.status).toBe(201);
      created.push(res.body.article);
    }
  });

  it('lets a visitor search, filter and read, with helpful counts changing live in another window', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'knowledge-visitor');
    await page.goto('/knowledge');
    await page.getByRole('heading', { name: 'Knowledge Base', level: 1 }).waitFor();
    await card(page, 'Resetting your password').waitFor();
    expect(await cardTitles(page)).toHaveLength(4);
    const password = card(page, 'Resetting your password');
    expect(await password.getByText('+2 more').isVisible()).toBe(true);
    expect(await password.getByText('security').count()).toBe(0);
    await expect(password.getByRole('button', { name: 'Helpful (0)' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'New Article' }).count()).resolves.toBe(0);
    await shot('list');

    // Enter searches.
    const box = page.getByLabel('Search articles');
    await box.fill('invoice');
    await box.press('Enter');
    await page.waitForURL('**/knowledge?search=invoice');
    // Until the answer lands the previous list may still show (one card after a search), so the titles are polled.
    await expect.poll(() => cardTitles(page), { timeout: 15_000 }).toEqual(['Understanding your invoice']);
    await shot('search-enter');

    // So does the button.
    await box.fill('vpn');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/knowledge?search=vpn');
    await card(page, 'Fixing VPN connection drops').waitFor();
    expect(await cardTitles(page)).toEqual(['Fixing VPN connection drops']);
    await shot('search-button');

    // Category filter, after clearing the search.
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await page.waitForURL((url) => url.pathname === '/knowledge' && url.search === '');
    expect(await box.inputValue()).toBe('');
    await page.getByLabel('Category').selectOption('account');
    await page.waitForURL('**/knowledge?category=account');
    await expect.poll(() => cardTitles(page), { timeout: 15_000 }).toEqual(['Resetting your password']);
    await shot('category-account');

    // A search with no results.
    await box.fill('zebra');
    await box.press('Enter');
    await page.getByText('No articles found').waitFor();
    expect(await page.getByText('Try adjusting your search criteria').isVisible()).toBe(true);
    await shot('empty-search');

    // Back returns to the previous results.
    await page.goBack();
    await page.waitForURL('**/knowledge?category=account');
    await card(page, 'Resetting your password').waitFor();
    expect(await box.inputValue()).toBe('');

    // Read the article.
    await card(page, 'Resetting your password').getByRole('link', { name: 'Read More' }).click();
    const article = created[0]!;
    await page.waitForURL(`**/knowledge/${article.id}`);
    await page.getByRole('heading', { name: 'Resetting your password', level: 1 }).waitFor();
    expect(await page.getByRole('heading', { name: 'Forgot your password?', level: 2 }).isVisible()).toBe(true);
    expect(await page.locator('[data-testid="markdown-content"] strong').first().textContent()).toBe('login page');
    expect(await page.locator('[data-testid="markdown-content"] ol li').count()).toBe(3);
    expect(await page.getByText('security').isVisible()).toBe(true); // every keyword on the detail page
    expect(await page.getByText('Still need help?').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await waitForLive(page);
    await shot('article');

    // A second reader keeps the list open in another window.
    const watcher = await openVisitor(stage.browser, stage.product.url, 'knowledge-watcher');
    await watcher.page.goto('/knowledge');
    const watched = card(watcher.page, 'Resetting your password');
    await watched.getByRole('button', { name: 'Helpful (0)' }).waitFor();
    await waitForLive(watcher.page);
    // A marker on the window survives only if the page is never reloaded.
    await watcher.page.evaluate(() => Object.assign(window, { notReloaded: true }));

    await page.getByRole('button', { name: 'Was this article helpful?' }).click();
    await page.getByTestId('helpful-count').getByText('1 person found this helpful').waitFor();
    await watched.getByRole('button', { name: 'Helpful (1)' }).waitFor();
    expect(await watcher.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await shot('article-voted');
    await watcher.shot('list-updated-live');

    // And the other way round: a vote on the list reaches the open article.
    await watched.getByRole('button', { name: 'Helpful (1)' }).click();
    await watched.getByRole('button', { name: 'Helpful (2)' }).waitFor();
    await page.getByTestId('helpful-count').getByText('2 people found this helpful').waitFor();
    await shot('article-updated-live');

    await watcher.context.close();
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'knowledge-phone', { width: 390, height: 844 });
    await page.goto('/knowledge');
    await card(page, 'Resetting your password').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('list');
    await page.goto(`/knowledge/${created[0]!.id}`);
    await page.getByRole('heading', { name: 'Resetting your password', level: 1 }).waitFor();
    await shot('article');
    await context.close();
  });

  it('lets an agent write an article in Markdown, edit it and delete it', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'knowledge-staff');
    await signIn(page, agent);
    await shot('signed-in');
    await page.goto('/knowledge');
    await page.getByRole('link', { name: 'New Article' }).click();
    await page.waitForURL('**/knowledge/new');
    await page.getByRole('heading', { name: 'New Article', level: 1 }).waitFor();
    await shot('editor-empty');

    await page.getByRole('button', { name: 'Create Article' }).click();
    await page.getByText('Title is required').waitFor();
    expect(await page.getByText('Content is required').isVisible()).toBe(true);
    await shot('editor-errors');

    await page.getByLabel('Title').fill('Setting up two-factor authentication');
    await page.getByLabel('Category').selectOption('account');
    const keywords = page.getByRole('textbox', { name: 'Keywords' });
    for (const keyword of ['2fa', 'security', 'authenticator', 'login']) {
      await keywords.fill(keyword);
      await keywords.press('Enter');
    }
    await page
      .getByLabel('Content')
      .fill(
        '## Why 2FA?\n\nIt keeps your account **safe** even if your password leaks.\n\n- Install an authenticator app\n- Scan the QR code\n\nMore at [the security guide](https://example.com/security).\n\n<img src=x onerror="document.title=\'hacked\'">',
      );
    await shot('editor-filled');
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByTestId('markdown-preview').getByRole('heading', { name: 'Why 2FA?' }).waitFor();
    expect(await page.locator('[data-testid="markdown-preview"] img').count()).toBe(0);
    await shot('editor-preview');

    await page.getByRole('button', { name: 'Create Article' }).click();
    await page.waitForURL(/\/knowledge\/\d+$/);
    await page.getByText('Article created successfully').waitFor();
    await page.getByRole('heading', { name: 'Setting up two-factor authentication', level: 1 }).waitFor();
    const content = page.getByTestId('markdown-content');
    expect(await content.getByRole('heading', { name: 'Why 2FA?', level: 2 }).isVisible()).toBe(true);
    expect(await content.locator('strong').textContent()).toBe('safe');
    expect(await content.locator('li').count()).toBe(2);
    const link = content.getByRole('link', { name: 'the security guide' });
    expect(await link.getAttribute('rel')).toContain('noopener');
    expect(await content.locator('img').count()).toBe(0);
    expect(await page.title()).not.toBe('hacked');
    expect(await page.getByTestId('article-byline').textContent()).toContain('Agent Smith');
    await shot('article-created');

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(/\/knowledge\/\d+\/edit$/);
    const title = page.getByLabel('Title');
    await title.waitFor();
    expect(await title.inputValue()).toBe('Setting up two-factor authentication');
    await title.fill('Setting up 2FA');
    await shot('editor-edit');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL(/\/knowledge\/\d+$/);
    await page.getByRole('heading', { name: 'Setting up 2FA', level: 1 }).waitFor();
    await page.getByText('Article updated successfully').waitFor();

    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to delete this article?').waitFor();
    await shot('delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL((url) => url.pathname === '/knowledge');
    await page.getByText('Article deleted successfully').waitFor();
    await card(page, 'Resetting your password').waitFor();
    expect(await card(page, 'Setting up 2FA').count()).toBe(0);
    await shot('after-delete');
    await context.close();
  });
});

/** Through the login form when it exists; otherwise with the stored session of docs/product.md#sessions. */
async function signIn(page: Page, account: Account) {
  await page.goto('/login');
  await page.getByRole('heading', { name: 'HelpDesk Login' }).waitFor();
  if ((await page.getByLabel('Email').count()) > 0) {
    await logInThroughForm(page, account.user.email, account.password, /\/agent-dashboard/);
    return;
  }
  await page.addInitScript(
    ({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token: account.token, user: account.user },
  );
}
