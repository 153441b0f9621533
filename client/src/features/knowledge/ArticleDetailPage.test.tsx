import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';
import { listBody, testArticle } from './testArticles';

const MARKDOWN = [
  '## Before you start',
  '',
  'You need **admin rights**. See [the vendor guide](https://vendor.example/guide) or [our steps](/knowledge/2).',
  '',
  '- Open settings',
  '- Press `Reset`',
].join('\n');

const article = testArticle({
  id: 7,
  title: 'Resetting the router',
  content: MARKDOWN,
  category: 'technical',
  keywords: ['router', 'network', 'reset', 'wifi', 'modem'],
  helpfulCount: 5,
  creator: { id: 2, name: 'Agent Smith' },
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-02-14T10:00:00.000Z',
});
const articleBody = (overrides = {}) => ({ body: { success: true, article: { ...article, ...overrides } } });

describe('ArticleDetailPage', () => {
  it('shows the whole article with its content as Markdown', async () => {
    fakeServer({ 'GET /knowledge/7': articleBody() });
    renderApp('/knowledge/7');

    expect(await screen.findByRole('heading', { level: 1, name: 'Resetting the router' })).toBeInTheDocument();
    const chip = screen.getByText('Technical').closest('[data-category]');
    expect(chip).toHaveAttribute('data-category', 'technical');
    expect(chip?.querySelector('svg')).not.toBeNull(); // the category's icon
    expect(screen.getByTestId('helpful-count')).toHaveTextContent('5 people found this helpful');
    const byline = screen.getByTestId('article-byline');
    expect(byline).toHaveTextContent('Agent Smith');
    expect(byline).toHaveTextContent('Published Jan 2, 2026');
    expect(byline).toHaveTextContent('Updated Feb 14, 2026');

    const content = screen.getByTestId('markdown-content');
    expect(within(content).getByRole('heading', { level: 2, name: 'Before you start' })).toBeInTheDocument();
    expect(within(content).getByText('admin rights').tagName).toBe('STRONG');
    expect(within(content).getAllByRole('listitem')).toHaveLength(2);
    const external = within(content).getByRole('link', { name: 'the vendor guide' });
    expect(external).toHaveAttribute('href', 'https://vendor.example/guide');
    expect(external).toHaveAttribute('target', '_blank');
    expect(external.getAttribute('rel')).toContain('noopener');
    expect(within(content).getByRole('link', { name: 'our steps' })).toHaveAttribute('href', '/knowledge/2');

    for (const keyword of article.keywords) expect(screen.getByText(keyword)).toBeInTheDocument();
    expect(screen.queryByText(/more$/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Was this article helpful?' })).toBeInTheDocument();
    expect(screen.getByText('Still need help?')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a Ticket' })).toHaveAttribute('href', '/create-ticket');
    expect(screen.getByRole('link', { name: 'Back to Knowledge Base' })).toHaveAttribute('href', '/knowledge');
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it("names the creator 'Unknown' when the account is gone", async () => {
    fakeServer({ 'GET /knowledge/7': articleBody({ creator: null }) });
    renderApp('/knowledge/7');
    expect(await screen.findByTestId('article-byline')).toHaveTextContent('Unknown');
  });

  it('records a helpful vote and reloads the article', async () => {
    let count = 5;
    const server = fakeServer({
      'GET /knowledge/7': () => articleBody({ helpfulCount: count }),
      'POST /knowledge/7/helpful': () => ({ body: { success: true, helpfulCount: ++count } }),
    });
    renderApp('/knowledge/7');
    await userEvent.click(await screen.findByRole('button', { name: 'Was this article helpful?' }));
    await waitFor(() => expect(screen.getByTestId('helpful-count')).toHaveTextContent('6 people found this helpful'));
    await waitFor(() => expect(server.calls.filter((c) => c.key === 'GET /knowledge/7')).toHaveLength(2));
  });

  it("says 'Article not found' for a missing article", async () => {
    fakeServer({ 'GET /knowledge/99': { status: 404, body: { success: false, message: 'Article not found' } } });
    renderApp('/knowledge/99');
    expect(await screen.findByRole('heading', { level: 1, name: 'Article not found' })).toBeInTheDocument();
    expect(screen.queryByText('Failed to load article')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Knowledge Base' })).toBeInTheDocument();
  });

  it("says 'Failed to load article' when loading fails", async () => {
    fakeServer({
      'GET /knowledge/7': {
        status: 503,
        body: { success: false, message: 'The service is temporarily unavailable. Please try again shortly.' },
      },
    });
    renderApp('/knowledge/7');
    expect(await screen.findByText('Failed to load article')).toBeInTheDocument();
  });

  it('never turns HTML or script URLs in the content into elements', async () => {
    const hostile =
      'Intro\n\n<script>window.hacked = true</script>\n\n<img src="x" onerror="window.hacked = true">\n\n[click me](javascript:alert(1))';
    fakeServer({ 'GET /knowledge/7': articleBody({ content: hostile }) });
    renderApp('/knowledge/7');
    const content = await screen.findByTestId('markdown-content');
    expect(content.querySelector('script')).toBeNull();
    expect(content.querySelector('img')).toBeNull();
    expect(content.querySelector('[onerror]')).toBeNull();
    expect(content).toHaveTextContent('<script>window.hacked = true</script>');
    expect(within(content).getByText('click me').closest('a')?.getAttribute('href') ?? '').not.toMatch(/javascript/i);
    expect((window as unknown as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('treats protocol-relative links as other sites, not as pages of the app', async () => {
    const content = '[mirror](//evil.example/login) and [ours](/knowledge/2)';
    fakeServer({ 'GET /knowledge/7': articleBody({ content }) });
    renderApp('/knowledge/7');
    const shown = await screen.findByTestId('markdown-content');
    const mirror = within(shown).getByRole('link', { name: 'mirror' });
    expect(mirror).toHaveAttribute('href', '//evil.example/login');
    expect(mirror).toHaveAttribute('target', '_blank');
    expect(mirror.getAttribute('rel')).toContain('noopener');
    expect(within(shown).getByRole('link', { name: 'ours' })).not.toHaveAttribute('target');
  });

  it('lets staff edit, and delete after confirming', async () => {
    const agent = testUser({ role: 'agent', name: 'Agent Smith' });
    const server = fakeServer({
      'GET /auth/verify': { body: { success: true, user: agent } },
      'GET /knowledge/7': articleBody(),
      'DELETE /knowledge/7': { body: { success: true, message: 'Article deleted successfully' } },
      'GET /knowledge': { body: listBody([]) },
    });
    renderApp('/knowledge/7', { user: agent });

    expect(await screen.findByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/knowledge/7/edit');
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this article?')).toBeInTheDocument();
    expect(server.calls.map((c) => c.key)).not.toContain('DELETE /knowledge/7');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(window.location.pathname).toBe('/knowledge'));
    expect(server.calls.map((c) => c.key)).toContain('DELETE /knowledge/7');
    expect(await screen.findByText('Article deleted successfully')).toBeInTheDocument();
  });

  it('keeps the article when the delete is cancelled', async () => {
    const agent = testUser({ role: 'admin' });
    const server = fakeServer({ 'GET /auth/verify': { body: { success: true, user: agent } }, 'GET /knowledge/7': articleBody() });
    renderApp('/knowledge/7', { user: agent });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(window.location.pathname).toBe('/knowledge/7');
    expect(server.calls.map((c) => c.key)).not.toContain('DELETE /knowledge/7');
  });
});
