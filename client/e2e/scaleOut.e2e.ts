import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, signUp, STRONG_PASSWORD, type Account } from '../../server/test/factories';
import { startCluster, sharedServices, type Cluster } from '../../server/test/scaleout/cluster';
import { startTcpProxy, upstreamOf, type TcpProxy } from '../../server/test/tcpProxy';
import { builtClient, launchBrowser, logInThroughForm, openVisitor } from './harness';

/** Outside CI a machine without PostgreSQL and Redis skips this journey, and says so; CI never does. */
const shared = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
if (!shared && !process.env.CI) console.warn('scaleOut.e2e.ts skipped: set TEST_DATABASE_URL and TEST_REDIS_URL to run it.');

describe.runIf(shared || process.env.CI)('journey: two server processes serve one live product', () => {
  // Unset until beforeAll sets them: when that fails, afterAll has nothing to stop and must not mask the failure.
  let proxy: TcpProxy | undefined;
  let cluster: Cluster | undefined;
  let browser: Browser | undefined;
  let agent: Account;
  let owner: Account;

  beforeAll(async () => {
    // PostgreSQL sits behind a proxy so the second journey can take it away.
    const database = await startTcpProxy(upstreamOf(sharedServices().postgresUrl, 5432));
    proxy = database;
    [cluster, browser] = await Promise.all([
      startCluster({ databaseUrl: (direct) => database.url(direct), env: { CLIENT_DIR: builtClient() } }),
      launchBrowser(),
    ]);
    const a = cluster.nodes[0]!;
    agent = await signUp(a.api, { role: 'agent', name: 'Agent Bea' });
    owner = await signUp(a.api, { name: 'Owner Al' });
  });

  afterAll(async () => {
    await browser?.close();
    await cluster?.stop();
    await proxy?.close();
  });

  it('shows on a page served by one process what happens through the other', async () => {
    const [a, b] = cluster!.nodes as [Cluster['nodes'][number], Cluster['nodes'][number]];
    const agentView = await openVisitor(browser!, b.url, 'scale-out-agent');
    await logInThroughForm(agentView.page, agent.user.email, STRONG_PASSWORD, /\/agent-dashboard$/);
    const ownerView = await openVisitor(browser!, a.url, 'scale-out-owner');
    await logInThroughForm(ownerView.page, owner.user.email, STRONG_PASSWORD, /\/dashboard$/);

    // Raised through process A: the agent's queue, served by B, shows it without a refresh.
    const ticket = await createTicket(a.api, owner.token, { title: 'Laptop will not boot' });
    await agentView.page.getByRole('row').filter({ hasText: 'Laptop will not boot' }).waitFor();
    await agentView.shot('queue-on-b-after-create-on-a');

    // The agent starts it on B; the owner's page on A follows.
    await ownerView.page.goto(`/ticket/${ticket.id}`);
    await ownerView.page.getByRole('heading', { name: `#${ticket.id} Laptop will not boot` }).waitFor();
    await agentView.page.getByRole('button', { name: `Start ticket #${ticket.id}` }).click();
    await ownerView.page.locator('[data-status="in_progress"]').waitFor();
    await ownerView.page.getByText('Assigned to Agent Bea').first().waitFor();
    await ownerView.shot('detail-on-a-after-start-on-b');
    await Promise.all([agentView.context.close(), ownerView.context.close()]);
  });

  it('recovers by itself when the database was away, without a reload', async () => {
    const [a, b] = cluster!.nodes as [Cluster['nodes'][number], Cluster['nodes'][number]];
    const view = await openVisitor(browser!, b.url, 'scale-out-outage');
    await logInThroughForm(view.page, agent.user.email, STRONG_PASSWORD, /\/agent-dashboard$/);
    await view.page.getByRole('row').filter({ hasText: 'Laptop will not boot' }).waitFor();

    proxy!.cut();
    // Opening the page again while the database is away: the session and the queue are answers kept
    // since the last write (with the database away, no write can have changed them), so the page
    // loads; a question not asked before cannot, and says so.
    await view.page.reload();
    await view.page.getByRole('row').filter({ hasText: 'Laptop will not boot' }).waitFor();
    expect(view.page.url()).toMatch(/\/agent-dashboard$/);
    await view.page.getByRole('textbox', { name: 'Search' }).fill('outage');
    await view.page.getByText('Server error. Please try again later.').first().waitFor({ timeout: 30_000 });
    await view.shot('queue-while-database-away');
    await view.page.getByRole('textbox', { name: 'Search' }).fill('');

    proxy!.restore();
    // The live connection retries on its own; once back, the page re-reads what it shows.
    await view.page.getByRole('row').filter({ hasText: 'Laptop will not boot' }).waitFor({ timeout: 30_000 });
    const after = await createTicket(a.api, owner.token, { title: 'Monitor flickers after the outage' });
    await view.page.getByRole('row').filter({ hasText: after.title }).waitFor();
    await view.shot('queue-after-recovery');
    await view.context.close();
  });
});
