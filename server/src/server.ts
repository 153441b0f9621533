import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { isSlaTargetKind } from '@helpdesk/protocol';
import { createApp } from './app.js';
import { createAttachmentStore, type AttachmentStore } from './attachments/store.js';
import { ensureAdmin } from './startup/adminAccount.js';
import { openDatabase, type Database, type DatabaseTarget } from './db/client.js';
import { DatabaseInUseError } from './db/dbProcesses.js';
import { memoOff } from './db/tableVersions.js';
import { createAnnounceWrite, createUnitOfWork } from './db/unitOfWork.js';
import { seedDemo } from './startup/demoData.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { loadOrCreateJwtSecret } from './lib/jwtSecret.js';
import { createLogger, type Logger } from './lib/logger.js';
import { createTokenService, type TokenService } from './lib/tokens.js';
import { createOutboxSender, type OutboxSender } from './mail/outboxSender.js';
import { surveyMail } from './mail/surveyMail.js';
import { ticketMail } from './mail/ticketMail.js';
import { startImapIntake, type ImapIntake } from './mail/imapIntake.js';
import { startInboundSmtp, type InboundSmtp } from './mail/inboundSmtp.js';
import { startInboundWorker } from './mail/inboundWorker.js';
import { threadKeys } from './mail/threadAddress.js';
import { createMailTransport } from './mail/transport.js';
import { authentication } from './middleware/auth.js';
import { createLimiters, DEFAULT_RATE_LIMITS, memoryStore, redisStore, type RateLimitRules } from './middleware/rateLimit.js';
import { createMetrics, NO_METRICS } from './metrics/metrics.js';
import { startMetricsListener, type MetricsListener } from './metrics/metricsEndpoint.js';
import { queuedMailCount, ticketsByStatus } from './db/queries/systemFigures.js';
import { pendingDeliveryCount } from './db/queries/webhooks.js';
import { publishDomainEvents, type Publisher } from './realtime/publisher.js';
import { pushViewCounts } from './realtime/viewCountsPush.js';
import { attachPresence } from './realtime/presence.js';
import { memoryPresenceStore, redisPresenceStore } from './realtime/presenceStore.js';
import { attachRealtime, resyncLocalSockets, type RealtimeServer } from './realtime/server.js';
import { redisFanout, singleProcess, type Fanout } from './scaleout/fanout.js';
import { connectRedis, firstAttempt } from './scaleout/redis.js';
import { sharedVersions } from './scaleout/sharedVersions.js';
import { createServices, type Services } from './services/index.js';
import { createReadMemo } from './services/readMemo.js';
import { startSlaScanner, type SlaScanner } from './services/sla/scanner.js';
import type { Settings } from './settings.js';
import { queueWebhooks } from './webhooks/queueWebhooks.js';
import { recordFigures } from './reports/recordFigures.js';
import { createWebhookSender, type WebhookSender } from './webhooks/sender.js';

export const AGENT_SIGNUP_OPEN_WARNING =
  'AGENT_SIGNUP is open on a PostgreSQL deployment: anyone can sign up as a support agent and read every ticket. Set AGENT_SIGNUP=closed unless that is intended.';

export interface ServerOptions {
  logger?: Logger;
  /** Overrides where the data lives (tests use an in-memory PGlite). */
  database?: DatabaseTarget;
  rateLimits?: Partial<RateLimitRules>;
  /** The outbox sender's clock and poll (tests move the clock to reach retries). */
  mail?: { now?: () => Date; pollMs?: number };
  /** The webhook sender's clock, poll and attempt timeout (tests move the clock to reach retries). */
  webhooks?: { now?: () => Date; pollMs?: number; timeoutMs?: number };
}

export interface HelpdeskServer {
  httpServer: HttpServer;
  io: RealtimeServer;
  services: Services;
  /** The signer behind every session; tests mint sessions with it for accounts they insert directly. */
  tokens: TokenService;
  database: Database;
  /** Files by content and their rows; mail intake stores a mail's files through it. */
  attachments: AttachmentStore;
  bus: EventBus;
  /** The outbox sender: idle() resolves once every due mail was tried. */
  mailer: OutboxSender;
  /** The webhook sender: passOnce(now) sends what is due then; idle() waits for a nudged pass and its attempts. */
  webhooks: WebhookSender;
  logger: Logger;
  /** The port the inbound SMTP listener took, when INBOUND_SMTP_PORT is set. */
  inboundSmtpPort: number | undefined;
  /** The IMAP intake, when IMAP_URL is set. */
  imapIntake: ImapIntake | undefined;
  /** The SLA scanner: a pass every SLA_SCAN_INTERVAL_MS in whichever process holds its lock. */
  slaScanner: SlaScanner;
  /** The port of the metrics' own listener, when METRICS_PORT is set. */
  metricsPort: number | undefined;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** How long a start waits for Redis (to count this process in, and to connect) before going on without it. */
const JOIN_TIMEOUT_MS = 3_000;

/** Everything main.ts starts, minus process signals: database, services, HTTP, realtime, mail. */
export async function createServer(settings: Settings, options: ServerOptions = {}): Promise<HelpdeskServer> {
  const logger = options.logger ?? createLogger(settings.logLevel);
  const target: DatabaseTarget =
    options.database ??
    (settings.databaseUrl
      ? { kind: 'postgres', url: settings.databaseUrl, preparedStatements: settings.preparedStatements }
      : { kind: 'pglite', dataDir: path.join(settings.dataDir, 'pglite') });
  const database = await openDatabase(target);
  const processSlot = await database.claimProcess(!settings.redisUrl);
  if (!processSlot) {
    await database.close();
    throw new DatabaseInUseError(!settings.redisUrl);
  }
  logger.info({ database: database.kind }, 'database ready');
  if (settings.agentSignup === 'open' && settings.databaseUrl) logger.warn(AGENT_SIGNUP_OPEN_WARNING);

  const bus = createEventBus(logger);
  // Prometheus figures (docs/api.md#metrics), kept only when something may scrape them.
  const metrics =
    settings.metrics.token !== undefined || settings.metrics.port !== undefined
      ? createMetrics(logger, Object.keys(DEFAULT_RATE_LIMITS))
      : undefined;
  const recorder = metrics ?? NO_METRICS;
  // With several processes the table versions of kept answers live in Redis, so every write is seen
  // by every process's memo (scaleout/sharedVersions.ts); set before any service reads or writes.
  // With READ_MEMO=off nothing is kept here, but writes still bump, for the processes that keep.
  const memoRedis = settings.redisUrl ? connectRedis(settings.redisUrl, 'memo', logger) : undefined;
  if (memoRedis) {
    const versions = sharedVersions(memoRedis, settings.redisKeyPrefix);
    database.shareVersions(versions);
    // Joining bumps every table: were it to land after this process's first answers, the others
    // would drop answers kept across no write of theirs. Redis away at start: go on without it.
    await versions.joined?.(JOIN_TIMEOUT_MS);
  }
  const jwtSecret = settings.jwtSecret ?? loadOrCreateJwtSecret(settings.dataDir);
  const tokens = createTokenService(jwtSecret, settings.jwtTtlSeconds);
  const mailKeys = threadKeys(settings.supportAddress, settings.emailThreadSecret, jwtSecret);
  // Every unit of work writes the mail its events cause to the outbox before it commits, but for the
  // demo data: its accounts are made up, and mail about it would only fill the log at first start.
  const queueMail = ticketMail({ publicUrl: settings.publicUrl, mailFrom: settings.mailFrom, threadKeys: mailKeys });
  // And the webhook deliveries they cause (docs/api.md#webhooks), against the active endpoints kept
  // until a write to `webhooks`.
  const memoVersions = settings.readMemo ? database.versions() : memoOff;
  const queueDeliveries = queueWebhooks(createReadMemo({ memoVersions }, 1));
  // A resolution's survey and its mail (CSAT_ENABLED), in the resolution's transaction too.
  const issueSurveys = settings.csat.enabled
    ? surveyMail({
        publicUrl: settings.publicUrl,
        mailFrom: settings.mailFrom,
        threadKeys: mailKeys,
        tokenTtlDays: settings.csat.tokenTtlDays,
      })
    : undefined;
  let seeding = false;
  const withTransaction = createUnitOfWork(database.db, bus, async (tx, events, emit) => {
    // The reports' figures are written with every change, the demo data's too, so its reports show it.
    await recordFigures(tx, events);
    if (seeding) return;
    await queueMail(tx, events, emit);
    await queueDeliveries(tx, events, emit);
    await issueSurveys?.(tx, events, emit);
  });
  const attachments = createAttachmentStore(settings.attachments);
  const transport = createMailTransport({
    files: attachments,
    smtpUrl: settings.smtpUrl,
    outboxDir: path.join(settings.dataDir, 'outbox'),
    logger,
    timeoutMs: Math.min(60_000, Math.floor(settings.outboxClaimMs / 3)),
    connections: settings.outboxConcurrency,
  });
  const mailer = createOutboxSender({
    db: database.db,
    withTransaction,
    transport,
    logger,
    claimMs: settings.outboxClaimMs,
    concurrency: settings.outboxConcurrency,
    metrics: recorder,
    pollMs: options.mail?.pollMs ?? Math.min(10_000, Math.floor(settings.outboxClaimMs / 2)),
    ...(options.mail?.now && { now: options.mail.now }),
  });
  const stopNudging = bus.subscribe('mail.queued', () => mailer.nudge());
  const webhooks = createWebhookSender({
    db: database.db,
    withTransaction,
    logger,
    rules: settings.webhooks,
    metrics: recorder,
    // Attempts at once to one endpoint (endpoints are sent to side by side). One statement at a time
    // on PGlite: more would mostly queue there.
    concurrency: database.kind === 'pglite' ? 1 : 4,
    pollMs: options.webhooks?.pollMs ?? 10_000,
    ...(options.webhooks?.now && { now: options.webhooks.now }),
    ...(options.webhooks?.timeoutMs !== undefined && { timeoutMs: options.webhooks.timeoutMs }),
  });
  const stopNudgingWebhooks = bus.subscribe('webhook.queued', () => webhooks.nudge());
  const services = createServices({
    attachments,
    db: database.db,
    plannedDb: database.planned,
    withTransaction,
    announceWrite: createAnnounceWrite(database.db, bus),
    memoVersions,
    sessionVersions: database.versions(),
    tokens,
    mailer,
    threadKeys: mailKeys,
    logger,
    metrics: recorder,
    settings,
    singleConnection: database.kind === 'pglite',
  });

  await database.withStartupLock(async () => {
    seeding = true;
    try {
      if (settings.seedDemo && (await seedDemo(database.db, services))) logger.info('demo data seeded');
    } finally {
      seeding = false;
    }
    if (settings.admin) await ensureAdmin(database.db, settings.admin, logger);
  });

  // Several processes share Redis (REDIS_URL, docs/api.md#server-settings); one process keeps everything in memory.
  const redis = settings.redisUrl
    ? {
        events: connectRedis(settings.redisUrl, 'events', logger),
        limits: connectRedis(settings.redisUrl, 'rate-limits', logger),
        presence: connectRedis(settings.redisUrl, 'presence', logger),
      }
    : undefined;
  if (redis) await Promise.all(Object.values(redis).map((connection) => firstAttempt(connection, JOIN_TIMEOUT_MS)));
  const fanout = redis ? redisFanout(redis.events, redis.presence, settings.redisKeyPrefix) : singleProcess();
  // Budgets shared by every process: the rate limits, and the slots of the view-count pushes.
  const budgets = redis ? redisStore(redis.limits, settings.redisKeyPrefix) : memoryStore;
  const limiters = createLimiters({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits }, budgets, (name) => recorder.rateLimited(name));

  // Mail intake (docs/api.md#email-intake): the listener stores and queues, the worker files.
  const intakeOn = settings.inbound.smtpPort !== undefined || settings.inbound.imap !== undefined;
  // Filing loops: PostgreSQL files several messages at once on its pool; PGlite runs one statement at a time.
  const filingLoops = settings.inbound.concurrency ?? (database.kind === 'postgres' ? 4 : 1);
  const inboundWorker = intakeOn ? startInboundWorker(services.inbound, logger, filingLoops) : undefined;
  let inboundSmtp: InboundSmtp | undefined;
  if (settings.inbound.smtpPort !== undefined) {
    inboundSmtp = await startInboundSmtp(
      services.inbound,
      {
        host: settings.inbound.smtpHost,
        port: settings.inbound.smtpPort,
        maxBytes: settings.inbound.maxBytes,
        supportAddress: settings.supportAddress,
      },
      logger,
    );
  }
  const imapIntake = settings.inbound.imap
    ? startImapIntake(services.inbound, database, { ...settings.inbound.imap, supportAddress: settings.supportAddress }, logger)
    : undefined;

  const app = createApp({
    services,
    auth: authentication(services.accounts, services.apiTokens, limiters),
    limiters,
    settings,
    database,
    inboundSmtpPort: inboundSmtp?.port,
    logger,
    trustProxy: settings.trustProxy,
    clientDir: settings.clientDir,
    metrics,
    metricsToken: settings.metrics.token,
  });
  const handle = app.callback();
  const httpServer = createHttpServer((req, res) => void handle(req, res));
  const io = attachRealtime(httpServer, services.accounts, fanout, logger, {
    maxSocketsPerUser: settings.maxSocketsPerUser,
    maxAnonymousSocketsPerAddress: settings.maxAnonymousSocketsPerAddress,
    trustProxy: settings.trustProxy,
  });
  const publisher = publishDomainEvents(io, bus, fanout);
  metrics?.readFrom({
    socketConnections: () => io.engine.clientsCount,
    ticketsByStatus: () => ticketsByStatus(database.db),
    outboxDepth: () => queuedMailCount(database.db),
    webhookQueueDepth: () => pendingDeliveryCount(database.db),
  });
  // Counted where the mark committed, so each breach once whichever process's scanner made it.
  const stopCountingBreaches = bus.subscribe('sla.changed', ({ history = [] }) => {
    for (const { type, from, to } of history) if (type === 'sla' && to === 'breached' && isSlaTargetKind(from)) recorder.slaBreached(from);
  });
  let metricsListener: MetricsListener | undefined;
  if (metrics && settings.metrics.port !== undefined) {
    metricsListener = await startMetricsListener(
      metrics,
      { port: settings.metrics.port, host: settings.host, token: settings.metrics.token },
      logger,
    );
  }
  fanout.onResume(() => void resume(io, fanout, publisher));
  const stopPushingCounts = pushViewCounts(io, bus, fanout, services.views, budgets, logger);
  const presence = attachPresence(
    io,
    redis
      ? redisPresenceStore(redis.presence, settings.redisKeyPrefix, settings.presenceTtlMs)
      : memoryPresenceStore(settings.presenceTtlMs),
    (actor, ticketId) => services.tickets.canRead(actor, ticketId),
    fanout,
    logger,
    { ttlMs: settings.presenceTtlMs },
  );
  // Mail left by a previous run or another process is sent from now on, not only after a new change.
  mailer.start();
  webhooks.start();
  const slaScanner = startSlaScanner(database, services.slaScan, settings.slaScanIntervalMs, logger);
  // Unused uploads older than a day, and files no row names, go hourly (docs/api.md#attachments).
  const sweeping = setInterval(() => {
    attachments.sweep(database.db).then(
      (swept) => logger.debug(swept, 'attachments swept'),
      (err: unknown) => logger.warn({ err }, 'attachment sweep failed'),
    );
  }, ATTACHMENT_SWEEP_MS);
  sweeping.unref();

  let closing: Promise<void> | undefined;
  const shutdown = async () => {
    publisher.stop();
    clearInterval(sweeping);
    stopPushingCounts();
    stopNudging();
    stopNudgingWebhooks();
    stopCountingBreaches();
    await metricsListener?.close();
    presence.stop();
    await slaScanner.stop();
    await services.slaReapply.idle();
    // Mail first: nothing new is accepted, and the message being filed is finished.
    await inboundSmtp?.close();
    await imapIntake?.stop();
    await inboundWorker?.stop();
    const drained = new Promise<void>((resolve) => httpServer.once('close', () => resolve()));
    // Sockets and the Redis adapter first (io.close also stops the HTTP server accepting): open
    // sockets would keep the HTTP server from closing.
    void io.close();
    httpServer.closeIdleConnections();
    const forced = setTimeout(() => httpServer.closeAllConnections(), settings.shutdownTimeoutMs);
    await drained;
    clearTimeout(forced);
    redis?.events.disconnect();
    redis?.limits.disconnect();
    redis?.presence.disconnect();
    // What is not sent by then stays queued for the next run or another process.
    await Promise.race([
      Promise.all([mailer.stop(), webhooks.stop()]),
      new Promise((r) => setTimeout(r, settings.shutdownTimeoutMs).unref()),
    ]);
    transport.close();
    // A connection lost in an outage can keep the pool from ending; shutdown still ends in time.
    const closed = await Promise.race([
      database.close().then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), settings.shutdownTimeoutMs).unref()),
    ]);
    if (!closed) logger.warn('database connections did not close in time; leaving them to the process exit');
    await processSlot.release();
    // Only once no write can end any more: each one bumps through this connection.
    await database.versions().stop?.();
    memoRedis?.disconnect();
    logger.info('server stopped');
  };

  return {
    httpServer,
    io,
    services,
    tokens,
    database,
    attachments,
    bus,
    mailer,
    webhooks,
    logger,
    inboundSmtpPort: inboundSmtp?.port,
    imapIntake,
    slaScanner,
    metricsPort: metricsListener?.port,
    listen(port = settings.port, host = settings.host) {
      return new Promise((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          const { port: bound } = httpServer.address() as AddressInfo;
          resolve(`http://127.0.0.1:${bound}`);
        });
      });
    },
    close: () => (closing ??= shutdown()),
  };
}

const ATTACHMENT_SWEEP_MS = 60 * 60 * 1000;

/** How long a process back on Redis waits to have read what the others emitted meanwhile. */
const CATCH_UP_TIMEOUT_MS = 10_000;

/**
 * Redis is back after an outage (docs/architecture.md#an-event). The other processes' clients get
 * what this process emitted to its own sockets alone meanwhile, marked late (past the held-back
 * bound they re-read instead). This process's clients get what the others emitted meanwhile from the
 * stream, where the adapter reads on from where it stopped; once that is all delivered they re-read
 * once, so nothing older can reach them after their read.
 */
async function resume(io: RealtimeServer, fanout: Fanout, publisher: Publisher): Promise<void> {
  if (!publisher.replayHeldBack()) io.serverSideEmit('resync');
  await fanout.caughtUp(CATCH_UP_TIMEOUT_MS);
  resyncLocalSockets(io);
}
