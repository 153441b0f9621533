import { sql as rawSqlTag } from 'drizzle-orm';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_KEYS, type User } from '@helpdesk/protocol';
import { logIn, signUp, TEST_ADMIN, type Account } from '../../server/test/factories';
import type { ApiClient } from '../../server/test/http';
import { startCluster, sharedServices, type Cluster } from '../../server/test/scaleout/cluster';
import type { TestServer } from '../../server/test/server';
import { startTcpProxy, upstreamOf, type TcpProxy } from '../../server/test/tcpProxy';
import { builtClient, launchBrowser, startProduct } from './harness';
import { differenceFromFreshLoad, settled } from './liveState';
import { CHANGES, makeChange, seeded, type Cast, type Person, type Random, type Tickets } from './seededChanges';

/**
 * Every open page equals a fresh load (docs/architecture.md#an-event), tried the way a busy desk
 * tries it: a seeded sequence of changes through the REST API, pages that lose their network for a
 * while, and with two processes one of them cut from Redis; at each checkpoint every open page is
 * compared with a fresh load of its address. Seeds come from LIVE_SEEDS / LIVE_SEEDS_SCALED
 * (comma-separated); a failure names its seed, so `LIVE_SEEDS=<seed>` replays it.
 */
const seedsOf = (value: string | undefined, fallback: number[]) => (value ? value.split(',').map(Number) : fallback);
// One seed on the embedded database, one on two processes (which adds Redis cuts to the network's):
// each seed costs CI about 50 s of its 30 minutes. More run with LIVE_SEEDS=11,22,33 / LIVE_SEEDS_SCALED=44,55.
// Seed 45 takes a ticket in an event that comes late, after a newer version of it: it failed in every
// run while the view counts skipped older versions (docs/decisions.md#the-change-pipeline).
const ONE_PROCESS_SEEDS = seedsOf(process.env.LIVE_SEEDS, [11]);
const TWO_PROCESS_SEEDS = seedsOf(process.env.LIVE_SEEDS_SCALED, [45]);
const CHANGES_PER_SEED = Number(process.env.LIVE_CHANGES ?? 30);
const CHECKPOINT_EVERY = 10;
/** How long an open page may take to settle on what a fresh load shows (events in flight, a reconnect's re-read). */
const CONVERGE_MS = 15_000;
const SEED_TIMEOUT_MS = 150_000;

const shared = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
if (!shared && !process.env.CI)
  console.warn('liveConsistency.e2e.ts: two-process seeds skipped; set TEST_DATABASE_URL and TEST_REDIS_URL.');

interface Node {
  url: string;
  api: ApiClient;
}

interface OpenPage {
  name: string;
  context: BrowserContext;
  page: Page;
}

const rawSql = (statement: string) => rawSqlTag.raw(statement);

const person = (account: Account): Person => ({ name: account.user.name, token: account.token, id: account.user.id });

/** A browser profile signed in as `account` (the session the login form would store), without the form. */
async function signedIn(browser: Browser, account: Account): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, reducedMotion: 'reduce' });
  context.setDefaultTimeout(20_000);
  await context.addInitScript(
    ({ keys, token, user }: { keys: typeof STORAGE_KEYS; token: string; user: User }) => {
      localStorage.setItem(keys.token, token);
      localStorage.setItem(keys.user, JSON.stringify(user));
    },
    { keys: STORAGE_KEYS, token: account.token, user: account.user },
  );
  return context;
}

async function open(context: BrowserContext, name: string, url: string): Promise<OpenPage> {
  const page = await context.newPage();
  await page.goto(url);
  await expect.poll(() => settled(page), { timeout: 20_000, interval: 100 }).toBe(true);
  return { name, context, page };
}

/** `count` public comments by `authorId` on a ticket, with their timeline entries, dated before the run. */
const earlierComments = (ticketId: number, authorId: number, count: number) => `
  with c as (
    insert into ticket_comments (ticket_id, author_id, content, internal, created_at)
    select ${ticketId}, ${authorId}, 'Earlier message ' || g, false, now() - interval '1 hour' + g * interval '1 second'
    from generate_series(1, ${count}) g
    returning id, created_at
  )
  insert into ticket_history (ticket_id, type, to_value, actor_id, internal, created_at)
  select ${ticketId}, 'comment', c.id::text, ${authorId}, false, c.created_at from c`;

interface Run {
  browser: Browser;
  nodes: Node[];
  /** Runs one SQL statement on the product's database, for data the API would take long to build. */
  sql: (statement: string) => Promise<unknown>;
  /** Cuts process 0 alone from Redis, and restores it; absent with one process. */
  redis?: TcpProxy;
}

async function runSeed(seed: number, { browser, nodes, sql, redis }: Run): Promise<void> {
  const random: Random = seeded(seed);
  const log: string[] = [];
  const began = Date.now();
  const contexts: BrowserContext[] = [];
  try {
    const api = (i: number) => nodes[i % nodes.length]!.api;
    const url = (i: number, path: string) => `${nodes[i % nodes.length]!.url}${path}`;
    const admin = await logIn(api(0), TEST_ADMIN.email, TEST_ADMIN.password);
    const tag = `${seed}-${Date.now() % 100_000}`;
    const agentAccounts = await Promise.all(
      ['Ava', 'Bo', 'Cy'].map((n) => signUp(api(0), { role: 'agent', name: `${n} ${tag}`, as: admin.token })),
    );
    const ownerAccounts = await Promise.all(['Uma', 'Vic'].map((n) => signUp(api(1), { name: `${n} ${tag}` })));
    const cast: Cast = { admin: person(admin), agents: agentAccounts.map(person), owners: ownerAccounts.map(person) };
    const [uma] = ownerAccounts as [Account, Account];

    // Tickets to start from, and views whose counts the dashboards show.
    const tickets: Tickets = { all: [], owners: new Map(), favoured: [], notified: new Set() };
    for (let i = 0; i < 6; i++) await makeChange('create', api(i), cast, tickets, random);
    const ava = agentAccounts[0]!;
    for (const [who, body] of [
      [ava, { name: `Open ${tag}`, filters: { status: 'open' } }],
      [ava, { name: `Printers ${tag}`, filters: { search: 'printer' } }],
      [admin, { name: `Urgent ${tag}`, filters: { priority: 'urgent' }, shared: true }],
    ] as const)
      expect((await api(0).post('/views', body, { token: who.token })).status).toBe(201);

    // The open pages: two agent dashboards, an agent's and the owner's ticket pages, the owner's dashboard.
    const umaTickets = [...tickets.owners].filter(([, owner]) => owner.id === uma.user.id).map(([id]) => id);
    const [ownerTicket = tickets.all[0]!, agentTicket = tickets.all[1]!] = umaTickets;
    tickets.favoured.push(ownerTicket, agentTicket);
    // The tickets on open pages start a few comments short of the 50 a detail carries, so the run
    // goes past that window.
    for (const id of [ownerTicket, agentTicket]) await sql(earlierComments(id, uma.user.id, 47));
    const [avaContext, boContext, cyContext, umaContext] = await Promise.all(
      [ava, agentAccounts[1]!, agentAccounts[2]!, uma].map((a) => signedIn(browser, a)),
    );
    contexts.push(avaContext!, boContext!, cyContext!, umaContext!);
    log.push(`set up in ${Date.now() - began} ms`);
    const pages: OpenPage[] = await Promise.all([
      open(avaContext!, 'Ava: agent dashboard', url(0, '/agent-dashboard')),
      open(boContext!, 'Bo: agent dashboard', url(1, '/agent-dashboard')),
      open(cyContext!, `Cy: ticket #${agentTicket}`, url(1, `/ticket/${agentTicket}`)),
      open(umaContext!, 'Uma: dashboard', url(1, '/dashboard')),
      open(umaContext!, `Uma: ticket #${ownerTicket}`, url(0, `/ticket/${ownerTicket}`)),
    ]);

    log.push(`pages open at ${Date.now() - began} ms`);
    let offline: BrowserContext | undefined;
    let redisCut = false;
    const restore = async () => {
      if (offline) await offline.setOffline(false);
      offline = undefined;
      if (redisCut) redis?.restore();
      redisCut = false;
    };
    const checkpoint = async (label: string) => {
      await restore();
      log.push(`-- checkpoint ${label}`);
      const started = Date.now();
      const differences = await Promise.all(pages.map((open) => differenceFromFreshLoad(open.context, open.page, CONVERGE_MS)));
      const found = pages.flatMap((open, i) => (differences[i] ? [`${open.name} (${open.page.url()}): ${differences[i]}`] : []));
      log.push(`   compared in ${Date.now() - started} ms`);
      if (found.length > 0)
        throw new Error(`at checkpoint ${label}, ${found.length} of ${pages.length} pages differ from a fresh load:\n${found.join('\n')}`);
    };

    /** Steps (within each stretch between checkpoints) when a disruption starts and ends. */
    const window = () => {
      const from = 1 + random.int(CHECKPOINT_EVERY - 3);
      return { from, to: from + 2 + random.int(3) };
    };
    let plan = { network: window(), redis: window() };
    for (let step = 1; step <= CHANGES_PER_SEED; step++) {
      const at = ((step - 1) % CHECKPOINT_EVERY) + 1;
      if (at === 1) plan = { network: window(), redis: window() };
      // In every stretch a page loses its network for a few changes, and process 0 loses Redis.
      if (at === plan.network.from && !offline) {
        offline = random.pick(contexts);
        await offline.setOffline(true);
        log.push(
          `network cut for ${pages
            .filter((p) => p.context === offline)
            .map((p) => p.name)
            .join(' and ')}`,
        );
      } else if (at === plan.network.to && offline) {
        await offline.setOffline(false);
        log.push('network back');
        // Something for that person's bell at once, while the page reads everything again.
        const back = cast.agents[[avaContext, boContext, cyContext].indexOf(offline)];
        offline = undefined;
        if (back) log.push(`   ${await makeChange('note', api(random.int(nodes.length)), cast, tickets, random, back)}`);
      }
      if (redis && at === plan.redis.from) {
        redis.cut();
        redisCut = true;
        log.push('process 0 cut from Redis');
      } else if (redis && at === plan.redis.to) {
        redis.restore();
        redisCut = false;
        log.push('process 0 back on Redis');
      }
      const via = random.int(nodes.length);
      log.push(
        `${step} at ${Date.now() - began} ms via ${via}: ${await makeChange(random.weighted(CHANGES), api(via), cast, tickets, random)}`,
      );
      if (at === CHECKPOINT_EVERY || step === CHANGES_PER_SEED) await checkpoint(String(step));
    }
    if (process.env.LIVE_VERBOSE) console.log(`seed ${seed}:\n${log.join('\n')}`);
  } catch (error) {
    throw new Error(
      `seed ${seed} failed (replay it with LIVE_SEEDS=${seed}${redis ? ` / LIVE_SEEDS_SCALED=${seed}` : ''}):\n${(error as Error).message}\nsteps:\n${log.join('\n')}`,
      { cause: error },
    );
  } finally {
    redis?.restore();
    await Promise.all(contexts.map((c) => c.close()));
  }
}

describe('journey: every open page equals a fresh load (randomized)', () => {
  describe('on one process', () => {
    let product: TestServer | undefined;
    let browser: Browser | undefined;
    beforeAll(async () => {
      [product, browser] = await Promise.all([startProduct({ AGENT_SIGNUP: 'open' }), launchBrowser()]);
    });
    afterAll(async () => {
      await browser?.close();
      await product?.close();
    });

    for (const seed of ONE_PROCESS_SEEDS)
      it(`seed ${seed}`, { timeout: SEED_TIMEOUT_MS }, () =>
        runSeed(seed, { browser: browser!, nodes: [product!], sql: (statement) => product!.server.database.db.execute(rawSql(statement)) }),
      );
  });

  describe.runIf(shared || process.env.CI)('on two processes, one of them cut from Redis now and then', () => {
    let browser: Browser | undefined;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
    });

    // A cluster of its own per seed: fresh data, and fresh per-address budgets (the processes run the production limits).
    for (const seed of TWO_PROCESS_SEEDS)
      it(`seed ${seed}`, { timeout: SEED_TIMEOUT_MS }, async () => {
        let redis: TcpProxy | undefined;
        let cluster: Cluster | undefined;
        try {
          redis = await startTcpProxy(upstreamOf(sharedServices().redisUrl, 6379));
          const proxy = redis;
          cluster = await startCluster({
            redisUrl: (direct, index) => (index === 0 ? proxy.url(direct) : direct),
            env: { CLIENT_DIR: builtClient() },
          });
          const database = new pg.Client({ connectionString: cluster.databaseUrl });
          await database.connect();
          try {
            await runSeed(seed, { browser: browser!, nodes: cluster.nodes, redis, sql: (statement) => database.query(statement) });
          } finally {
            await database.end();
          }
        } finally {
          await cluster?.stop();
          await redis?.close();
        }
      });
  });
});
