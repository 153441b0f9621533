import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketDetail } from '@helpdesk/protocol';
import { emailMessages, emailOutbox, ticketHistory, users } from '../db/schema/index.js';
import { ADMIN_ENV, createCast, createTicket, sessionOf, uniqueEmail } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { deliver, deliverRaw, fixture, INBOUND_ENV, SUPPORT } from '../../test/inboundMail.js';
import { startMailReceiver, type MailReceiver, type ReceivedMail } from '../../test/mailReceiver.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { download, uploadIds } from '../../test/uploads.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * The whole round trip over real SMTP both ways (docs/api.md#threading): a customer mails in, the
 * agent's reply is caught by a real receiver, and the customer's answer, built from the caught mail's
 * headers as a mail program would, lands on the same ticket.
 */
describe('mail threading driven by the real receiver (docs/api.md#threading)', () => {
  let t: TestServer;
  let smtp: MailReceiver;
  let cast: Awaited<ReturnType<typeof createCast>>;

  beforeAll(async () => {
    smtp = await startMailReceiver();
    t = await startTestServer({ ...ADMIN_ENV, ...INBOUND_ENV, SMTP_URL: smtp.url });
    cast = await createCast(t);
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(smtp)?.close();
  });

  const detail = async (id: number, token: string): Promise<TicketDetail> => {
    const res = await t.api.get(`/tickets/${id}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.ticket;
  };
  const comment = async (ticketId: number, body: Record<string, unknown>) => {
    const res = await t.api.post(`/tickets/${ticketId}/comments`, body, { token: cast.agent.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.comment as { id: number; attachments: Array<{ id: number }> };
  };
  /** The mails the customer has received so far, once the outbox has sent everything due. */
  const mailsTo = async (address: string): Promise<ReceivedMail[]> => {
    await t.server.mailer.idle();
    return smtp.to(address);
  };

  it('threads the answer to a caught staff reply by its headers, and by the plus-address alone', async () => {
    const customer = uniqueEmail('mailer');
    const opened = await deliver(t, {
      from: `"Mara Mailer" <${customer}>`,
      to: SUPPORT,
      subject: 'VPN drops every hour',
      text: 'The VPN disconnects at the top of every hour.',
    });
    expect(opened.status).toBe('ticket');
    const ticketId = opened.ticketId!;
    // An account made from mail gets every staff reply by mail (docs/decisions.md).
    const [account] = await t.server.database.db.select().from(users).where(eq(users.email, customer));
    expect(account?.emailNotifications).toBe('all');

    const [fileId] = await uploadIds(t.url, cast.agent.token, [{ name: 'vpn-settings.png', bytes: PNG, type: 'image/png' }]);
    const staffReply = await comment(ticketId, { content: 'Please try the settings in the picture.', attachmentIds: [fileId] });

    const [caught, ...more] = await mailsTo(customer);
    expect(more).toHaveLength(0);
    expect(caught!.subject).toBe(`Re: VPN drops every hour [#${ticketId}]`);
    expect(caught!.text).toContain('Please try the settings in the picture.');
    // In the thread the customer started: In-Reply-To their mail, which References names too.
    expect(caught!.inReplyTo).toBe(`<${opened.messageId}>`);
    expect(caught!.references).toContain(`<${opened.messageId}>`);
    expect(caught!.replyTo).toMatch(new RegExp(`^support\\+t${ticketId}-[a-z0-9]{10}@helpdesk\\.test$`));
    expect(caught!.headers.has('auto-submitted')).toBe(false);
    expect(caught!.attachments.map((a) => [a.filename, a.contentType])).toEqual([['vpn-settings.png', 'image/png']]);
    expect(caught!.attachments[0]!.content.equals(PNG)).toBe(true);

    // The customer's mail program answers: to the support address, headers from the caught mail, and a
    // subject that names no ticket, so only the headers can thread it.
    const byHeaders = await deliver(t, {
      from: customer,
      to: SUPPORT,
      subject: 'Still dropping',
      inReplyTo: caught!.messageId!,
      references: [...caught!.references, caught!.messageId!],
      text: `It still drops at 14:00.\n\nOn Tue, 24 Nov 2026, Agent Smith via HelpDesk wrote:\n> ${caught!.text.split('\n').join('\n> ')}`,
    });
    expect(byHeaders).toMatchObject({ status: 'comment', ticketId });

    // Another answer with nothing but the Reply-To plus-address.
    const byAddress = await deliver(t, { from: customer, to: caught!.replyTo!, subject: 'One more thing', text: 'And at 15:00.' });
    expect(byAddress).toMatchObject({ status: 'comment', ticketId });

    const owner = await sessionOf(t, customer, '');
    const seen = await detail(ticketId, owner.token);
    expect(seen.comments.map((c) => [c.author.id, c.internal, c.content])).toEqual([
      [cast.agent.user.id, false, 'Please try the settings in the picture.'],
      [owner.user.id, false, 'It still drops at 14:00.'],
      [owner.user.id, false, 'And at 15:00.'],
    ]);
    expect(seen.comments[0]!.id).toBe(staffReply.id);
    // The owner's own answers are not mailed back to them.
    expect(await mailsTo(customer)).toHaveLength(1);
  });

  it('threads by the last [#id] of the subject: the tag our reply on a follow-up ticket appends', async () => {
    const customer = uniqueEmail('follower');
    const opened = await deliver(t, { from: customer, to: SUPPORT, subject: 'Printer on fire', text: 'Smoke from the tray.' });
    const closedId = opened.ticketId!;
    const closing = await t.api.put(`/tickets/${closedId}`, { status: 'closed' }, { token: cast.agent.token });
    expect(closing.status).toBe(200);
    // The owner answers the closed ticket by its subject alone: a follow-up ticket, titled with that subject.
    const again = await deliver(t, { from: customer, to: SUPPORT, subject: `Re: Printer on fire [#${closedId}]`, text: 'On fire again.' });
    expect(again.status).toBe('ticket');
    const followUpId = again.ticketId!;
    expect(followUpId).not.toBe(closedId);

    await comment(followUpId, { content: 'A technician is on the way.' });
    const replies = (await mailsTo(customer)).filter((m) => m.text.includes('A technician is on the way.'));
    expect(replies.map((m) => m.subject)).toEqual([`Re: Re: Printer on fire [#${closedId}] [#${followUpId}]`]);

    // The owner's answer keeps that subject and carries no thread headers: the last tag names the ticket.
    const answer = await deliver(t, { from: customer, to: SUPPORT, subject: replies[0]!.subject, text: 'Thanks, it is out.' });
    expect(answer).toMatchObject({ status: 'comment', ticketId: followUpId });
    // Only the ticket's owner is threaded by the tag.
    const byOther = await deliver(t, {
      from: cast.other.user.email,
      to: SUPPORT,
      subject: replies[0]!.subject,
      text: 'Is my printer next?',
    });
    expect(byOther.status).toBe('ticket');
    expect([closedId, followUpId]).not.toContain(byOther.ticketId);
  });

  it('threads the survey mail like the status mail: Reply-To the plus-address, in the thread, answered onto the ticket', async () => {
    const customer = uniqueEmail('rater');
    const opened = await deliver(t, { from: customer, to: SUPPORT, subject: 'Docking station', text: 'No picture on the monitor.' });
    const ticketId = opened.ticketId!;
    const resolved = await t.api.put(`/tickets/${ticketId}`, { status: 'resolved' }, { token: cast.agent.token });
    expect(resolved.status).toBe(200);
    const mails = await mailsTo(customer);
    const status = mails.find((m) => m.subject === `Ticket #${ticketId} is now Resolved`);
    const survey = mails.find((m) => m.subject === `How did we do on ticket #${ticketId}?`);
    expect(status?.replyTo).toMatch(new RegExp(`^support\\+t${ticketId}-[a-z0-9]{10}@helpdesk\\.test$`));
    // The same headers as the status mail written with it, which it follows in the thread.
    expect(survey?.replyTo).toBe(status!.replyTo);
    expect(survey!.inReplyTo).toBe(status!.messageId);
    expect(survey!.references).toEqual([`<${opened.messageId}>`, status!.messageId]);
    expect(survey!.headers.get('auto-submitted')).toBe('auto-generated');
    const [recorded] = await t.server.database.db
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.messageId, survey!.messageId!.replace(/^<(.*)>$/, '$1')));
    expect(recorded).toMatchObject({ ticketId, commentId: null, direction: 'out' });

    // The owner answers the survey mail from their mail program: a comment on the ticket, which reopens.
    const answer = await deliver(t, {
      from: customer,
      to: SUPPORT,
      subject: `Re: ${survey!.subject}`,
      inReplyTo: survey!.messageId!,
      references: [...survey!.references, survey!.messageId!],
      text: 'The picture is back, but the sound is not.',
    });
    expect(answer).toMatchObject({ status: 'comment', ticketId });
    const byAddress = await deliver(t, { from: customer, to: survey!.replyTo!, subject: 'Also', text: 'And the USB ports.' });
    expect(byAddress).toMatchObject({ status: 'comment', ticketId });
    expect((await detail(ticketId, cast.agent.token)).status).toBe('open');
  });

  it('marks any mail of ours bounced by its report: a reset, a mention, an assignment; no ticket entry for them', async () => {
    const customer = uniqueEmail('unreachable');
    const opened = await deliver(t, { from: customer, to: SUPPORT, subject: 'Badge reader', text: 'The badge reader is dead.' });
    const ticketId = opened.ticketId!;
    expect((await t.api.post('/auth/request-password-reset', { email: customer })).status).toBe(200);
    await comment(ticketId, { content: 'Admin, is this the reader we replaced?', internal: true, mentions: [cast.admin.user.id] });
    const assigned = await t.api.put(`/tickets/${ticketId}`, { assignedAgentId: cast.agent.user.id }, { token: cast.admin.token });
    expect(assigned.status).toBe(200);
    const caught = async (address: string, subject: string) => {
      const [mail, ...more] = (await mailsTo(address)).filter((m) => m.subject === subject);
      expect(more, subject).toHaveLength(0);
      return { recipient: address, messageId: mail!.messageId!.replace(/^<(.*)>$/, '$1') };
    };
    const ours = [
      await caught(customer, 'Reset your HelpDesk System password'),
      await caught(cast.admin.user.email, `Agent Smith mentioned you on ticket #${ticketId}`),
      await caught(cast.agent.user.email, `Ticket #${ticketId} was assigned to you`),
    ];

    for (const { recipient, messageId } of ours) {
      const report = await fixture('delivery-report.eml', { N: randomUUID(), RECIPIENT: recipient, ORIGINAL_ID: messageId });
      const row = await deliverRaw(t, '', SUPPORT, report);
      // Not tied to a ticket's thread: the report names no ticket or comment.
      expect(row, recipient).toMatchObject({ status: 'ignored', reason: 'bounce', ticketId: null, commentId: null });
      const [outgoing] = await t.server.database.db.select().from(emailOutbox).where(eq(emailOutbox.messageId, messageId));
      expect(outgoing, recipient).toMatchObject({ status: 'bounced', lastError: `Email to ${recipient} bounced: 5.1.1` });
    }
    // Nothing on the ticket: none of them was mail of its thread.
    const history = await t.server.database.db.select().from(ticketHistory).where(eq(ticketHistory.ticketId, ticketId));
    expect(history.filter((h) => h.type === 'email_bounced')).toEqual([]);
    // A report about a Message-ID we never sent is still not ours.
    const stranger = await fixture('delivery-report.eml', {
      N: randomUUID(),
      RECIPIENT: customer,
      ORIGINAL_ID: `${randomUUID()}@helpdesk.test`,
    });
    expect(await deliverRaw(t, '', SUPPORT, stranger)).toMatchObject({ status: 'ignored', reason: 'bounce of a mail that is not ours' });
  });

  it('passes on the files of a reply a staff member sent by mail', async () => {
    const customer = uniqueEmail('relayed');
    const opened = await deliver(t, { from: customer, to: SUPPORT, subject: 'Label printer', text: 'Labels come out blank.' });
    const filed = await deliver(t, {
      from: cast.agent.user.email,
      to: SUPPORT,
      subject: 'Re: Label printer',
      inReplyTo: `<${opened.messageId}>`,
      text: 'Use the driver in the attachment.',
      attachments: [{ filename: 'driver-notes.png', content: PNG, contentType: 'image/png' }],
    });
    expect(filed).toMatchObject({ status: 'comment', ticketId: opened.ticketId });
    const [mail, ...more] = await mailsTo(customer);
    expect(more).toHaveLength(0);
    expect(mail!.text).toContain('Use the driver in the attachment.');
    expect(mail!.attachments.map((a) => [a.filename, a.content.equals(PNG)])).toEqual([['driver-notes.png', true]]);
  });

  it('never names a stranger’s mail filed as a note in the thread headers of the owner’s next reply', async () => {
    const customer = uniqueEmail('threaded');
    const opened = await deliver(t, {
      from: customer,
      to: SUPPORT,
      subject: 'Printer offline',
      text: 'The printer on floor 3 is offline.',
    });
    const ticketId = opened.ticketId!;
    await comment(ticketId, { content: 'Is it switched on?' });
    const [first] = await mailsTo(customer);

    // Someone else answers in the thread: their mail becomes a note, its Message-ID recorded on it.
    const stranger = await deliver(t, {
      from: uniqueEmail('bystander'),
      to: SUPPORT,
      subject: 'Re: Printer offline',
      inReplyTo: first!.messageId!,
      references: [...first!.references, first!.messageId!],
      text: 'Facilities unplugged it for the audit.',
    });
    expect(stranger).toMatchObject({ status: 'note', ticketId });
    expect(stranger.messageId).toBeTruthy();

    await comment(ticketId, { content: 'Please plug it back in.' });
    const [, second, ...more] = await mailsTo(customer);
    expect(more).toHaveLength(0);
    // The owner's thread goes on from the last mail they saw, as if the note's mail never came.
    expect(second!.inReplyTo).toBe(first!.messageId);
    expect(second!.references).toEqual([`<${opened.messageId}>`, first!.messageId]);
    expect(second!.raw).not.toContain(stranger.messageId!);
  });

  it('never mails an internal note or its files to the owner, and the note’s file is 404 for them', async () => {
    const customer = uniqueEmail('noted');
    const opened = await deliver(t, { from: customer, to: SUPPORT, subject: 'Invoice is wrong', text: 'Charged twice in October.' });
    const ticketId = opened.ticketId!;
    const [noteFile] = await uploadIds(t.url, cast.agent.token, [
      { name: 'ledger-extract.txt', bytes: Buffer.from('internal ledger 4711'), type: 'text/plain' },
    ]);
    const note = await comment(ticketId, {
      content: 'Finance says the second charge is a hold.',
      internal: true,
      attachmentIds: [noteFile],
    });
    expect(note.attachments.map((a) => a.id)).toEqual([noteFile]);
    // A public reply after the note: the thread's mail goes on, the note stays out of it.
    await comment(ticketId, { content: 'The second charge is only a hold and will vanish.' });

    const mails = await mailsTo(customer);
    expect(mails).toHaveLength(1);
    const everything = mails.map((m) => m.raw).join('\n');
    expect(everything).not.toContain('Finance says');
    expect(everything).not.toContain('ledger-extract');
    expect(mails[0]!.attachments).toHaveLength(0);

    const owner = await sessionOf(t, customer, '');
    const refused = await download(t.url, owner.token, noteFile!);
    expect(refused.status).toBe(404);
    expect(refused.json).toMatchObject({ success: false, message: 'Attachment not found' });
    expect((await download(t.url, cast.agent.token, noteFile!)).status).toBe(200);
    // The owner's view of the ticket holds neither the note nor its file.
    const seen = await detail(ticketId, owner.token);
    expect(seen.comments.map((c) => c.content)).toEqual(['The second charge is only a hold and will vanish.']);
  });
});

describe('a staff reply’s files without SMTP_URL (docs/api.md#email)', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer(ADMIN_ENV);
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
  });

  it('are in the .eml the outbox writes', async () => {
    const cast = await createCast(t);
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Offline outbox' });
    const [fileId] = await uploadIds(t.url, cast.agent.token, [{ name: 'steps.png', bytes: PNG, type: 'image/png' }]);
    const res = await t.api.post(
      `/tickets/${ticket.id}/comments`,
      { content: 'See the picture.', attachmentIds: [fileId] },
      { token: cast.agent.token },
    );
    expect(res.status).toBe(201);
    await t.server.mailer.idle();
    const dir = path.join(t.dataDir, 'outbox');
    const files = (await readdir(dir)).filter((f) => f.endsWith('.eml'));
    const parsed = await Promise.all(files.map(async (f) => simpleParser(await readFile(path.join(dir, f)))));
    const reply = parsed.find((m) => m.subject === `Re: Offline outbox [#${ticket.id}]`);
    expect(reply?.attachments.map((a) => [a.filename, a.content.equals(PNG)])).toEqual([['steps.png', true]]);
  });
});
