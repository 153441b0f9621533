import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundMessages } from '../db/schema/index.js';
import { ADMIN_ENV, createCast, uniqueEmail } from '../../test/factories.js';
import { startDovecot, type Dovecot } from '../../test/dovecot.js';
import { ifSetUp } from '../../test/hooks.js';
import { fixture, SUPPORT } from '../../test/inboundMail.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { startImapIntake } from './imapIntake.js';

const unique = () => randomBytes(6).toString('hex');
const mail = (from: string, subject: string, text: string) =>
  `From: ${from}\r\nTo: ${SUPPORT}\r\nSubject: ${subject}\r\nMessage-ID: <${unique()}@example.test>\r\nDate: Tue, 24 Nov 2026 10:00:00 +0000\r\n\r\n${text}\r\n`;

/** The rows the IMAP intake made, once `count` of them are filed. */
async function imapRows(t: TestServer, count: number, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await t.server.database.db.select().from(inboundMessages).where(eq(inboundMessages.source, 'imap'));
    if (rows.length >= count && rows.every((r) => r.status !== 'queued')) return rows.sort((a, b) => a.id - b.id);
    if (Date.now() > until) throw new Error(`expected ${count} filed IMAP messages, have ${JSON.stringify(rows.map((r) => r.status))}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('mail intake over IMAP, against a real dovecot (docs/api.md#email-intake)', () => {
  let dovecot: Dovecot;

  beforeAll(async () => {
    dovecot = await startDovecot();
  });
  afterAll(async () => {
    await ifSetUp(dovecot)?.close();
  });

  it('stores each message, files it, moves it to the done folder, and hears new mail by IDLE', { timeout: 60_000 }, async () => {
    const box = await dovecot.client();
    const stranger = uniqueEmail('imap');
    await box.append('INBOX', mail(stranger, 'Printer jam via IMAP', 'Paper stuck in tray 2.'));
    await box.append(
      'INBOX',
      await fixture('auto-reply.eml', {
        N: unique(),
        IN_REPLY_TO: `${unique()}@x.test`,
        SUBJECT: 'x',
        FROM: stranger,
        FROM_NAME: 'S',
        TO: SUPPORT,
      }),
    );
    // A poll far away: only IDLE can bring the third message in time.
    const t = await startTestServer({ ...ADMIN_ENV, SUPPORT_ADDRESS: SUPPORT, IMAP_URL: dovecot.url(), IMAP_POLL_MS: '600000' });
    try {
      const cast = await createCast(t);
      await t.server.imapIntake!.firstPass;
      // One process at a time: while this one reads the mailbox, another process cannot take the lock.
      if (t.server.database.kind === 'postgres') expect(await t.server.database.tryExclusive(727_002)).toBeUndefined();
      const [ticketRow, autoRow] = await imapRows(t, 2);
      expect(ticketRow).toMatchObject({ status: 'ticket', fromAddress: stranger, source: 'imap' });
      expect(autoRow).toMatchObject({ status: 'ignored', reason: 'auto-submitted' });
      const ticket = (await t.api.get(`/tickets/${ticketRow!.ticketId}`, { token: cast.agent.token })).body.ticket;
      expect(ticket).toMatchObject({ title: 'Printer jam via IMAP', description: 'Paper stuck in tray 2.' });

      await box.append('INBOX', mail(stranger, `Re: Printer jam via IMAP [#${ticketRow!.ticketId}]`, 'Tray 1 too.'));
      const [, , reply] = await imapRows(t, 3);
      expect(reply).toMatchObject({ status: 'comment', ticketId: ticketRow!.ticketId });

      const inbox = await box.status('INBOX', { messages: true });
      const done = await box.status('Processed', { messages: true });
      expect([inbox && inbox.messages, done && done.messages]).toEqual([0, 3]);
    } finally {
      await t.close();
      await box.logout();
    }
  });

  it(
    'flags a message \\Seen when it cannot move it, and after a restart neither skips nor fetches one twice',
    { timeout: 60_000 },
    async () => {
      const box = await dovecot.client();
      await box.mailboxCreate('Second');
      const sender = uniqueEmail('second');
      await box.append('Second', mail(sender, 'First of two', 'One.'));
      await box.append('Second', mail(sender, 'Second of two', 'Two.'));
      // dovecot refuses a mailbox name that begins with "~": the move fails, and the message stays, flagged.
      const options = { IMAP_URL: dovecot.url('Second'), IMAP_DONE_FOLDER: '~Refused', IMAP_POLL_MS: '600000' };
      const t = await startTestServer({ SUPPORT_ADDRESS: SUPPORT, ...options });
      try {
        await t.server.imapIntake!.firstPass;
        expect((await imapRows(t, 2)).map((r) => r.status)).toEqual(['ticket', 'ticket']);
        await box.mailboxOpen('Second');
        const seen = await box.search({ seen: true }, { uid: true });
        expect(seen).toHaveLength(2);

        // The intake stops and starts again, as after a restart, with both messages still in the folder.
        await t.server.imapIntake!.stop();
        await box.append('Second', mail(sender, 'Third, after the restart', 'Three.'));
        const again = startImapIntake(
          t.server.services.inbound,
          t.server.database,
          { url: options.IMAP_URL, doneFolder: options.IMAP_DONE_FOLDER, pollMs: 600_000, supportAddress: SUPPORT },
          t.server.logger,
        );
        try {
          await again.firstPass;
          const rows = await imapRows(t, 3);
          expect(rows.map((r) => [r.status, r.subject])).toEqual([
            ['ticket', 'First of two'],
            ['ticket', 'Second of two'],
            ['ticket', 'Third, after the restart'],
          ]);
        } finally {
          await again.stop();
        }
      } finally {
        await t.close();
        await box.logout();
      }
    },
  );
});
