/**
 * EXPLAIN for the scale bench: the statements the services issue for a question, captured by a
 * Drizzle logger on a connection of the bench's own, then EXPLAIN (ANALYZE, BUFFERS) with the same
 * parameters. Run after the servers have stopped, on the slowest question each chosen call asked.
 */
import os from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { articleListQuery, notificationListQuery, ticketFiltersQuery, ticketListQuery } from '@helpdesk/protocol';
import type { Db } from '../src/db/client.js';
import * as schema from '../src/db/schema/index.js';
import { memoOff } from '../src/db/tableVersions.js';
import { createAnnounceWrite } from '../src/db/unitOfWork.js';
import type { Actor } from '../src/lib/actor.js';
import { NO_METRICS } from '../src/metrics/metrics.js';
import { createLogger } from '../src/lib/logger.js';
import { createTokenService } from '../src/lib/tokens.js';
import { parseInput } from '../src/lib/validation.js';
import type { AttachmentStore } from '../src/attachments/store.js';
import { parseSettings } from '../src/settings.js';
import type { OutboxSender } from '../src/mail/outboxSender.js';
import { createServices, type Services } from '../src/services/index.js';
import type { Place } from './scaleDataset.js';
import type { Question } from './scaleQuestions.js';
import { KIND, ms, TICKETS } from './scaleSettings.js';
import { BENCH_JWT_SECRET } from './servers.js';
import { markdownTable } from './support.js';

interface Captured {
  query: string;
  params: unknown[];
  /** Sent through plannedDb: explained with the generic plan it runs with. */
  planned: boolean;
}

interface Explainer {
  services: Services;
  captured: Captured[];
  explain(statement: Captured): Promise<string>;
  close(): Promise<void>;
}

async function openExplainer(place: Place): Promise<Explainer> {
  const captured: Captured[] = [];
  const logger = (planned: boolean) => ({
    logQuery: (query: string, params: unknown[]) => void captured.push({ query, params, planned }),
  });
  let db: Db;
  let plannedDb: Db;
  let run: (statement: Captured) => Promise<Record<string, unknown>[]>;
  let close: () => Promise<void>;
  if (place.target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: place.target.url, max: 2 });
    // An unnamed statement is planned generically too under this setting, as the named ones run.
    const generic = new pg.Pool({ connectionString: place.target.url, max: 2, options: '-c plan_cache_mode=force_generic_plan' });
    db = drizzlePg({ client: pool, schema, logger: logger(false) });
    plannedDb = drizzlePg({ client: generic, schema, logger: logger(true) });
    run = async ({ query, params, planned }) => (await (planned ? generic : pool).query(query, params)).rows;
    close = async () => {
      await Promise.all([pool.end(), generic.end()]);
    };
  } else {
    const client = await PGlite.create(place.target.dataDir, { extensions: { pg_trgm } });
    db = drizzlePglite({ client, schema, logger: logger(false) });
    plannedDb = db;
    run = async ({ query, params }) => (await client.query<Record<string, unknown>>(query, params)).rows;
    close = () => client.close();
  }
  const services = createServices({
    db,
    plannedDb,
    withTransaction: () => Promise.reject(new Error('the scale bench only reads')),
    // Opening a ticket marks it read, as the server does; nobody listens for the announcement.
    announceWrite: createAnnounceWrite(db, { publish: () => undefined }),
    memoVersions: memoOff,
    sessionVersions: memoOff,
    tokens: createTokenService(BENCH_JWT_SECRET, 3600),
    mailer: undefined as unknown as OutboxSender,
    threadKeys: { supportAddress: 'support@helpdesk.local', secret: BENCH_JWT_SECRET },
    logger: createLogger('silent'),
    metrics: NO_METRICS,
    settings: {
      ...parseSettings({ DATA_DIR: os.tmpdir() }),
      agentSignup: 'closed',
      publicUrl: 'http://localhost',
      redisUrl: undefined,
      mailFrom: 'bench@helpdesk.local',
      attachments: { maxBytes: 1, maxCount: 1, dir: '/nonexistent' },
    },
    attachments: undefined as unknown as AttachmentStore,
  });
  return {
    services,
    captured,
    async explain(statement) {
      // The services' own EXPLAIN (a count estimated above its cap) is shown as the plan it asks for.
      if (/^\s*explain\b/i.test(statement.query)) return (await run(statement)).map((r) => JSON.stringify(Object.values(r)[0])).join('\n');
      const rows = await run({ ...statement, query: `explain (analyze, buffers) ${statement.query}` });
      return rows.map((r) => String(Object.values(r)[0])).join('\n');
    },
    close,
  };
}

/** Runs what the route of `path` runs, through the services, for the signed-in `actor`. */
async function invoke(services: Services, actor: Actor | undefined, path: string): Promise<void> {
  const url = new URL(path, 'http://bench');
  const query = Object.fromEntries(url.searchParams);
  const id = /^\/api\/(?:tickets|knowledge)\/(\d+)$/.exec(url.pathname)?.[1];
  if (url.pathname === '/api/tickets') await services.tickets.list(actor!, parseInput(ticketListQuery, query));
  else if (url.pathname === '/api/tickets/stats') await services.tickets.stats(actor!, parseInput(ticketFiltersQuery, query));
  else if (url.pathname.startsWith('/api/tickets/') && id) await services.tickets.get(actor!, Number(id));
  else if (url.pathname === '/api/views/counts') await services.views.counts(actor!);
  else if (url.pathname === '/api/notifications')
    await services.notifications.list(actor!, parseInput(notificationListQuery, query).unread);
  else if (url.pathname === '/api/knowledge') await services.knowledge.list(parseInput(articleListQuery, query));
}

const executionMs = (plan: string) => Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN);

export async function explainSlowest(
  place: Place,
  chosen: { name: string; ms: number; question: Question }[],
  tokens: Map<number, string>,
  version: string,
): Promise<string> {
  const explainer = await openExplainer(place);
  const out: string[] = [
    `EXPLAIN (ANALYZE, BUFFERS) of the statements the services issue, ${place.label}, ${KIND === 'postgres' ? 'PostgreSQL' : 'PGlite'} ${version}, ${TICKETS} tickets`,
  ];
  const summary: string[][] = [];
  try {
    for (const { name, ms: took, question } of chosen) {
      const session = question.userId ? await explainer.services.accounts.resolveSession(tokens.get(question.userId)!) : undefined;
      explainer.captured.length = 0;
      await invoke(explainer.services, session?.actor, question.path);
      const statements = [...explainer.captured];
      out.push(`\n=== ${name}: its slowest question, ${ms(took)} ms under load — GET ${question.path} as user #${question.userId ?? '-'}`);
      for (const [i, statement] of statements.entries()) {
        const plan = await explainer.explain(statement);
        summary.push([
          name,
          `#${i + 1}${statement.planned ? ' (planned)' : ''} ${statement.query.replace(/\s+/g, ' ').slice(0, 70)}`,
          ms(executionMs(plan)),
        ]);
        out.push(`\n-- statement ${i + 1} of ${statements.length}`);
        out.push(`-- ${statement.query}`);
        out.push(`-- params: ${JSON.stringify(statement.params).slice(0, 400)}`);
        out.push(plan);
      }
    }
  } finally {
    await explainer.close();
  }
  return [
    out[0]!,
    '\nexecution time per statement (EXPLAIN ANALYZE, warm cache):',
    markdownTable(['call', 'statement', 'exec ms'], summary),
    ...out.slice(1),
  ].join('\n');
}
