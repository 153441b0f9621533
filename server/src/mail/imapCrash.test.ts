import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '@helpdesk/protocol';
import { openDatabase, type DatabaseTarget } from '../db/client.js';
import { emailMessages, inboundMessages, tickets } from '../db/schema/index.js';
import { createTestDatabase, pgliteFolder, type TestDatabase } from '../../test/database.js';
import { startDovecot, type Dovecot } from '../../test/dovecot.js';
import { ifSetUp } from '../../test/hooks.js';
import { SUPPORT } from '../../test/inboundMail.js';
import { startServerProcess, type ServerProcess } from '../../test/serverProcess.js';
import { startTcpProxy, type TcpProxy } from '../../test/tcpProxy.js';

const MAILS = 30;
/** The process dies as its IMAP connection sends this MOVE (1-based): that message is stored, not yet moved. */
const KILL_AT_MOVE = 9;
const FILED_TIMEOUT_MS = 45_000;
const ADMIN = { email: 'crash.admin@example.test', password: 'CrashAdmin1!' };
/** A body large enough that filing (parse, account, ticket, file) lags behind storing. */
const FILLER = randomBytes(48 * 1024).toString('base64');

const mail = (i: number) =>
  [
    `From: "Sender ${i}" <sender${i}@crash.example.test>`,
    `To: ${SUPPORT}`,
    `Subject: Crash mail ${i}`,
    `Message-ID: <crash-imap-${i}@example.test>`,
    'Date: Tue, 24 Nov 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Body of mail ${i}.`,
    '--b',
    `Content-Type: application/octet-stream; name="log-${i}.bin"`,
    'Content-Transfer-Encoding: base64',
    `Content-Disposition: attachment; filename="log-${i}.bin"`,
    '',
    FILLER.replace(/.{76}/g, '$&\r\n'),
    '--b--',
    '',
  ].join('\r\n');

/**
 * The IMAP intake across a kill -9 (docs/api.md#email-intake): a real server process reads a real
 * dovecot through a proxy that kills it the moment it moves a stored message away, while its worker
 * is still filing the ones before. Started again, it files every message exactly once.
 */
describe('the IMAP intake across a kill -9', () => {
  let dataDir: string;
  let testDb: TestDatabase | undefined;
  let target: DatabaseTarget;
  let dovecot: Dovecot;
  let proxy: TcpProxy;
  let current: ServerProcess | undefined;
  let moves = 0;
  let killed = false;
  let firstStarted: (process: ServerProcess) => void = () => {};
  const firstProcess = new Promise<ServerProcess>((resolve) => (firstStarted = resolve));

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-imap-crash-'));
    if (process.env.TEST_DB === 'postgres') {
      testDb = await createTestDatabase();
      target = testDb.target;
    } else {
      // The process's own embedded database, written by the test while no process holds it.
      target = await pgliteFolder(path.join(dataDir, 'pglite'));
    }
    dovecot = await startDovecot();
    proxy = await startTcpProxy(
      { host: '127.0.0.1', port: dovecot.port },
      {
        fromClient(chunk) {
          if (killed || !/ UID MOVE /i.test(chunk.toString('latin1'))) return true;
          moves += 1;
          if (moves < KILL_AT_MOVE) return true;
          killed = true;
          void firstProcess.then((p) => p.child.kill('SIGKILL'));
          // The MOVE never reaches dovecot: the message stays in INBOX, already stored.
          return false;
        },
      },
    );
  });
  afterAll(async () => {
    if (current?.child.exitCode === null) current.child.kill('SIGKILL');
    await ifSetUp(proxy)?.close();
    await ifSetUp(dovecot)?.close();
    await testDb?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const withDb = async <T>(work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>) => {
    const database = await openDatabase(target);
    try {
      return await work(database.db);
    } finally {
      await database.close();
    }
  };

  /** The intake as the Email admin page lists it, through the running process. */
  const listed = async (server: ServerProcess, token: string): Promise<InboundMessage[]> => {
    const res = await fetch(`${server.url}/api/email/inbound?limit=100`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { messages: InboundMessage[] }).messages;
  };

  it('files every message exactly once when the server is killed mid-batch and started again', async () => {
    const box = await dovecot.client();
    try {
      for (let i = 0; i < MAILS; i++) await box.append('INBOX', mail(i));
      const env = {
        DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'info',
        SEED_DEMO: 'false',
        JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        SUPPORT_ADDRESS: SUPPORT,
        IMAP_URL: proxy.url(dovecot.url()),
        IMAP_POLL_MS: '1000',
        // A dead process's claim on a message runs out quickly, so the next process files it soon.
        INBOUND_CLAIM_MS: '1500',
        ...(target.kind === 'postgres' && { DATABASE_URL: target.url }),
      };

      current = await startServerProcess(env);
      firstStarted(current);
      await current.exited;
      expect(killed).toBe(true);

      // Killed mid-batch: the messages up to the one being moved are stored, the rest are not.
      const before = await withDb((db) => db.select().from(inboundMessages));
      expect(before).toHaveLength(KILL_AT_MOVE);
      const filedBefore = before.filter((r) => r.status !== 'queued').length;
      expect(filedBefore).toBeLessThan(KILL_AT_MOVE);

      current = await startServerProcess(env);
      const login = await fetch(`${current.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      const { token } = (await login.json()) as { token: string };
      const deadline = Date.now() + FILED_TIMEOUT_MS;
      let rows = await listed(current, token);
      while ((rows.length < MAILS || rows.some((r) => r.status === 'queued')) && Date.now() < deadline) {
        await sleep(100);
        rows = await listed(current, token);
      }
      current.child.kill('SIGTERM');
      expect(await current.exited).toBe(0);

      const inbound = await withDb((db) => db.select().from(inboundMessages));
      expect(inbound.map((r) => r.status)).toEqual(Array<string>(MAILS).fill('ticket'));
      expect(new Set(inbound.map((r) => r.messageId)).size).toBe(MAILS);
      const made = await withDb((db) => db.select({ title: tickets.title }).from(tickets));
      expect(made.map((t) => t.title).sort()).toEqual(Array.from({ length: MAILS }, (_, i) => `Crash mail ${i}`).sort());
      const thread = await withDb((db) => db.select().from(emailMessages));
      expect(thread).toHaveLength(MAILS);

      // Every message was moved once it was stored, the one caught mid-move included; none deleted.
      const inbox = await box.status('INBOX', { messages: true });
      const done = await box.status('Processed', { messages: true });
      expect([inbox && inbox.messages, done && done.messages]).toEqual([0, MAILS]);
    } finally {
      await box.logout();
    }
  }, 150_000);
});
