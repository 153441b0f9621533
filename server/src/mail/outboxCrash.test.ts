import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuedMails } from '../../test/factories.js';
import { openDatabase, type DatabaseTarget } from '../db/client.js';
import { emailOutbox } from '../db/schema/index.js';
import { createTestDatabase, pgliteFolder, type TestDatabase } from '../../test/database.js';
import { ifSetUp } from '../../test/hooks.js';
import { startMailReceiver, type MailReceiver } from '../../test/mailReceiver.js';
import { startServerProcess, type ServerProcess } from '../../test/serverProcess.js';

const MAILS = 40;
/** The process dies while the receiver holds this mail (1-based), before answering it. */
const KILL_AT = 11;
const DELIVERY_TIMEOUT_MS = 30_000;

/**
 * One mail at a time, a crash resends nothing; several at a time (OUTBOX_CONCURRENCY), only the mails
 * the receiver had already taken from the dying process can arrive twice, with the same Message-ID.
 */
describe.each([1, 4])('the outbox across a kill -9, %i mails at a time (docs/api.md#email)', (concurrency) => {
  let dataDir: string;
  let testDb: TestDatabase | undefined;
  let target: DatabaseTarget;
  let smtp: MailReceiver;
  let current: ServerProcess | undefined;
  let killed = false;
  let offered = 0;
  // The sender may reach the fatal mail before the process reports it is listening.
  let firstStarted: (process: ServerProcess) => void = () => {};
  const firstProcess = new Promise<ServerProcess>((resolve) => (firstStarted = resolve));

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-outbox-crash-'));
    if (process.env.TEST_DB === 'postgres') {
      testDb = await createTestDatabase();
      target = testDb.target;
    } else {
      // The process's own embedded database, written by the test while no process holds it.
      target = await pgliteFolder(path.join(dataDir, 'pglite'));
    }
    smtp = await startMailReceiver({
      async beforeAccept() {
        offered += 1;
        if (killed || offered !== KILL_AT) return;
        killed = true;
        (await firstProcess).child.kill('SIGKILL');
        throw Object.assign(new Error('The sender died before this mail was accepted'), { responseCode: 451 });
      },
    });
  });
  afterAll(async () => {
    if (current?.child.exitCode === null) current.child.kill('SIGKILL');
    await ifSetUp(smtp)?.close();
    await testDb?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const withDb = async <T>(work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>) => {
    const database = await openDatabase(target);
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  };

  it('sends every mail when the server is killed mid-batch and started again, resending only the ones in flight', async () => {
    await withDb((database) => database.db.insert(emailOutbox).values(queuedMails('crash', MAILS)));
    const env = {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      SEED_DEMO: 'false',
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
      SMTP_URL: smtp.url,
      // A dead process's claim runs out quickly, so the next one takes its mail soon.
      OUTBOX_CLAIM_MS: '1500',
      OUTBOX_CONCURRENCY: String(concurrency),
      ...(target.kind === 'postgres' && { DATABASE_URL: target.url }),
    };

    current = await startServerProcess(env);
    firstStarted(current);
    await current.exited;
    expect(killed).toBe(true);
    expect(smtp.mails.length).toBeGreaterThanOrEqual(KILL_AT - 1);

    current = await startServerProcess(env);
    const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
    const distinct = () => new Set(smtp.mails.map((m) => m.messageId)).size;
    while (distinct() < MAILS && Date.now() < deadline) await sleep(50);
    current.child.kill('SIGTERM');
    expect(await current.exited).toBe(0);

    const ids = smtp.mails.map((m) => m.messageId);
    // Every mail arrived. Twice only the other lanes' mails the receiver took as the process died,
    // never recorded as sent: none with one lane (the mail it held was refused), at most 3 with four.
    expect([...new Set(ids)].sort()).toEqual(Array.from({ length: MAILS }, (_, i) => `<crash-${i}@support.test>`).sort());
    expect(ids.length - MAILS).toBeLessThanOrEqual(concurrency - 1);
    const rows = await withDb((database) => database.db.select().from(emailOutbox));
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(MAILS);
  }, 120_000);
});
