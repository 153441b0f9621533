import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import { DEFAULT_RATE_LIMITS } from '../../src/middleware/rateLimit.js';
import { STRONG_PASSWORD, uniqueEmail } from '../factories.js';
import { ifSetUp } from '../hooks.js';
import { expectRateLimited } from '../rateLimited.js';
import { startCluster, type Cluster, type Node } from './cluster.js';

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
    for (const node of [a, b]) expectRateLimited(await spray(node), MESSAGES.auth.tooManyLoginsFromAddress);
  });

  it('spends one sign-up budget across both processes', async () => {
    const register = (node: Node) =>
      node.api.post('/auth/register', { name: 'Bulk Bob', email: uniqueEmail('bulk'), password: STRONG_PASSWORD });
    for (const node of alternating(DEFAULT_RATE_LIMITS.signupPerAddress.points)) expect((await register(node)).status).toBe(201);
    for (const node of [a, b]) expectRateLimited(await register(node), MESSAGES.auth.tooManySignups);
  });
});

describe('budgets taken before the work, across two processes behind one Redis', () => {
  let cluster: Cluster;
  let nodes: [Node, Node];
  /** TRUST_PROXY, so each test spends the budgets of an address of its own. */
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

  beforeAll(async () => {
    cluster = await startCluster({ env: { TRUST_PROXY: 'true' } });
    nodes = cluster.nodes as [Node, Node];
  });
  afterAll(() => ifSetUp(cluster)?.stop());

  it('checks only the sign-in budget of 30 parallel wrong guesses on one email spread over both', async () => {
    const { login } = DEFAULT_RATE_LIMITS;
    const email = uniqueEmail('guessed');
    const signup = await nodes[0].api.post(
      '/auth/register',
      { name: 'Guessed Gina', email, password: STRONG_PASSWORD },
      from('198.51.100.40'),
    );
    expect(signup.status).toBe(201);
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => nodes[i % 2]!.api.post('/auth/login', { email, password: 'Wrong123!' }, from('198.51.100.41'))),
    );
    expect(guesses.filter((r) => r.status === 401)).toHaveLength(login.points);
    expect(guesses.filter((r) => r.status === 429)).toHaveLength(30 - login.points);
    expectRateLimited(
      guesses.find((r) => r.status === 429)!,
      MESSAGES.auth.tooManyLogins,
    );
  });

  it('spends one bulk budget per person across both processes', async () => {
    const { bulkPerUser } = DEFAULT_RATE_LIMITS;
    const agent = await nodes[0].api.post(
      '/auth/register',
      { name: 'Bulk Agent', email: uniqueEmail('bulk-agent'), password: STRONG_PASSWORD, role: 'agent' },
      from('198.51.100.42'),
    );
    expect(agent.status).toBe(201);
    const token = agent.body.token as string;
    const ticket = await nodes[0].api.post('/tickets', { title: 'Printer jams', description: 'Every page since Monday.' }, { token });
    expect(ticket.status).toBe(201);
    const bulk = (node: Node, i: number) =>
      node.api.post(
        '/tickets/bulk',
        { ids: [ticket.body.ticket.id], changes: { priority: i % 2 ? 'low' : 'high' } },
        { token, ...from('198.51.100.43') },
      );
    for (let i = 0; i < bulkPerUser.points; i++) expect((await bulk(nodes[i % 2]!, i)).status).toBe(200);
    for (const node of nodes) expectRateLimited(await bulk(node, 0), MESSAGES.tickets.tooManyBulkChanges);
  });
});
