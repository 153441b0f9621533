import { afterEach, describe, expect, it } from 'vitest';
import { fakeServer } from '../test-utils/fakeServer';
import { testUser } from '../test-utils/renderApp';
import { clearSession, setSession } from '../state/session';
import { authApi } from './auth';
import { dropEarlyReads, startEarlyReads } from './earlyReads';
import { pageAt } from '../routing/pages';
import { ticketsApi } from './tickets';
import { knowledgeApi } from './knowledge';
import { articleListParams, parseFilters } from '../features/knowledge/filters';

describe('early reads (the entry script starts them, the HTTP client takes them over)', () => {
  afterEach(() => {
    dropEarlyReads();
    clearSession();
  });

  it('answers the session check and the page read from the early requests, each once', async () => {
    setSession({ token: 'tok', user: testUser() });
    let verifies = 0;
    const server = fakeServer({
      'GET /auth/verify': () => ({ body: { success: true, user: testUser({ name: `check ${++verifies}` }) } }),
      'GET /tickets/5': { body: { success: true, ticket: { id: 5 } } },
    });
    // The ticket page's read as the page table names it, taken by the call the page makes.
    const opened = pageAt('/ticket/5');
    startEarlyReads([opened!.page.read!(opened!.id!, '')]);
    expect(server.calls.map((c) => c.key)).toEqual(['GET /auth/verify', 'GET /tickets/5']);
    expect(server.calls[0]?.headers.get('authorization')).toBe('Bearer tok');

    expect((await authApi.verify()).user.name).toBe('check 1');
    await ticketsApi.get(5);
    expect(server.calls).toHaveLength(2);
    // Taken once: the next check asks the server again.
    expect((await authApi.verify()).user.name).toBe('check 2');
  });

  it('starts nothing without a stored session, and no later read gets a dropped answer', async () => {
    const server = fakeServer({ 'GET /tickets/5': { body: { success: true, ticket: { id: 5 } } } });
    startEarlyReads(['/tickets/5']);
    expect(server.calls).toHaveLength(0);

    setSession({ token: 'tok', user: testUser() });
    startEarlyReads(['/tickets/5']);
    dropEarlyReads();
    const later = fakeServer({ 'GET /tickets/5': { body: { success: true, ticket: { id: 5 } } } });
    await ticketsApi.get(5);
    expect(later.calls.map((c) => c.key)).toEqual(['GET /tickets/5']);
  });

  it('reads a page open to anyone without a session, and the page takes it under its own query', async () => {
    let lists = 0;
    const server = fakeServer({ 'GET /knowledge': () => ({ body: { success: true, data: { articles: [], total: ++lists } } }) });
    // The knowledge base's read as the page table names it for this address.
    const search = '?search=%20vpn%20&category=technical&page=2&unknown=1';
    const read = pageAt('/knowledge')!.page.read!('', search);
    startEarlyReads([read], { anyone: true });
    expect(server.calls.map((c) => c.key)).toEqual([`GET ${read}`]);
    expect(server.calls[0]?.headers.get('authorization')).toBeNull();

    // The list call the page makes for the same address takes it: no second request.
    expect((await knowledgeApi.list(articleListParams(parseFilters(search)))).data.total).toBe(1);
    expect(server.calls).toHaveLength(1);
    expect((await knowledgeApi.list(articleListParams(parseFilters(search)))).data.total).toBe(2);
  });

  it("starts an article's read for a visitor, taken by the article page's call", async () => {
    const server = fakeServer({ 'GET /knowledge/5': { body: { success: true, article: { id: 5 } } } });
    const opened = pageAt('/knowledge/5');
    startEarlyReads([opened!.page.read!(opened!.id!, '')], { anyone: opened!.page.access === 'anyone' });
    await knowledgeApi.get(5);
    expect(server.calls.map((c) => c.key)).toEqual(['GET /knowledge/5']);
  });

  it('reads nothing without a session for a page that needs one', () => {
    const server = fakeServer({ 'GET /tickets/5': { body: { success: true, ticket: { id: 5 } } } });
    startEarlyReads(['/tickets/5'], { anyone: false });
    expect(server.calls).toHaveLength(0);
  });

  it('is not taken by a session whose token differs', async () => {
    setSession({ token: 'old', user: testUser() });
    fakeServer({ 'GET /auth/verify': { status: 401, body: { success: false, message: 'no' } } });
    startEarlyReads([]);
    setSession({ token: 'new', user: testUser() });
    const server = fakeServer({ 'GET /auth/verify': { body: { success: true, user: testUser({ name: 'fresh' }) } } });
    expect((await authApi.verify()).user.name).toBe('fresh');
    expect(server.calls[0]?.headers.get('authorization')).toBe('Bearer new');
  });
});
