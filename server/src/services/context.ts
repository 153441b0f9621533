import type { AttachmentStore } from '../attachments/store.js';
import type { Db } from '../db/client.js';
import type { UnitOfWork } from '../db/unitOfWork.js';
import type { Logger } from '../lib/logger.js';
import type { TokenService } from '../lib/tokens.js';
import type { ThreadKeys } from '../mail/threadAddress.js';
import type { Mailer } from '../mail/transport.js';
import type { Settings } from '../settings.js';

/** What every service is built from; routes never see the database. */
export interface ServiceContext {
  /** Reads, and writes that announce nothing. */
  db: Db;
  /** The only way to announce a change: events are published after the commit. There is no bus here on purpose. */
  withTransaction: UnitOfWork;
  /** Writes this process has ended so far; answers kept by services/readMemo.ts are keyed by it. */
  writesEnded: () => number;
  tokens: TokenService;
  mailer: Mailer;
  /** Signs and reads the plus-address that threads a ticket's mail (mail/threadAddress.ts). */
  threadKeys: ThreadKeys;
  logger: Logger;
  settings: Pick<Settings, 'agentSignup' | 'publicUrl' | 'redisUrl' | 'attachments' | 'dataDir' | 'supportAddress' | 'inbound'>;
  /** Files by content under ATTACHMENT_DIR, and their rows (attachments/store.ts). */
  attachments: AttachmentStore;
}
