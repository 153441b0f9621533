import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp } from './app.js';
import { createAttachmentStore, type AttachmentStore } from './attachments/store.js';
import { ensureAdmin } from './startup/adminAccount.js';
import { openDatabase, type Database, type DatabaseTarget } from './db/client.js';
import { createUnitOfWork } from './db/unitOfWork.js';
import { seedDemo } from './startup/demoData.js';
import { createEventBus, type EventBus } from './events/bus.js';
import { loadOrCreateJwtSecret } from './lib/jwtSecret.js';
import { createLogger, type Logger } from './lib/logger.js';
import { createTokenService, type TokenService } from './lib/tokens.js';
import { startImapIntake, type ImapIntake } from './mail/imapIntake.js';
import { startInboundSmtp, type InboundSmtp } from './mail/inboundSmtp.js';
import { startInboundWorker } from './mail/inboundWorker.js';
import { subscribeTicketNotifications } from './mail/notifier.js';
import { threadKeys } from './mail/threadAddress.js';
import { createMailer, type Mailer } from './mail/transport.js';
import { authentication } from './middleware/auth.js';
import { createLimiters, DEFAULT_RATE_LIMITS, memoryStore, redisStore, type RateLimitRules } from './middleware/rateLimit.js';
import { publishDomainEvents, type Publisher } from './realtime/publisher.js';
import { pushViewCounts } from './realtime/viewCountsPush.js';
import { attachPresence } from './realtime/presence.js';
import { memoryPresenceStore, redisPresenceStore } from './realtime/presenceStore.js';
import { attachRealtime, resyncLocalSockets, type RealtimeServer } from './realtime/server.js';
import { redisFanout, singleProcess, type Fanout } from './scaleout/fanout.js';
import { connectRedis } from './scaleout/redis.js';
import { createServices, type Services } from './services/index.js';
import type { Settings } from './settings.js';

export const AGENT_SIGNUP_OPEN_WARNING =
  'AGENT_SIGNUP is open on a PostgreSQL deployment: anyone can sign up as a support agent and read every ticket. Set AGENT_SIGNUP=closed unless that is intended.';

export interface ServerOptions {
  logger?: Logger;
  /** Overrides where the data lives (tests use an in-memory PGlite). */
  database?: DatabaseTarget;
  rateLimits?: Partial<RateLimitRules>;
  mailRetry?: { retries: number; minTimeoutMs: number };
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
  mailer: Mailer;
  logger: Logger;
  /** The port the inbound SMTP listener took, when INBOUND_SMTP_PORT is set. */
  inboundSmtpPort: number | undefined;
  /** The IMAP intake, when IMAP_URL is set. */
  imapIntake: ImapIntake | undefined;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** Everything main.ts starts, minus process signals: database, services, HTTP, realtime, mail. */
export async function createServer(settings: Settings, options: ServerOptions = {}): Promise<HelpdeskServer> {
  const logger = options.logger ?? createLogger(settings.logLevel);
  const target: DatabaseTarget =
    options.database ??
    (settings.databaseUrl
      ? { kind: 'postgres', url: settings.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(settings.dataDir, 'pglite') });
  const database = await openDatabase(target);
  logger.info({ database: database.kind }, 'database ready');
  if (settings.agentSignup === 'open' && settings.databaseUrl) logger.warn(AGENT_SIGNUP_OPEN_WARNING);

  const bus = createEventBus(logger);
  const mailer = createMailer({
    smtpUrl: settings.smtpUrl,
    from: settings.mailFrom,
    outboxDir: path.join(settings.dataDir, 'outbox'),
    logger,
    ...(options.mailRetry && { retries: options.mailRetry.retries, retryMinTimeoutMs: options.mailRetry.minTimeoutMs }),
  });
  const jwtSecret = settings.jwtSecret ?? loadOrCreateJwtSecret(settings.dataDir);
  const tokens = createTokenService(jwtSecret, settings.jwtTtlSeconds);
  const attachments = createAttachmentStore(settings.attachments);
  const services = createServices({
    attachments,
    db: database.db,
    withTransaction: createUnitOfWork(database.db, bus),
    writesEnded: database.writesEnded,
    tokens,
    mailer,
    threadKeys: threadKeys(settings.supportAddress, settings.emailThreadSecret, jwtSecret),
    logger,
    settings,
  });

  await database.withStartupLock(async () => {
    if (settings.seedDemo && (await seedDemo(database.db, services))) logger.info('demo data seeded');
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
  const fanout = redis ? redisFanout(redis.events, settings.redisKeyPrefix) : singleProcess;
  // Budgets shared by every process: the rate limits, and the slots of the view-count pushes.
  const budgets = redis ? redisStore(redis.limits, settings.redisKeyPrefix) : memoryStore;
  const limiters = createLimiters({ ...DEFAULT_RATE_LIMITS, ...options.rateLimits }, budgets);

  // Mail intake (docs/api.md#email-intake): the listener stores and queues, the worker files.
  const intakeOn = settings.inbound.smtpPort !== undefined || settings.inbound.imap !== undefined;
  const inboundWorker = intakeOn ? startInboundWorker(services.inbound, logger, database.kind === 'postgres' ? 2 : 1) : undefined;
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
    auth: authentication(services.accounts),
    limiters,
    settings,
    database,
    inboundSmtpPort: inboundSmtp?.port,
    logger,
    trustProxy: settings.trustProxy,
    clientDir: settings.clientDir,
  });
  const handle = app.callback();
  const httpServer = createHttpServer((req, res) => void handle(req, res));
  const io = attachRealtime(httpServer, services.accounts, fanout, logger, {
    maxSocketsPerUser: settings.maxSocketsPerUser,
    maxAnonymousSocketsPerAddress: settings.maxAnonymousSocketsPerAddress,
    trustProxy: settings.trustProxy,
  });
  const publisher = publishDomainEvents(io, bus, fanout);
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
  const stopNotifying = subscribeTicketNotifications({ db: database.db, bus, mailer, publicUrl: settings.publicUrl });

  let closing: Promise<void> | undefined;
  const shutdown = async () => {
    publisher.stop();
    stopPushingCounts();
    stopNotifying();
    presence.stop();
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
    await Promise.race([mailer.idle(), new Promise((r) => setTimeout(r, settings.shutdownTimeoutMs).unref())]);
    mailer.close();
    await database.close();
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
    logger,
    inboundSmtpPort: inboundSmtp?.port,
    imapIntake,
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
