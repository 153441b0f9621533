import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, type FakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';
import { listBody, testArticle } from './testArticles';

const LONG_CONTENT =
  '# Getting started\n\nThe **quick** brown fox jumps over the [lazy dog](https://example.com) while the `cat` watches from a distance, and then it runs away.';

/** The query of the last article-list request. */
const lastListQuery = (server: FakeServer) => {
  const call = server.calls.filter((c) => c.key.startsWith('GET /knowledge?') || c.key === 'GET /knowledge').at(-1);
  return new URLSearchParams(call?.key.split('?')[1] ?? '');
};

describe('KnowledgeListPage', () => {
  it('shows each article as a card: category, plain excerpt, creator, keywords, Read More and Helpful', async () => {
    fakeServer({
      'GET /knowledge': {
        body: listBody([
          testArticle({
            id: 7,
            title: 'Fox article',
            content: LONG_CONTENT,
            category: 'technical',
            keywords: ['one', 'two', 'three', 'four', 'five'],
            creator: null,
            helpfulCount: 3,
          }),
          testArticle({
            id: 8,
            title: 'Billing cycle',
            category: 'billing',
            keywords: ['invoice'],
            creator: { id: 3, name: 'Grace Hopper' },
          }),
        ]),
      },
    });
    renderApp('/knowledge');

    expect(await screen.findByRole('heading', { level: 1, name: 'Knowledge Base' })).toBeInTheDocument();
    const fox = await screen.findByRole('article', { name: 'Fox article' });
    expect(within(fox).getByText('Technical')).toBeInTheDocument();
    // Markdown markers gone, cut at 100 characters with an ellipsis (docs/product.md#limits).
    const excerpt = within(fox).getByTestId('article-excerpt').textContent;
    expect(excerpt).toBe('Getting started The quick brown fox jumps over the lazy dog while the cat watches from a distance, a...');
    expect(excerpt).toHaveLength(100 + '...'.length);
    expect(within(fox).getByText('Unknown')).toBeInTheDocument();
    expect(within(fox).getByText('Jan 2, 2026')).toBeInTheDocument();
    for (const shown of ['one', 'two', 'three']) expect(within(fox).getByText(shown)).toBeInTheDocument();
    expect(within(fox).queryByText('four')).not.toBeInTheDocument();
    expect(within(fox).getByText('+2 more')).toBeInTheDocument();
    expect(within(fox).getByRole('link', { name: /^Read More/ })).toHaveAttribute('href', '/knowledge/7');
    expect(within(fox).getByRole('button', { name: 'Helpful (3)' })).toBeInTheDocument();

    const billing = screen.getByRole('article', { name: 'Billing cycle' });
    expect(within(billing).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(billing).getByText('Billing')).toBeInTheDocument();
    expect(within(billing).queryByText(/more$/)).not.toBeInTheDocument();

    expect(screen.getByText("Can't find what you're looking for?")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a Ticket' })).toHaveAttribute('href', '/create-ticket');
    expect(screen.queryByRole('link', { name: 'New Article' })).not.toBeInTheDocument();
  });

  it('marks an article helpful, shows the returned count and reloads the articles', async () => {
    let count = 3;
    const server = fakeServer({
      'GET /knowledge': () => ({ body: listBody([testArticle({ id: 7, title: 'Fox article', helpfulCount: count })]) }),
      'POST /knowledge/7/helpful': () => ({ body: { success: true, helpfulCount: ++count } }),
    });
    renderApp('/knowledge');
    await userEvent.click(await screen.findByRole('button', { name: 'Helpful (3)' }));

    const voted = await screen.findByRole('button', { name: 'Helpful (4)' });
    expect(voted).toHaveAttribute('aria-pressed', 'true');
    expect(server.calls.map((c) => c.key)).toContain('POST /knowledge/7/helpful');
    // On success the article is reloaded (docs/product.md#article-page).
    await waitFor(() => {
      const after = server.calls.map((c) => c.key);
      expect(after.slice(after.indexOf('POST /knowledge/7/helpful') + 1).some((k) => k.startsWith('GET /knowledge?'))).toBe(true);
    });
    // A second click on the same page is not another vote.
    await userEvent.click(voted);
    expect(server.calls.filter((c) => c.key === 'POST /knowledge/7/helpful')).toHaveLength(1);
  });

  it('only logs a failed helpful vote', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeServer({
      'GET /knowledge': { body: listBody([testArticle({ id: 7, title: 'Fox article', helpfulCount: 3 })]) },
      'POST /knowledge/7/helpful': {
        status: 429,
        body: { success: false, message: 'Too many helpful votes from this address. Please try again later.' },
      },
    });
    renderApp('/knowledge');
    await userEvent.click(await screen.findByRole('button', { name: 'Helpful (3)' }));

    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(screen.getByRole('button', { name: 'Helpful (3)' })).toBeInTheDocument();
    expect(screen.queryByText(/Too many helpful votes/)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    log.mockRestore();
  });

  it('says no articles exist yet when nothing is filtered', async () => {
    fakeServer({ 'GET /knowledge': { body: listBody([]) } });
    renderApp('/knowledge');
    expect(await screen.findByText('No articles found')).toBeInTheDocument();
    expect(screen.getByText('No knowledge articles available yet')).toBeInTheDocument();
    expect(screen.queryByText('Try adjusting your search criteria')).not.toBeInTheDocument();
  });

  it('suggests other criteria when a search finds nothing', async () => {
    fakeServer({ 'GET /knowledge': { body: listBody([]) } });
    renderApp('/knowledge?search=zebra');
    expect(await screen.findByText('No articles found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search criteria')).toBeInTheDocument();
    expect(screen.queryByText('No knowledge articles available yet')).not.toBeInTheDocument();
  });

  it('shows the load failure', async () => {
    fakeServer({
      'GET /knowledge': { status: 500, body: { success: false, message: 'Something went wrong on our side. Please try again later.' } },
    });
    renderApp('/knowledge');
    // The query client retries server errors twice before giving up.
    expect(await screen.findByText('Failed to load knowledge articles')).toBeInTheDocument();
    expect(screen.getByText('Server error. Please try again later.')).toBeInTheDocument();
  });

  it('searches on Enter and on the Search button, keeping the search in the address', async () => {
    const server = fakeServer({ 'GET /knowledge': { body: listBody([testArticle()]) } });
    renderApp('/knowledge');
    const box = await screen.findByLabelText('Search articles');

    await userEvent.type(box, '  password {Enter}');
    await waitFor(() => expect(window.location.search).toBe('?search=password'));
    await waitFor(() => expect(lastListQuery(server).get('search')).toBe('password'));

    await userEvent.clear(box);
    await userEvent.type(box, 'email');
    expect(window.location.search).toBe('?search=password'); // typing alone does not search
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(window.location.search).toBe('?search=email'));
    await waitFor(() => expect(lastListQuery(server).get('search')).toBe('email'));
    expect(lastListQuery(server).get('limit')).toBe('20');

    // Back returns to the previous search, in the box and in the results.
    act(() => window.history.back());
    await waitFor(() => expect(window.location.search).toBe('?search=password'));
    await waitFor(() => expect(box).toHaveValue('password'));
  });

  it('filters by category and clears every filter', async () => {
    const server = fakeServer({ 'GET /knowledge': { body: listBody([testArticle()]) } });
    renderApp('/knowledge?search=invoice');
    const box = await screen.findByLabelText('Search articles');
    expect(box).toHaveValue('invoice');
    const category = screen.getByLabelText('Category');
    expect(within(category).getByRole('option', { name: 'All categories' })).toHaveValue('');
    expect(
      within(category)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All categories', 'General', 'Technical', 'Billing', 'Account', 'Other']);

    await userEvent.selectOptions(category, 'billing');
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('category')).toBe('billing'));
    await waitFor(() => expect(lastListQuery(server).get('category')).toBe('billing'));
    expect(lastListQuery(server).get('search')).toBe('invoice');

    await userEvent.click(screen.getByRole('button', { name: 'Clear Filters' }));
    await waitFor(() => expect(window.location.pathname + window.location.search).toBe('/knowledge'));
    expect(box).toHaveValue('');
    expect(category).toHaveValue('');
    await waitFor(() => {
      const query = lastListQuery(server);
      expect(query.get('search')).toBeNull();
      expect(query.get('category')).toBeNull();
    });
  });

  it('pages through more articles than fit one page', async () => {
    const server = fakeServer({ 'GET /knowledge': { body: listBody([testArticle()], 45) } });
    renderApp('/knowledge');
    await userEvent.click(await screen.findByRole('button', { name: '2' }));
    await waitFor(() => expect(window.location.search).toBe('?page=2'));
    await waitFor(() => expect(lastListQuery(server).get('page')).toBe('2'));
    expect(screen.getByRole('button', { name: '3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '4' })).not.toBeInTheDocument();
  });

  it('offers staff a New Article button', async () => {
    const agent = testUser({ role: 'agent' });
    fakeServer({ 'GET /auth/verify': { body: { success: true, user: agent } }, 'GET /knowledge': { body: listBody([]) } });
    renderApp('/knowledge', { user: agent });
    expect(await screen.findByRole('link', { name: 'New Article' })).toHaveAttribute('href', '/knowledge/new');
  });
});
