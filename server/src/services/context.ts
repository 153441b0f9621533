import type { Db } from '../db/client.js';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../lib/logger.js';
import type { TokenService } from '../lib/tokens.js';
import type { Mailer } from '../mail/transport.js';
import type { Settings } from '../settings.js';

/** What every service is built from; routes never see the database. */
export interface ServiceContext {
  db: Db;
  bus: EventBus;
  tokens: TokenService;
  mailer: Mailer;
  logger: Logger;
  settings: Pick<Settings, 'agentSignup' | 'publicUrl'>;
}

/** A PostgreSQL error code anywhere in the cause chain, whichever driver raised it. */
const hasPgCode = (error: unknown, code: string): boolean => {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
};
export const isUniqueViolation = (error: unknown) => hasPgCode(error, '23505');
/** The row referred to vanished meanwhile (e.g. a ticket deleted while a comment was being added). */
export const isForeignKeyViolation = (error: unknown) => hasPgCode(error, '23503');
