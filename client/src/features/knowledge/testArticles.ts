import type { Article } from '@helpdesk/protocol';

/** Test data: an article as the server presents it (docs/api.md#entities). */
export const testArticle = (overrides: Partial<Article> = {}): Article => ({
  id: 1,
  title: 'How to reset your password',
  content: 'Open the **login page** and choose [Forgot Password?](/reset-password). A link arrives by email within a few minutes.',
  category: 'account',
  keywords: ['password'],
  helpfulCount: 3,
  creator: { id: 2, name: 'Agent Smith' },
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  ...overrides,
});

export const listBody = (articles: Article[], total = articles.length) => ({ success: true, data: { articles, total } });
