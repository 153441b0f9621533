import type { Article, ArticleListResponse, ArticleResponse } from '@helpdesk/protocol';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys } from '../api/queryKeys';
import { noteReadAt } from '../api/readTimes';
import { applyArticleChanged, applyHelpfulCount, applyItemsChanged, applyStaffChanged } from './applyEvents';
import { wantsLiveUpdates } from './useRealtime';

describe('helpful-count', () => {
  it('sets the count on article cards and the open article', () => {
    const client = new QueryClient();
    const article = (id: number): Article => ({
      id,
      title: 'VPN',
      content: 'Install the VPN client first.',
      category: 'technical',
      keywords: [],
      helpfulCount: 1,
      creator: null,
      createdAt: '',
      updatedAt: '',
    });
    client.setQueryData<ArticleListResponse>(queryKeys.knowledge.list({}), {
      success: true,
      data: { articles: [article(1), article(2)], total: 2 },
    });
    client.setQueryData<ArticleResponse>(queryKeys.knowledge.detail(1), { success: true, article: article(1) });
    applyHelpfulCount(client, { articleId: 1, helpfulCount: 9 });
    expect(client.getQueryData<ArticleListResponse>(queryKeys.knowledge.list({}))?.data.articles.map((a) => a.helpfulCount)).toEqual([
      9, 1,
    ]);
    expect(client.getQueryData<ArticleResponse>(queryKeys.knowledge.detail(1))?.article.helpfulCount).toBe(9);
  });
});

describe('article-changed', () => {
  it('reads again the lists and the article shown, unless the server began them after the change', () => {
    const client = new QueryClient();
    const list = (total: number): ArticleListResponse => ({ success: true, data: { articles: [], total } });
    const before = list(1);
    const after = list(2);
    noteReadAt(before, '1000');
    noteReadAt(after, '3000');
    client.setQueryData(queryKeys.knowledge.list({}), before);
    client.setQueryData(queryKeys.knowledge.list({ search: 'vpn' }), after);
    client.setQueryData<ArticleResponse>(queryKeys.knowledge.detail(4), { success: true, article: { id: 4 } as Article });
    client.setQueryData<ArticleResponse>(queryKeys.knowledge.detail(5), { success: true, article: { id: 5 } as Article });
    applyArticleChanged(client, { articleId: 4, action: 'updated', at: 2000 });
    const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated === true;
    expect(invalidated(queryKeys.knowledge.list({}))).toBe(true);
    expect(invalidated(queryKeys.knowledge.list({ search: 'vpn' }))).toBe(false);
    expect(invalidated(queryKeys.knowledge.detail(4))).toBe(true);
    expect(invalidated(queryKeys.knowledge.detail(5))).toBe(false);
  });
});

describe('items-changed', () => {
  it('reads again the views and their counts, or the canned responses, by kind', () => {
    const client = new QueryClient();
    for (const key of [queryKeys.queue.views, queryKeys.queue.viewCounts, queryKeys.queue.canned])
      client.setQueryData(key, { success: true });
    const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated === true;
    applyItemsChanged(client, { kind: 'views', at: 1 });
    expect([queryKeys.queue.views, queryKeys.queue.viewCounts, queryKeys.queue.canned].map(invalidated)).toEqual([true, true, false]);
    applyItemsChanged(client, { kind: 'canned-responses', at: 1 });
    expect(invalidated(queryKeys.queue.canned)).toBe(true);
  });

  it('reads again the staff list and the assignee and mention choices when staff change', () => {
    const client = new QueryClient();
    for (const key of [queryKeys.users.staff, queryKeys.users.staffDirectory, queryKeys.users.profile])
      client.setQueryData(key, { success: true });
    const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated === true;
    applyStaffChanged(client, { at: 1 });
    expect([queryKeys.users.staff, queryKeys.users.staffDirectory, queryKeys.users.profile].map(invalidated)).toEqual([true, true, false]);
  });
});

describe('when a socket is worth opening', () => {
  it.each([
    ['token', '/login', true],
    [null, '/login', false],
    [null, '/knowledge', true],
    [null, '/knowledge/4', true],
    [null, '/knowledgebase', false],
  ] as const)('token %s on %s → %s', (token, path, expected) => {
    expect(wantsLiveUpdates(token, path)).toBe(expected);
  });
});
