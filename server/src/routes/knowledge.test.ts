import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, type Account } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';

describe('knowledge base API', () => {
  let t: TestServer;
  let agent: Account, owner: Account, other: Account;
  let vpn: Article, billing: Article;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV, { rateLimits: { helpfulAnonymous: { points: 3, durationSeconds: 60 } } });
    ({ agent, owner, other } = await createCast(t));
    const create = async (body: object) => (await t.api.post('/knowledge', body, { token: agent.token })).body.article as Article;
    vpn = await create({
      title: 'Fixing VPN errors',
      content: 'Remove the stored certificate and sign in again.',
      category: 'technical',
      keywords: ['vpn', 'Network', 'network', ' ', 'remote', 'certificate'],
    });
    billing = await create({
      title: 'Updating billing details',
      content: 'Open a ticket in the billing category with the new address.',
      category: 'billing',
      keywords: ['invoice'],
    });
  });
  afterAll(() => t.close());

  it('creates articles with cleaned keywords and the creator', () => {
    expect(vpn).toMatchObject({
      category: 'technical',
      keywords: ['vpn', 'Network', 'remote', 'certificate'],
      helpfulCount: 0,
      creator: { id: agent.user.id, name: 'Agent Smith' },
    });
  });

  it('lists newest first without a token, with the total', async () => {
    const res = await t.api.get('/knowledge');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.articles.map((a: Article) => a.id)).toEqual([billing.id, vpn.id]);
  });

  it('searches title, content and keywords case-insensitively and filters by category', async () => {
    const ids = async (query: string) => (await t.api.get(`/knowledge?${query}`)).body.data.articles.map((a: Article) => a.id);
    expect(await ids('search=vpn')).toEqual([vpn.id]);
    expect(await ids('search=CERTIFICATE')).toEqual([vpn.id]);
    expect(await ids('search=invoice')).toEqual([billing.id]);
    expect(await ids('category=billing')).toEqual([billing.id]);
    expect(await ids('category=billing&search=vpn')).toEqual([]);
    expect((await t.api.get('/knowledge?category=weather')).status).toBe(400);
  });

  it('reads one article and answers 404 for a missing one', async () => {
    expect((await t.api.get(`/knowledge/${vpn.id}`)).body).toEqual({ success: true, article: vpn });
    expect((await t.api.get('/knowledge/99999')).body).toEqual({ success: false, message: 'Article not found' });
  });

  it('counts a signed-in reader once per article', async () => {
    const first = await t.api.post(`/knowledge/${vpn.id}/helpful`, undefined, { token: owner.token });
    expect(first.body).toEqual({ success: true, helpfulCount: 1 });
    const repeat = await t.api.post(`/knowledge/${vpn.id}/helpful`, undefined, { token: owner.token });
    expect(repeat.body).toEqual({ success: true, helpfulCount: 1 });
    const another = await t.api.post(`/knowledge/${vpn.id}/helpful`, undefined, { token: other.token });
    expect(another.body.helpfulCount).toBe(2);
  });

  it('rate limits anonymous votes per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.api.post(`/knowledge/${billing.id}/helpful`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await t.api.post(`/knowledge/${billing.id}/helpful`);
    expect(refused.body.success).toBe(false);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await t.api.get(`/knowledge/${billing.id}`)).body.article.helpfulCount).toBe(3);
  });

  it('lets staff edit and delete articles', async () => {
    const created = (await t.api.post('/knowledge', { title: 'Temporary', content: 'Will be edited and removed.' }, { token: agent.token }))
      .body.article as Article;
    expect(created).toMatchObject({ category: 'general', keywords: [] });
    const edited = await t.api.put(`/knowledge/${created.id}`, { title: 'Temporary note', keywords: ['temp'] }, { token: agent.token });
    expect(edited.body.article).toMatchObject({ title: 'Temporary note', content: 'Will be edited and removed.', keywords: ['temp'] });
    expect((await t.api.delete(`/knowledge/${created.id}`, { token: agent.token })).body).toEqual({
      success: true,
      message: 'Article deleted successfully',
    });
    expect((await t.api.get(`/knowledge/${created.id}`)).status).toBe(404);
  });
});
