import type { AttachmentStore } from '../attachments/store.js';
import type { Db } from '../db/client.js';
import type { TableVersions } from '../db/tableVersions.js';
import type { AnnounceWrite, UnitOfWork } from '../db/unitOfWork.js';
import type { Logger } from '../lib/logger.js';
import type { MetricsRecorder } from '../metrics/metrics.js';
import type { TokenService } from '../lib/tokens.js';
import type { ThreadKeys } from '../mail/threadAddress.js';
import type { OutboxSender } from '../mail/outboxSender.js';
import type { Settings } from '../settings.js';

/** What every service is built from; routes never see the database. */
export interface ServiceContext {
  /** Reads, and writes that announce nothing. */
  db: Db;
  /**
   * The same database for reads whose best plan does not depend on their values, each statement
   * planned once per connection (db/plannedStatements.ts); its LIMITs go in the text (literalLimit).
   */
  plannedDb: Db;
  /** The only way to announce a change: events are published after the commit. There is no bus here on purpose. */
  withTransaction: UnitOfWork;
  /** A write of one statement outside a transaction, announced once it returned (unitOfWork.ts). */
  announceWrite: AnnounceWrite;
  /** The table versions that answers kept by services/readMemo.ts are compared by (this process's, or Redis's). */
  memoVersions: TableVersions;
  /**
   * The versions a signed-in account's session row is kept by: the database's always, even with
   * READ_MEMO=off. That switch measures questions answered anew; the session row is no answer, and
   * every revocation is a write to users, which drops it at once (docs/decisions.md#round-trips-cost-more-than-the-queries).
   */
  sessionVersions: TableVersions;
  tokens: TokenService;
  /** Background work that queues mail after the answer (mail/outboxSender.ts). */
  mailer: Pick<OutboxSender, 'later'>;
  /** Signs and reads the plus-address that threads a ticket's mail (mail/threadAddress.ts). */
  threadKeys: ThreadKeys;
  logger: Logger;
  /** What the services count as it happens (metrics/metrics.ts); NO_METRICS when metrics are off. */
  metrics: MetricsRecorder;
  settings: Pick<
    Settings,
    | 'agentSignup'
    | 'publicUrl'
    | 'redisUrl'
    | 'mailFrom'
    | 'attachments'
    | 'dataDir'
    | 'supportAddress'
    | 'inbound'
    | 'webhooks'
    | 'reportTimeZone'
  >;
  /** Files by content under ATTACHMENT_DIR, and their rows (attachments/store.ts). */
  attachments: AttachmentStore;
  /** One query at a time (PGlite): background work pauses between its batches so requests get a turn. */
  singleConnection?: boolean;
}
