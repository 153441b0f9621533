import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboundMessages } from '../db/schema/index.js';
import { ADMIN_ENV, createCast } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { deliver, deliverRaw, INBOUND_ENV, sendMail, SUPPORT, waitFiled } from '../../test/inboundMail.js';
import { startTestServer, type TestServer } from '../../test/server.js';

describe('hostile mail never crashes or stops the intake (docs/api.md#email-intake)', () => {
  let t: TestServer;
  let cast: Awaited<ReturnType<typeof createCast>>;

  beforeAll(async () => {
    t = await startTestServer({
      ...ADMIN_ENV,
      ...INBOUND_ENV,
      INBOUND_MAX_PER_SENDER_PER_HOUR: '1000',
      ATTACHMENT_MAX_BYTES: String(1024 * 1024),
      ATTACHMENT_MAX_COUNT: '3',
    });
    cast = await createCast(t);
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
  });

  /** The intake still takes and files an ordinary message. */
  const stillFiles = async () => {
    const row = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'Still alive', text: 'Ordinary mail.' });
    expect(row.status).toBe('ticket');
  };
  const ticketOf = async (id: number) => (await t.api.get(`/tickets/${id}`, { token: cast.agent.token })).body.ticket;

  it('files malformed MIME as well as it can read it', async () => {
    const raws = [
      // A boundary that never closes, and a part with broken base64.
      `From: ${cast.owner.user.email}\r\nTo: ${SUPPORT}\r\nSubject: Broken MIME\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nVisible text.\r\n--b1\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\n%%%not base64%%%\r\n`,
      // No header section at all.
      `just some bytes\r\nwithout any headers\r\n`,
      // A header line without a colon, a nested multipart without its boundary.
      `From ${cast.owner.user.email}\r\nSubject: =?UTF-8?B?broken?=\r\nContent-Type: multipart/alternative\r\n\r\n--x\r\n`,
    ];
    for (const raw of raws) {
      const row = await deliverRaw(t, cast.owner.user.email, SUPPORT, raw);
      expect(['ticket', 'rejected', 'ignored']).toContain(row.status);
    }
    await stillFiles();
  });

  it('takes a 30 MB text part, and answers 552 to a 30 MB attachment that grows past the limit as base64', async () => {
    const line = `${'x'.repeat(76)}\r\n`;
    const big = line.repeat(Math.ceil((30 * 1024 * 1024) / line.length));
    const row = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'Huge log', text: big });
    expect(row.status).toBe('ticket');
    expect(row.size).toBeGreaterThan(30 * 1024 * 1024);
    const ticket = await ticketOf(row.ticketId!);
    expect(ticket.description.length).toBeLessThanOrEqual(2000);
    expect(ticket.comments[0].content.length).toBeLessThanOrEqual(5000);
    await expect(
      sendMail(t, {
        from: cast.owner.user.email,
        to: SUPPORT,
        subject: 'Huge attachment',
        text: 'See attached.',
        attachments: [{ filename: 'dump.bin', content: randomBytes(30 * 1024 * 1024) }],
      }),
    ).rejects.toMatchObject({ responseCode: 552 });
    await stillFiles();
  });

  it('keeps a mail’s files with clean names and sniffed types, and says which one was too large', async () => {
    const row = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: 'Files',
      text: 'Four files.',
      attachments: [
        { filename: '../../etc/\u202Egnp.exe', content: 'MZ fake' },
        { filename: 'page.html', content: '<html><script>alert(1)</script></html>', contentType: 'text/html' },
        { filename: 'image.svg', content: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', contentType: 'image/svg+xml' },
        { filename: 'big.bin', content: randomBytes(2 * 1024 * 1024) },
      ],
    });
    expect(row.status).toBe('ticket');
    const ticket = await ticketOf(row.ticketId!);
    expect(ticket.description).toBe('Four files.\n\nAttachment big.bin (2 MB) was not kept: it is larger than 1 MB');
    // Path parts and the bidi override gone; types from the bytes.
    expect(ticket.attachments).toMatchObject([
      { filename: 'gnp.exe', size: 7 },
      { filename: 'page.html', contentType: 'text/html' },
      { filename: 'image.svg', contentType: 'image/svg+xml' },
    ]);
  });

  it('keeps at most ATTACHMENT_MAX_COUNT files of a mail, the first ones, and says how many it left', async () => {
    const file = (name: string) => ({ filename: name, content: `contents of ${name}`, contentType: 'text/plain' });
    const row = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: 'Six files',
      text: 'All the logs.',
      attachments: [
        file('one.txt'),
        { filename: 'huge.bin', content: randomBytes(2 * 1024 * 1024) },
        file('two.txt'),
        file('three.txt'),
        file('four.txt'),
        file('five.txt'),
      ],
    });
    expect(row.status).toBe('ticket');
    const ticket = await ticketOf(row.ticketId!);
    expect(ticket.attachments.map((a: { filename: string }) => a.filename)).toEqual(['one.txt', 'two.txt', 'three.txt']);
    expect(ticket.description).toBe(
      'All the logs.\n\nAttachment huge.bin (2 MB) was not kept: it is larger than 1 MB' +
        '\n\n2 more attachments were not kept: at most 3 files are kept from one mail',
    );
    // A reply's comment is held to the same count.
    const reply = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: `Re: Six files [#${row.ticketId}]`,
      text: 'And these.',
      attachments: ['a.txt', 'b.txt', 'c.txt', 'd.txt'].map(file),
    });
    expect(reply).toMatchObject({ status: 'comment', ticketId: row.ticketId });
    const comment = (await ticketOf(row.ticketId!)).comments.find((c: { id: number }) => c.id === reply.commentId);
    expect(comment.attachments.map((a: { filename: string }) => a.filename)).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(comment.content).toBe('And these.\n\n1 more attachment was not kept: at most 3 files are kept from one mail');
  });

  it('puts a reply’s files on its comment', async () => {
    const first = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'Screenshot follows', text: 'See next mail.' });
    const reply = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: `Re: Screenshot follows [#${first.ticketId}]`,
      text: 'Here it is.',
      attachments: [{ filename: 'notes.txt', content: 'printer log' }],
    });
    expect(reply).toMatchObject({ status: 'comment', ticketId: first.ticketId });
    const ticket = await ticketOf(first.ticketId!);
    const comment = ticket.comments.find((c: { id: number }) => c.id === reply.commentId);
    expect(comment.attachments).toMatchObject([{ filename: 'notes.txt', size: 11 }]);
  });

  it('never lets a subject carry a line break into the title it echoes', async () => {
    const encoded = Buffer.from('Help\r\nBcc: victim@example.test').toString('base64');
    for (const subject of [`=?UTF-8?B?${encoded}?=`, 'Help\r\n Bcc: victim@example.test']) {
      const raw = `From: ${cast.owner.user.email}\r\nTo: ${SUPPORT}\r\nSubject: ${subject}\r\nMessage-ID: <${randomBytes(6).toString('hex')}@x.test>\r\n\r\nInjected?\r\n`;
      const row = await deliverRaw(t, cast.owner.user.email, SUPPORT, raw);
      const { title } = await ticketOf(row.ticketId!);
      expect(title).not.toMatch(/[\r\n]/);
      expect(title).toContain('Bcc: victim@example.test');
    }
  });

  it('takes 10,000 recipients: ours accepted, the rest refused, the header read without trouble', async () => {
    const strangers = Array.from({ length: 10_000 }, (_, i) => `person${i}@example.test`);
    const info = await sendMail(t, {
      envelope: { from: cast.owner.user.email, to: [...strangers, SUPPORT] },
      from: cast.owner.user.email,
      to: strangers,
      subject: 'Everyone',
      text: 'Reply all.',
    });
    expect(info.accepted).toEqual([SUPPORT]);
    expect(info.rejected).toHaveLength(10_000);
    const row = await waitFiled(t, Number(/Queued as (\d+)/.exec(info.response)![1]));
    expect(row).toMatchObject({ status: 'ticket', envelopeTo: SUPPORT });
    await stillFiles();
  });

  it('takes at most 100 of our addresses for one message: 452 Too many recipients for the rest', async () => {
    const ours = Array.from({ length: 120 }, (_, i) => `support+list${i}@helpdesk.test`);
    const info = await sendMail(t, {
      envelope: { from: cast.owner.user.email, to: ours },
      from: cast.owner.user.email,
      subject: 'Many',
      text: 'x',
    });
    expect(info.accepted).toHaveLength(100);
    expect(info.rejected).toHaveLength(20);
    expect(info.rejectedErrors?.[0]).toMatchObject({ responseCode: 452 });
    await waitFiled(t, Number(/Queued as (\d+)/.exec(info.response)![1]));
  });

  it('fails a message after 5 attempts without holding up the next, and files it when an admin retries', async () => {
    const bytes = Buffer.from(`From: ${cast.owner.user.email}\r\nTo: ${SUPPORT}\r\nSubject: Came back\r\n\r\nFiled at last.\r\n`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // A row whose raw file is not there (yet): every attempt fails.
    const [row] = await t.server.database.db
      .insert(inboundMessages)
      .values({ envelopeTo: SUPPORT, size: bytes.length, sha256, source: 'smtp', dedupeKey: `sha256:${sha256}` })
      .returning();
    const read = async () => (await t.server.database.db.select().from(inboundMessages).where(eq(inboundMessages.id, row!.id)))[0]!;
    let failed = row!;
    for (let attempt = 1; attempt <= 5; attempt++) {
      // An attempt has ended once its failure is written (the claim counts it, the failure gives the reason).
      while (!((failed = await read()).attempts >= attempt && failed.reason)) await new Promise((r) => setTimeout(r, 20));
      // The next one is not held up meanwhile.
      if (attempt === 2) await stillFiles();
      if (failed.status === 'failed') break;
      // Its back-off is waited out at once.
      await t.server.database.db.execute(sql`update inbound_messages set next_attempt_at = now(), reason = null where id = ${row!.id}`);
    }
    expect(failed).toMatchObject({ status: 'failed', attempts: 5 });
    expect(failed.reason).toMatch(/ENOENT|no such file/);

    const list = await t.api.get('/email/inbound?limit=100', { token: cast.admin.token });
    expect(list.body.messages.find((m: { id: number }) => m.id === row!.id)).toMatchObject({ status: 'failed', attempts: 5 });

    const file = t.server.services.inbound.raw.fileOf(sha256);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes);
    const retried = await t.api.post(`/email/inbound/${row!.id}/retry`, undefined, { token: cast.admin.token });
    expect(retried).toMatchObject({
      status: 200,
      body: { message: 'The message will be filed again', inboundMessage: { status: 'queued', attempts: 0 } },
    });
    const filed = await waitFiled(t, row!.id);
    expect(filed).toMatchObject({ status: 'ticket', subject: 'Came back' });
  });
});
