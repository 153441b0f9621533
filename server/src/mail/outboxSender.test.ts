import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuedMails } from '../../test/factories.js';
import { createAttachmentStore } from '../attachments/store.js';
import { openDatabase, type Database } from '../db/client.js';
import { emailOutbox } from '../db/schema/index.js';
import { createUnitOfWork } from '../db/unitOfWork.js';
import { createLogger } from '../lib/logger.js';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { ifSetUp } from '../../test/hooks.js';
import { startMailReceiver, type MailReceiver } from '../../test/mailReceiver.js';
import { createOutboxSender } from './outboxSender.js';
import { createMailTransport, type MailTransport } from './transport.js';

const MAILS = 60;
const logger = createLogger('silent');
/** These mails carry no files. */
const noFiles = createAttachmentStore({ dir: '/nonexistent', maxBytes: 1 });

describe('two outbox senders on one database (docs/api.md#email)', () => {
  let testDb: TestDatabase;
  let databases: Database[];
  let smtp: MailReceiver;
  const transports: MailTransport[] = [];

  beforeAll(async () => {
    // Each accepted mail takes a moment, so both senders are busy at the same time.
    smtp = await startMailReceiver({ beforeAccept: () => new Promise((resolve) => setTimeout(resolve, 5)) });
    testDb = await createTestDatabase();
    const first = await openDatabase(testDb.target);
    // PostgreSQL: a second pool, as a second process would have. PGlite lives in one process only.
    databases = [first, testDb.target.kind === 'postgres' ? await openDatabase(testDb.target) : first];
  });
  afterAll(async () => {
    transports.forEach((t) => t.close());
    for (const database of new Set(ifSetUp(databases) ?? [])) await database.close();
    await ifSetUp(testDb)?.drop();
    await ifSetUp(smtp)?.close();
  });

  /** A transport to the test's SMTP receiver, closed after the suite. */
  const smtpTransport = () => {
    const transport = createMailTransport({
      smtpUrl: smtp.url,
      outboxDir: '/nonexistent',
      logger,
      timeoutMs: 10_000,
      connections: 1,
      files: noFiles,
    });
    transports.push(transport);
    return transport;
  };

  /** A sender that runs only when nudged (no polling). */
  const senderOn = (database: Database, transport: MailTransport, options: { batchSize?: number; now?: () => Date } = {}) =>
    createOutboxSender({
      db: database.db,
      withTransaction: createUnitOfWork(database.db, { publish: () => {} }),
      transport,
      logger,
      claimMs: 60_000,
      pollMs: 3_600_000,
      ...options,
    });

  it('sends every mail exactly once, each claimed by one sender (FOR UPDATE SKIP LOCKED)', async () => {
    const [db] = databases as [Database];
    await db.db.insert(emailOutbox).values(queuedMails('skip-locked', MAILS));
    const sentBy = [0, 0];
    const senders = databases.map((database, index) => {
      const transport = smtpTransport();
      const counting: MailTransport = {
        deliver: async (mail) => {
          await transport.deliver(mail);
          sentBy[index]! += 1;
        },
        close: () => transport.close(),
      };
      return senderOn(database, counting, { batchSize: 5 });
    });
    senders.forEach((s) => s.nudge());
    await Promise.all(senders.map((s) => s.idle()));

    const ids = smtp.mails.map((m) => m.messageId);
    expect(ids).toHaveLength(MAILS);
    expect(new Set(ids).size).toBe(MAILS);
    expect(sentBy[0]! + sentBy[1]!).toBe(MAILS);
    const rows = await db.db.select().from(emailOutbox);
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1 && r.claimedUntil === null)).toBe(true);
    // On PostgreSQL the two really worked side by side (on PGlite they share one connection).
    if (testDb.target.kind === 'postgres') expect(sentBy.every((n) => n > 0)).toBe(true);
  });

  it('a mail queued within the current millisecond is due (the database stamps microseconds)', async () => {
    const [db] = databases as [Database];
    await db.db.delete(emailOutbox);
    const [mail] = queuedMails('same-ms', 1);
    await db.db.insert(emailOutbox).values({ ...mail!, nextAttemptAt: sql`'2030-01-01 00:00:00.000500+00'::timestamptz` });
    const transport = smtpTransport();
    const sender = senderOn(db, transport, { now: () => new Date('2030-01-01T00:00:00.000Z') });
    sender.nudge();
    await sender.idle();
    await sender.stop();
    const [row] = await db.db.select().from(emailOutbox);
    expect(row?.status).toBe('sent');
  });

  it('on stop, finishes the mail in hand and gives the rest of its batch back at once', async () => {
    const [db] = databases as [Database];
    await db.db.delete(emailOutbox);
    await db.db.insert(emailOutbox).values(queuedMails('stop', 10, { to: 'stop', subject: 'Stop' }));
    const transport = smtpTransport();
    let stopping: Promise<void> | undefined;
    const sender = senderOn(
      db,
      {
        deliver: async (mail) => {
          // The stop comes while the third mail is on its way.
          if (mail.messageId === 'stop-2@support.test') stopping = sender.stop();
          await transport.deliver(mail);
        },
        close: () => transport.close(),
      },
      { batchSize: 10 },
    );
    sender.nudge();
    await sender.idle();
    await stopping;
    const rows = await db.db.select().from(emailOutbox).orderBy(emailOutbox.id);
    expect(rows.map((r) => r.status)).toEqual([...Array<string>(3).fill('sent'), ...Array<string>(7).fill('queued')]);
    expect(rows.slice(3).every((r) => r.claimedUntil === null && r.attempts === 0)).toBe(true);
  });
});
