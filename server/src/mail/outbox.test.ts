import { eq } from 'drizzle-orm';
import type { AddressObject } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Comment, Ticket, TicketDetail } from '@helpdesk/protocol';
import { emailMessages, emailOutbox, tickets } from '../db/schema/index.js';
import { createUnitOfWork } from '../db/unitOfWork.js';
import { insertComment } from '../db/queries/ticketThread.js';
import { presentComment } from '../presenters/tickets.js';
import { ADMIN_ENV, createCast, createTicket, insertUser } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startMailReceiver, type MailReceiver, type ReceivedMail } from '../../test/mailReceiver.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { sentinel, socketClients } from '../../test/socketClients.js';
import { markBounced } from './outbox.js';
import { RETRY_DELAYS_MS } from './outboxSender.js';
import { ticketMail } from './ticketMail.js';
import { parseThreadAddress, threadKeys } from './threadAddress.js';

const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
const SUPPORT = 'help@support.test';
const keys = threadKeys(SUPPORT, undefined, JWT_SECRET);

const addressOf = (mail: ReceivedMail, header: string) => (mail.headers.get(header) as AddressObject | undefined)?.value[0];

describe('outbound mail through the outbox (docs/api.md#email)', () => {
  let t: TestServer;
  let smtp: MailReceiver;
  let cast: Awaited<ReturnType<typeof createCast>>;
  const sockets = socketClients();

  beforeAll(async () => {
    smtp = await startMailReceiver();
    t = await startTestServer({ ...ADMIN_ENV, SMTP_URL: smtp.url, SUPPORT_ADDRESS: SUPPORT });
    cast = await createCast(t);
  });
  afterEach(() => sockets.closeAll());
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(smtp)?.close();
  });

  const reply = async (ticket: Ticket, content: string, internal = false) => {
    const res = await t.api.post(`/tickets/${ticket.id}/comments`, { content, internal }, { token: cast.agent.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.comment as Comment;
  };
  const outboxOf = (ticketId: number) => t.server.database.db.select().from(emailOutbox).where(eq(emailOutbox.ticketId, ticketId));

  it('threads a staff reply: our Message-ID, In-Reply-To, References, subject, Reply-To, marker, no Auto-Submitted', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Scanner jams' });
    await reply(ticket, 'Please restart the scanner.');
    await reply(ticket, 'Did the restart help?');
    await t.server.mailer.idle();

    const mails = smtp.to(cast.owner.user.email).filter((m) => m.subject === `Re: Scanner jams [#${ticket.id}]`);
    expect(mails).toHaveLength(2);
    const [first, second] = mails as [ReceivedMail, ReceivedMail];
    expect(first.text.split('\n')[0]).toBe('-- Reply above this line --');
    expect(first.text).toContain('Please restart the scanner.');
    expect(addressOf(first, 'from')).toEqual({ name: 'Agent Smith via HelpDesk', address: SUPPORT });
    expect(parseThreadAddress(addressOf(first, 'reply-to')?.address ?? '', keys)).toBe(ticket.id);
    expect(first.headers.has('auto-submitted')).toBe(false);
    expect(first.headers.get('x-helpdesk-loop')).toBe(SUPPORT);
    expect(first.messageId).toMatch(/^<[\w-]+@support\.test>$/);

    expect(second.inReplyTo).toBe(first.messageId);
    expect(second.references).toEqual([first.messageId]);

    // Both recorded as ours, with their comment, for threading what comes back.
    const recorded = await t.server.database.db.select().from(emailMessages).where(eq(emailMessages.ticketId, ticket.id));
    expect(recorded.map((m) => `<${m.messageId}>`).sort()).toEqual([first.messageId, second.messageId].sort());
    expect(recorded.every((m) => m.direction === 'out' && m.commentId !== null)).toBe(true);
  });

  it('References holds the first and the latest ten, In-Reply-To the latest', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Long thread' });
    for (let i = 1; i <= 13; i++) await reply(ticket, `Reply number ${i}.`);
    await t.server.mailer.idle();
    // Sent several at a time, they may arrive in any order: put them back in the order they were written.
    const number = (m: ReceivedMail) => Number(/Reply number (\d+)\./.exec(m.text)?.[1]);
    const mails = smtp
      .to(cast.owner.user.email)
      .filter((m) => m.subject === `Re: Long thread [#${ticket.id}]`)
      .sort((a, b) => number(a) - number(b));
    expect(mails).toHaveLength(13);
    const ids = mails.map((m) => m.messageId);
    const last = mails[12]!;
    expect(last.inReplyTo).toBe(ids[11]);
    expect(last.references).toEqual([ids[0], ...ids.slice(2, 12)]);
  });

  it('marks automatic mail Auto-Submitted and X-HelpDesk-Loop, and threads it too', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Status mail' });
    const res = await t.api.put(`/tickets/${ticket.id}`, { status: 'in_progress' }, { token: cast.agent.token });
    expect(res.status).toBe(200);
    await t.server.mailer.idle();
    const [mail] = smtp.to(cast.owner.user.email).filter((m) => m.subject === `Ticket #${ticket.id} is now In Progress`);
    expect(mail?.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail?.headers.get('x-helpdesk-loop')).toBe(SUPPORT);
    expect(mail?.text.split('\n')[0]).toBe('-- Reply above this line --');
    expect(parseThreadAddress(addressOf(mail!, 'reply-to')?.address ?? '', keys)).toBe(ticket.id);

    await t.api.post('/auth/request-password-reset', { email: cast.other.user.email });
    await t.server.mailer.idle();
    const [reset] = smtp.to(cast.other.user.email).filter((m) => m.subject === 'Reset your HelpDesk System password');
    expect(reset?.headers.get('auto-submitted')).toBe('auto-generated');
    // Once sent, the outbox keeps no working link.
    const [row] = await t.server.database.db.select().from(emailOutbox).where(eq(emailOutbox.recipient, cast.other.user.email));
    expect(row?.status).toBe('sent');
    expect(row?.message.text).toContain('token=[redacted]');
    expect(reset?.text).not.toContain('token=[redacted]');
  });

  it('never mails an internal note', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Secret note' });
    await reply(ticket, 'Customer seems to be on an old plan.', true);
    await reply(ticket, 'Public answer after the note.');
    await t.server.mailer.idle();
    const mails = smtp.mails.filter((m) => m.subject.includes(`[#${ticket.id}]`));
    expect(mails.map((m) => m.text).join('\n')).not.toContain('old plan');
    expect(mails).toHaveLength(1);
    expect(await outboxOf(ticket.id)).toHaveLength(1);
  });

  it('a title with CR/LF cannot add headers or recipients', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Injection attempt' });
    const title = 'Broken\r\nBcc: evil@attacker.test\r\nX-Injected: yes';
    await t.server.database.db.update(tickets).set({ title }).where(eq(tickets.id, ticket.id));
    await reply(ticket, 'Looking into it.');
    await t.server.mailer.idle();
    const mails = smtp.mails.filter((m) => m.subject.includes(`[#${ticket.id}]`));
    expect(mails).toHaveLength(1);
    const [mail] = mails as [ReceivedMail];
    expect(mail.to).toEqual([cast.owner.user.email.toLowerCase()]);
    expect(mail.headers.has('x-injected')).toBe(false);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.raw).not.toMatch(/^(Bcc|X-Injected):/im);
    expect(smtp.to('evil@attacker.test')).toEqual([]);
  });

  it('shows staff the delivery state of a reply, live and on reading; never the owner', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Status of my reply' });
    const staff = await sockets.listen(t.url, cast.agent.token);
    const owner = await sockets.listen(t.url, cast.owner.token);
    const comment = await reply(ticket, 'On its way.');
    expect(comment.emailStatus).toBeUndefined();
    await expect(staff.next('email-status', (e) => e.commentId === comment.id && e.status === 'queued')).resolves.toEqual({
      ticketId: ticket.id,
      commentId: comment.id,
      status: 'queued',
      at: expect.any(Number),
      committing: expect.any(Number),
    });
    await staff.next('email-status', (e) => e.commentId === comment.id && e.status === 'sent');
    await sentinel(t.api, cast.agent.token, [staff, owner]);
    expect(owner.events['email-status']).toEqual([]);

    const staffRead = (await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token })).body.ticket as TicketDetail;
    expect(staffRead.comments.find((c) => c.id === comment.id)?.emailStatus).toBe('sent');
    const ownerRead = (await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token })).body.ticket as TicketDetail;
    expect(ownerRead.comments.find((c) => c.id === comment.id)).not.toHaveProperty('emailStatus');
    const later = await reply(ticket, 'A later reply.');
    const older = await t.api.get(`/tickets/${ticket.id}/comments?before=${later.id}`, { token: cast.agent.token });
    expect((older.body.comments as Comment[]).find((c) => c.id === comment.id)?.emailStatus).toBe('sent');
    const olderForOwner = await t.api.get(`/tickets/${ticket.id}/comments?before=${later.id}`, { token: cast.owner.token });
    expect((olderForOwner.body.comments as Comment[]).find((c) => c.id === comment.id)).not.toHaveProperty('emailStatus');
  });

  it('a delivery report marks the reply bounced, for staff live and on reading', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Bounce me' });
    const staff = await sockets.listen(t.url, cast.agent.token);
    const comment = await reply(ticket, 'This one will bounce.');
    await t.server.mailer.idle();
    const [mail] = smtp.mails.filter((m) => m.subject === `Re: Bounce me [#${ticket.id}]`);
    const withTransaction = createUnitOfWork(t.server.database.db, t.server.bus);
    const bounced = await withTransaction((tx, emit) => markBounced(tx, emit, mail!.messageId!));
    expect(bounced).toEqual({ recipient: cast.owner.user.email, ticketId: ticket.id, commentId: comment.id });
    await staff.next('email-status', (e) => e.commentId === comment.id && e.status === 'bounced');
    const read = (await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token })).body.ticket as TicketDetail;
    expect(read.comments.find((c) => c.id === comment.id)?.emailStatus).toBe('bounced');
    expect(await withTransaction((tx, emit) => markBounced(tx, emit, '<not-ours@example.test>'))).toBeUndefined();
  });

  it('writes the mail in the change transaction: a rolled-back change sends nothing', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Rolled back' });
    const withTransaction = createUnitOfWork(
      t.server.database.db,
      t.server.bus,
      ticketMail({ publicUrl: 'http://helpdesk.test', mailFrom: 'HelpDesk <no-reply@support.test>', threadKeys: keys }),
    );
    const agent = { id: cast.agent.user.id, name: cast.agent.user.name, role: cast.agent.user.role };
    const write = (content: string, fail: boolean) =>
      withTransaction(async (tx, emit) => {
        const row = await insertComment(tx, agent, { ticketId: ticket.id, content, internal: false });
        const comment = presentComment(row);
        const history = {
          id: 0,
          ticketId: ticket.id,
          type: 'comment' as const,
          from: null,
          to: null,
          actor: agent,
          createdAt: comment.createdAt,
        };
        emit('comment.added', {
          ticketId: ticket.id,
          ownerId: cast.owner.user.id,
          commentId: comment.id,
          actor: agent,
          comment,
          history,
          commentCount: 1,
        });
        if (fail) throw new Error('the change failed after its mail was written');
      });
    await expect(write('This answer never happened.', true)).rejects.toThrow('the change failed');
    await t.server.mailer.idle();
    expect(await outboxOf(ticket.id)).toEqual([]);
    expect(smtp.mails.filter((m) => m.subject.includes(`[#${ticket.id}]`))).toEqual([]);

    await write('This answer did happen.', false);
    await t.server.mailer.idle();
    const mails = smtp.mails.filter((m) => m.subject.includes(`[#${ticket.id}]`));
    expect(mails.map((m) => m.text.includes('This answer did happen.'))).toEqual([true]);
  });
});

describe('outbox retries (docs/api.md#email)', () => {
  let t: TestServer;
  let smtp: MailReceiver;
  let cast: Awaited<ReturnType<typeof createCast>>;
  // Set once the server is up: ahead of the real time at which the test's mails are written.
  let clock = 0;
  let refusing = true;
  let refusal = { code: 451, text: 'Mailbox busy, try later' };
  const attempts: string[] = [];
  const sockets = socketClients();

  beforeAll(async () => {
    smtp = await startMailReceiver({
      beforeAccept(mail) {
        attempts.push(mail.subject);
        if (refusing) throw Object.assign(new Error(refusal.text), { responseCode: refusal.code });
      },
    });
    t = await startTestServer(
      { ...ADMIN_ENV, SMTP_URL: smtp.url },
      // No polling: only the test's nudges run the sender, at the test's time.
      { mail: { now: () => new Date(clock), pollMs: 3_600_000 } },
    );
    cast = await createCast(t);
    clock = Date.now() + 60_000;
  });
  afterAll(async () => {
    sockets.closeAll();
    await ifSetUp(t)?.close();
    await ifSetUp(smtp)?.close();
  });

  const runAt = async (at: number) => {
    clock = at;
    t.server.mailer.nudge();
    await t.server.mailer.idle();
  };

  it('retries at 1 min, 5 min, 30 min, 2 h and 6 h, then marks the mail failed and tells staff', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Retry me' });
    const staff = await sockets.listen(t.url, cast.agent.token);
    const res = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Will it arrive?' }, { token: cast.agent.token });
    const commentId = (res.body.comment as Comment).id;
    await t.server.mailer.idle();
    expect(attempts).toHaveLength(1);

    let at = clock;
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      await runAt(at + delay - 1);
      expect(attempts, `not before retry ${i + 1} is due`).toHaveLength(i + 1);
      at += delay;
      await runAt(at);
      expect(attempts, `retry ${i + 1} once due`).toHaveLength(i + 2);
    }
    const [row] = await t.server.database.db.select().from(emailOutbox).where(eq(emailOutbox.commentId, commentId));
    expect(row).toMatchObject({ status: 'failed', attempts: 6 });
    expect(row?.lastError).toContain('Mailbox busy');
    await staff.next('email-status', (e) => e.commentId === commentId && e.status === 'failed');
    const read = (await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token })).body.ticket as TicketDetail;
    expect(read.comments.find((c) => c.id === commentId)?.emailStatus).toBe('failed');

    // Nothing more is tried, however late.
    await runAt(at + 365 * 86_400_000);
    expect(attempts).toHaveLength(6);
  });

  it('a mail refused once is sent on its retry', async () => {
    const before = attempts.length;
    await t.api.post('/auth/request-password-reset', { email: cast.other.user.email });
    await t.server.mailer.idle();
    expect(attempts).toHaveLength(before + 1);
    refusing = false;
    await runAt(clock + RETRY_DELAYS_MS[0]);
    expect(smtp.to(cast.other.user.email)).toHaveLength(1);
    const [row] = await t.server.database.db.select().from(emailOutbox).where(eq(emailOutbox.recipient, cast.other.user.email));
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('retries a 5xx refusal on the same schedule (a misconfigured server refuses every mail), failed after the last try', async () => {
    refusing = true;
    refusal = { code: 554, text: 'Relay access denied' };
    const user = await insertUser(t);
    const before = attempts.length;
    await t.api.post('/auth/request-password-reset', { email: user.user.email });
    await t.server.mailer.idle();
    expect(attempts).toHaveLength(before + 1);
    const rowOf = async () => (await t.server.database.db.select().from(emailOutbox).where(eq(emailOutbox.recipient, user.user.email)))[0];
    expect(await rowOf()).toMatchObject({ status: 'queued', attempts: 1 });

    let at = clock;
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      at += delay;
      await runAt(at);
      expect(attempts, `retry ${i + 1} once due`).toHaveLength(before + i + 2);
      if (i < RETRY_DELAYS_MS.length - 1) expect(await rowOf()).toMatchObject({ status: 'queued', attempts: i + 2 });
    }
    const row = await rowOf();
    expect(row).toMatchObject({ status: 'failed', attempts: 6 });
    expect(row?.lastError).toContain('Relay access denied');
  });
});
