import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { renderApp, testUser } from '../../test-utils/renderApp';
import { testArticle } from './testArticles';

const agent = testUser({ id: 2, role: 'agent', name: 'Agent Smith' });
const verified = { 'GET /auth/verify': { body: { success: true, user: agent } } };

async function openNewEditor(routes = {}) {
  const server = fakeServer({ ...verified, ...routes });
  renderApp('/knowledge/new', { user: agent });
  expect(await screen.findByRole('heading', { level: 1, name: 'New Article' })).toBeInTheDocument();
  return server;
}

describe('ArticleEditorPage', () => {
  it('shows the protocol messages for missing fields and sends nothing', async () => {
    const server = await openNewEditor();
    await userEvent.click(screen.getByRole('button', { name: 'Create Article' }));
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Content is required')).toBeInTheDocument();
    expect(server.calls.some((c) => c.key === 'POST /knowledge')).toBe(false);
  });

  it('shows the length messages', async () => {
    await openNewEditor();
    await userEvent.type(screen.getByLabelText(/^Title/), 'ab');
    await userEvent.type(screen.getByLabelText(/^Content/), 'too short');
    await userEvent.click(screen.getByRole('button', { name: 'Create Article' }));
    expect(await screen.findByText('Title must be at least 3 characters long')).toBeInTheDocument();
    expect(screen.getByText('Content must be at least 10 characters long')).toBeInTheDocument();
  });

  it('previews the Markdown like the article page, with HTML as text only', async () => {
    await openNewEditor();
    const content = screen.getByLabelText(/^Content/);
    await userEvent.click(content);
    await userEvent.paste('# Steps\n\n**Bold** move\n\n<img src="x" onerror="window.hacked = true"><script>window.hacked = true</script>');
    await userEvent.click(screen.getByRole('tab', { name: 'Preview' }));
    const preview = await screen.findByTestId('markdown-preview');
    expect(within(preview).getByRole('heading', { level: 1, name: 'Steps' })).toBeInTheDocument();
    expect(within(preview).getByText('Bold').tagName).toBe('STRONG');
    expect(preview.querySelector('img')).toBeNull();
    expect(preview.querySelector('script')).toBeNull();
    expect(preview).toHaveTextContent('<img src="x" onerror="window.hacked = true">');
    expect((window as unknown as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it('creates an article, then opens it with a success message', async () => {
    const saved = testArticle({
      id: 12,
      title: 'Setting up VPN',
      category: 'technical',
      keywords: ['vpn', 'remote'],
      content: 'Install the **client** and sign in.',
    });
    const server = await openNewEditor({
      'POST /knowledge': { status: 201, body: { success: true, article: saved } },
      'GET /knowledge/12': { body: { success: true, article: saved } },
    });
    await userEvent.type(screen.getByLabelText(/^Title/), '  Setting up VPN ');
    await userEvent.selectOptions(screen.getByLabelText(/^Category/), 'technical');
    const keywords = screen.getByRole('textbox', { name: 'Keywords' });
    await userEvent.type(keywords, 'vpn{Enter}remote{Enter}');
    await userEvent.type(screen.getByLabelText(/^Content/), 'Install the **client** and sign in.');
    await userEvent.click(screen.getByRole('button', { name: 'Create Article' }));

    await waitFor(() => expect(window.location.pathname).toBe('/knowledge/12'));
    const post = server.calls.find((c) => c.key === 'POST /knowledge');
    expect(post?.body).toEqual({
      title: 'Setting up VPN',
      category: 'technical',
      keywords: ['vpn', 'remote'],
      content: 'Install the **client** and sign in.',
    });
    expect(await screen.findByText('Article created successfully')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Setting up VPN' })).toBeInTheDocument();
  });

  it("shows the server's message when saving is refused", async () => {
    await openNewEditor({
      'POST /knowledge': { status: 409, body: { success: false, message: 'An article with this title already exists' } },
    });
    await userEvent.type(screen.getByLabelText(/^Title/), 'Duplicate title');
    await userEvent.type(screen.getByLabelText(/^Content/), 'Long enough content here.');
    await userEvent.click(screen.getByRole('button', { name: 'Create Article' }));
    const message = await screen.findByText('An article with this title already exists');
    expect(message.closest('[role="alert"]')).not.toBeNull();
    expect(window.location.pathname).toBe('/knowledge/new');
  });

  it("falls back to 'An error occurred' when the server gives no reason", async () => {
    await openNewEditor({ 'POST /knowledge': { status: 500 } });
    await userEvent.type(screen.getByLabelText(/^Title/), 'Any title');
    await userEvent.type(screen.getByLabelText(/^Content/), 'Long enough content here.');
    await userEvent.click(screen.getByRole('button', { name: 'Create Article' }));
    const alert = (await screen.findByText('An error occurred')).closest('[role="alert"]');
    expect(alert).not.toBeNull();
    expect(alert).toHaveTextContent('Server error. Please try again later.');
  });

  it('edits an existing article from its saved values', async () => {
    const original = testArticle({
      id: 7,
      title: 'Old title',
      category: 'billing',
      keywords: ['invoice'],
      content: 'Original content text.',
    });
    const server = fakeServer({
      ...verified,
      'GET /knowledge/7': () => ({ body: { success: true, article: original } }),
      'PUT /knowledge/7': ({ body }) => ({ body: { success: true, article: { ...original, ...(body as object) } } }),
    });
    renderApp('/knowledge/7/edit', { user: agent });
    const title = await screen.findByLabelText(/^Title/);
    expect(title).toHaveValue('Old title');
    expect(screen.getByLabelText(/^Category/)).toHaveValue('billing');
    expect(screen.getByLabelText(/^Content/)).toHaveValue('Original content text.');
    expect(screen.getByText('invoice')).toBeInTheDocument();

    await userEvent.clear(title);
    await userEvent.type(title, 'New title');
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(window.location.pathname).toBe('/knowledge/7'));
    expect(server.calls.find((c) => c.key === 'PUT /knowledge/7')?.body).toEqual({
      title: 'New title',
      category: 'billing',
      keywords: ['invoice'],
      content: 'Original content text.',
    });
    expect(await screen.findByText('Article updated successfully')).toBeInTheDocument();
  });

  it("says 'Article not found' when the article to edit is gone", async () => {
    fakeServer({ ...verified, 'GET /knowledge/99': { status: 404, body: { success: false, message: 'Article not found' } } });
    renderApp('/knowledge/99/edit', { user: agent });
    expect(await screen.findByRole('heading', { level: 1, name: 'Article not found' })).toBeInTheDocument();
  });
});
