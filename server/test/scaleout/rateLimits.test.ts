import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import { DEFAULT_RATE_LIMITS } from '../../src/middleware/rateLimit.js';
import { STRONG_PASSWORD, uniqueEmail } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import type { ApiResponse } from '../http.js';
import { startCluster, type Cluster, type Node } from './cluster.js';

function expectRefused(res: ApiResponse, message: string) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ success: false, message });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

/** The processes run with the production budgets; every request here comes from 127.0.0.1. */
describe('per-address budgets across two processes behind one Redis', () => {
  let cluster: Cluster;
  let a: Node;
  let b: Node;
  const alternating = (count: number) => Array.from({ length: count }, (_, i) => (i % 2 === 0 ? a : b));

  beforeAll(async () => {
    cluster = await startCluster();
    [a, b] = cluster.nodes as [Node, Node];
  });
  afterAll(() => ifSetUp(cluster)?.stop());

  it('spends one failed sign-in budget over all emails across both processes', async () => {
    const spray = (node: Node) => node.api.post('/auth/login', { email: uniqueEmail('sprayed'), password: 'Spring2024!' });
    for (const node of alternating(DEFAULT_RATE_LIMITS.loginPerAddress.points)) expect((await spray(node)).status).toBe(401);
    for (const node of [a, b]) expectRefused(await spray(node), MESSAGES.auth.tooManyLoginsFromAddress);
  });

  it('spends one sign-up budget across both processes', async () => {
    const register = (node: Node) =>
      node.api.post('/auth/register', { name: 'Bulk Bob', email: uniqueEmail('bulk'), password: STRONG_PASSWORD });
    for (const node of alternating(DEFAULT_RATE_LIMITS.signupPerAddress.points)) expect((await register(node)).status).toBe(201);
    for (const node of [a, b]) expectRefused(await register(node), MESSAGES.auth.tooManySignups);
  });
});
