import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../../test/factories.js';
import { startTestServer, type TestServer } from '../../test/server.js';

/** Rate limits key on the client address: behind a load balancer it comes from X-Forwarded-For. */
describe.each([
  { trustProxy: false, expected: [200, 429, 429, 429] },
  // Budgets per forwarded address; a client-written first entry is ignored, only the last hop counts.
  { trustProxy: true, expected: [200, 200, 429, 429] },
])('TRUST_PROXY=$trustProxy', ({ trustProxy, expected }) => {
  let t: TestServer;
  let articleId: number;

  beforeAll(async () => {
    t = await startTestServer(
      { TRUST_PROXY: String(trustProxy) },
      { rateLimits: { helpfulAnonymous: { points: 1, durationSeconds: 60 } } },
    );
    const agent = await insertUser(t, { role: 'agent' });
    const created = await t.api.post('/knowledge', { title: 'Proxy article', content: 'Counted per address.' }, { token: agent.token });
    articleId = created.body.article.id;
  });
  afterAll(() => t.close());

  it('counts anonymous votes per client address as the proxy reports it', async () => {
    const vote = async (forwardedFor: string) =>
      (await t.api.post(`/knowledge/${articleId}/helpful`, undefined, { headers: { 'x-forwarded-for': forwardedFor } })).status;
    const statuses = [
      await vote('203.0.113.1'),
      await vote('203.0.113.2'),
      await vote('198.51.100.9, 203.0.113.2'),
      await vote('203.0.113.1'),
    ];
    expect(statuses).toEqual(expected);
  });
});
