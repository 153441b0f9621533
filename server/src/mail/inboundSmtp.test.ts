import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_REPLY_MARKER, type Ticket, type TicketDetail } from '@helpdesk/protocol';
import { emailMessages, emailOutbox, inboundMessages, ticketHistory, users } from '../db/schema/index.js';
import { ADMIN_ENV, createCast, createTicket, insertUser, uniqueEmail } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { deliver, deliverRaw, fixture, INBOUND_ENV, sendMail, SUPPORT } from '../../test/inboundMail.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { threadAddress } from './threadAddress.js';

const unique = () => randomBytes(6).toString('hex');

describe('mail intake over SMTP (docs/api.md#email-intake)', () => {
  let t: TestServer;
  let cast: Awaited<ReturnType<typeof createCast>>;

  beforeAll(async () => {
    t = await startTestServer({ ...ADMIN_ENV, ...INBOUND_ENV, INBOUND_MAX_PER_SENDER_PER_HOUR: '1000' });
    cast = await createCast(t);
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
  });

  const detail = async (id: number, token = cast.agent.token): Promise<TicketDetail> => {
    const res = await t.api.get(`/tickets/${id}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.ticket;
  };
  const plus = (ticketId: number) => threadAddress(ticketId, t.server.services.inbound.threadKeys);

  it('reports the listener port in the health check', async () => {
    const res = await t.api.get('/health');
    expect(res.body).toMatchObject({ status: 'ok', inboundSmtpPort: t.server.inboundSmtpPort });
    expect(t.server.inboundSmtpPort).toBeGreaterThan(0);
  });

  it('answers 550 No such mailbox for a recipient that is not ours', async () => {
    await expect(
      sendMail(t, { from: 'a@example.test', to: 'sales@helpdesk.test', subject: 'Hello', text: 'Hi there' }),
    ).rejects.toMatchObject({ responseCode: 550, response: expect.stringContaining('No such mailbox') });
  });

  it('files a stranger’s first mail as a new ticket of a new passwordless account', async () => {
    const from = uniqueEmail('newcomer');
    const row = await deliver(t, {
      from: `"Nina Newcomer" <${from}>`,
      to: SUPPORT,
      subject: 'Cannot log in to the portal',
      text: 'Every time I log in the page goes blank.',
      html: '<p>Every time I log in the page <b>goes blank</b>.</p>',
    });
    expect(row).toMatchObject({ status: 'ticket', fromAddress: from, subject: 'Cannot log in to the portal', envelopeTo: SUPPORT });
    const [account] = await t.server.database.db.select().from(users).where(eq(users.email, from));
    expect(account).toMatchObject({ name: 'Nina Newcomer', role: 'user', passwordHash: '' });
    const ticket = await detail(row.ticketId!);
    expect(ticket).toMatchObject({ title: 'Cannot log in to the portal', description: 'Every time I log in the page goes blank.' });
    expect(ticket.user).toMatchObject({ id: account!.id, name: 'Nina Newcomer' });
    // No password works for it until the reset flow gives one.
    const login = await t.api.post('/auth/login', { email: from, password: '' });
    expect(login.status).toBe(400);
    const [thread] = await t.server.database.db.select().from(emailMessages).where(eq(emailMessages.ticketId, row.ticketId!));
    expect(thread).toMatchObject({ direction: 'in', commentId: null });
  });

  it('turns HTML-only mail into text and pads a short or missing subject', async () => {
    const row = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: '',
      html: '<div><h1>Broken</h1><script>alert(1)</script><p>The <i>scanner</i> shows E-7.</p></div>',
    });
    const ticket = await detail(row.ticketId!);
    expect(ticket.title).toBe('(no subject)');
    expect(ticket.description).toContain('The scanner shows E-7.');
    expect(ticket.description).not.toMatch(/<|alert/);
    const short = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'Hi', text: 'Short one here.' });
    expect((await detail(short.ticketId!)).title).toBe('Hi...');
  });

  it('keeps a long first message whole: 2,000 characters as description, all of it as the first comment', async () => {
    const text = `${'The label printer jams on every second label. '.repeat(60)}END`;
    const row = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'Label printer jams', text });
    const ticket = await detail(row.ticketId!);
    expect(ticket.description.length).toBeLessThanOrEqual(2000);
    expect(ticket.comments).toHaveLength(1);
    expect(ticket.comments[0]).toMatchObject({ content: text, internal: false, author: { id: cast.owner.user.id } });
    expect(row.commentId).toBe(ticket.comments[0]!.id);
  });

  it('threads the owner’s reply by In-Reply-To, cutting the quoted text, and reopens a resolved ticket', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Printer on floor 2' });
    const ours = `${unique()}@helpdesk.test`;
    await t.server.database.db.insert(emailMessages).values({ messageId: ours, ticketId: ticket.id, direction: 'out' });
    await t.api.put(`/tickets/${ticket.id}`, { status: 'resolved' }, { token: cast.agent.token });
    const row = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: 'Re: Printer on floor 2',
      inReplyTo: `<${ours}>`,
      references: [`<${ours}>`],
      text: `It broke again.\n\nOn Tue, 24 Nov 2026 at 09:55, HelpDesk <${SUPPORT}> wrote:\n> ${EMAIL_REPLY_MARKER}\n> Fixed it.`,
    });
    expect(row).toMatchObject({ status: 'comment', ticketId: ticket.id });
    const after = await detail(ticket.id);
    expect(after.status).toBe('open');
    expect(after.comments.at(-1)).toMatchObject({ id: row.commentId, content: 'It broke again.', internal: false });
  });

  it('sets a pending ticket back to open on the owner’s mail; a staff member’s mail is the first response', async () => {
    const fast = { firstResponseMinutes: 60, resolutionMinutes: 240 };
    const policy = await t.api.post(
      '/sla/policies',
      { name: 'Mail desk', targets: { low: fast, medium: fast, high: fast, urgent: fast } },
      { token: cast.admin.token },
    );
    expect(policy.status).toBe(201);
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Scanner jams' });
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: 'pending' }, { token: cast.agent.token })).status).toBe(200);
    const answer = await deliver(t, { from: cast.owner.user.email, to: plus(ticket.id), subject: 'Re: Scanner jams', text: 'Here it is.' });
    expect(answer).toMatchObject({ status: 'comment', ticketId: ticket.id });
    const reopened = await detail(ticket.id);
    expect(reopened.status).toBe('open');
    expect(reopened.history.some((h) => h.type === 'status' && h.from === 'pending' && h.to === 'open')).toBe(true);
    expect(reopened.sla).toMatchObject({ state: 'ok', firstRespondedAt: null });

    const reply = await deliver(t, {
      from: cast.agent.user.email,
      to: plus(ticket.id),
      subject: 'Re: Scanner jams',
      text: 'Thanks, fixing it.',
    });
    expect(reply).toMatchObject({ status: 'comment', ticketId: ticket.id });
    expect((await detail(ticket.id)).sla?.firstRespondedAt).not.toBeNull();
    await t.api.delete(`/sla/policies/${policy.body.policy.id}`, { token: cast.admin.token });
  });

  it('threads by the signed plus-address, and not by a forged one', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Monitor flickers' });
    const row = await deliver(t, {
      from: cast.owner.user.email,
      to: plus(ticket.id),
      subject: 'About my monitor',
      text: 'Still flickering.',
    });
    expect(row).toMatchObject({ status: 'comment', ticketId: ticket.id });
    const forged = plus(ticket.id).replace(/-([0-9a-f]{10})@/, '-0000000000@');
    const other = await deliver(t, { from: cast.owner.user.email, to: forged, subject: 'About my monitor', text: 'Forged.' });
    expect(other.status).toBe('ticket');
    expect(other.ticketId).not.toBe(ticket.id);
  });

  it('threads by [#id] in the subject only for the ticket’s owner', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Keyboard missing keys' });
    const byOwner = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: `Re: keys [#${ticket.id}]`,
      text: 'The Q key too.',
    });
    expect(byOwner).toMatchObject({ status: 'comment', ticketId: ticket.id });
    const byOther = await deliver(t, { from: cast.other.user.email, to: SUPPORT, subject: `Re: keys [#${ticket.id}]`, text: 'Me too!' });
    expect(byOther.status).toBe('ticket');
    expect(byOther.ticketId).not.toBe(ticket.id);
  });

  it('files a staff member’s mail on a thread as their public reply, with its notification', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Laptop battery drains' });
    const row = await deliver(t, {
      from: cast.agent.user.email,
      to: plus(ticket.id),
      subject: 'Re: battery',
      text: 'Please update the BIOS.',
    });
    expect(row.status).toBe('comment');
    const seen = await detail(ticket.id, cast.owner.token);
    expect(seen.comments.at(-1)).toMatchObject({ content: 'Please update the BIOS.', internal: false, author: { id: cast.agent.user.id } });
  });

  it('files anyone else on a known thread as an internal note the owner never sees', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'VPN drops hourly' });
    const stranger = uniqueEmail('colleague');
    const row = await deliver(t, { from: stranger, to: plus(ticket.id), subject: 'Re: VPN', text: 'Same here on my laptop.' });
    expect(row.status).toBe('note');
    const staffView = await detail(ticket.id);
    expect(staffView.comments.at(-1)).toMatchObject({
      internal: true,
      content: `Email from ${stranger} (not the requester)\n\nSame here on my laptop.`,
    });
    const ownerView = await detail(ticket.id, cast.owner.token);
    expect(ownerView.comments.some((c) => c.content.includes('Same here'))).toBe(false);
  });

  it('makes a follow-up ticket naming a closed one instead of commenting on it', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Old request closed' });
    await t.api.put(`/tickets/${ticket.id}`, { status: 'closed' }, { token: cast.agent.token });
    const row = await deliver(t, { from: cast.owner.user.email, to: plus(ticket.id), subject: 'Re: Old request', text: 'It is back.' });
    expect(row.status).toBe('ticket');
    expect(row.ticketId).not.toBe(ticket.id);
    const followUp = await detail(row.ticketId!);
    expect(followUp.history.map((h) => [h.type, h.from])).toContainEqual(['follow_up', String(ticket.id)]);
    expect((await detail(ticket.id)).status).toBe('closed');
  });

  it('ignores a second copy of a message as a duplicate', async () => {
    const messageId = `<${unique()}@example.test>`;
    const mail = { from: cast.owner.user.email, to: SUPPORT, subject: 'Desk phone dead', text: 'No dial tone.', messageId };
    const first = await deliver(t, mail);
    const second = await deliver(t, mail);
    expect(first.status).toBe('ticket');
    expect(second).toMatchObject({ status: 'ignored', reason: 'duplicate', ticketId: null, duplicateOf: first.id });
  });

  it.each([
    ['Auto-Submitted', { 'Auto-Submitted': 'auto-replied' }, 'auto-submitted'],
    ['Precedence: bulk', { Precedence: 'bulk' }, 'precedence'],
    ['X-Autoreply', { 'X-Autoreply': 'yes' }, 'auto-reply'],
    ['List-Id', { 'List-Id': '<news.example.test>' }, 'mailing list'],
    ['our loop header', { 'X-HelpDesk-Loop': 'helpdesk.test' }, 'loop'],
  ])('ignores mail with %s', async (_, headers, reason) => {
    const row = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'Auto', text: 'Automatic text.', headers });
    expect(row).toMatchObject({ status: 'ignored', reason, ticketId: null });
  });

  it('ignores mail from a mailer-daemon, from an empty return path and from our own address', async () => {
    const daemon = await deliver(t, { from: 'MAILER-DAEMON@example.test', to: SUPPORT, subject: 'x', text: 'x' });
    expect(daemon).toMatchObject({ status: 'ignored', reason: 'mailer-daemon' });
    const nullSender = await deliver(t, { envelope: { from: '', to: SUPPORT }, from: cast.owner.user.email, subject: 'x', text: 'x' });
    expect(nullSender).toMatchObject({ status: 'ignored', reason: 'empty return path' });
    const ownAddress = await deliver(t, { from: SUPPORT, to: SUPPORT, subject: 'x', text: 'x' });
    expect(ownAddress).toMatchObject({ status: 'ignored', reason: 'own address' });
  });

  it('files the Gmail, Outlook and Apple Mail shapes of a reply without their quotes', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Printer reply shapes' });
    const expected = {
      'gmail-reply.eml': 'Thanks, the printer works again after the restart.',
      'outlook-reply.eml': 'It still fails with error E-42 after the restart, see the log below.\n\nRegards,\nOlive',
      'apple-reply.eml': 'Sounds good — I’ll try that tonight.',
    };
    for (const [name, content] of Object.entries(expected)) {
      const ours = `${unique()}@helpdesk.test`;
      await t.server.database.db.insert(emailMessages).values({ messageId: ours, ticketId: ticket.id, direction: 'out' });
      const raw = await fixture(name, {
        N: unique(),
        IN_REPLY_TO: ours,
        SUBJECT: 'Printer reply shapes',
        FROM: cast.owner.user.email,
        FROM_NAME: 'Owner Olive',
        TO: SUPPORT,
      });
      const row = await deliverRaw(t, cast.owner.user.email, SUPPORT, raw);
      expect(row, name).toMatchObject({ status: 'comment', ticketId: ticket.id });
      const comment = (await detail(ticket.id)).comments.find((c) => c.id === row.commentId);
      expect(comment?.content, name).toBe(content);
    }
  });

  it('ignores an out-of-office reply', async () => {
    const raw = await fixture('auto-reply.eml', {
      N: unique(),
      IN_REPLY_TO: `${unique()}@helpdesk.test`,
      SUBJECT: 'Anything',
      FROM: cast.owner.user.email,
      FROM_NAME: 'Owner Olive',
      TO: SUPPORT,
    });
    expect(await deliverRaw(t, cast.owner.user.email, SUPPORT, raw)).toMatchObject({ status: 'ignored', reason: 'auto-submitted' });
  });

  it('marks a bounced reply and tells staff alone in the history', async () => {
    const ticket: Ticket = await createTicket(t.api, cast.owner.token, { title: 'Bounce target' });
    const reply = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'We are on it.' }, { token: cast.agent.token });
    const commentId: number = reply.body.comment.id;
    const ours = `${unique()}@helpdesk.test`;
    const recipient = cast.owner.user.email;
    await t.server.database.db.insert(emailOutbox).values({
      kind: 'reply',
      messageId: ours,
      recipient,
      message: { from: SUPPORT, to: recipient, subject: 'Re: Bounce target', text: 'We are on it.', html: '<p>We are on it.</p>' },
      ticketId: ticket.id,
      commentId,
      status: 'sent',
    });
    await t.server.database.db.insert(emailMessages).values({ messageId: ours, ticketId: ticket.id, commentId, direction: 'out' });
    const raw = await fixture('delivery-report.eml', { N: unique(), RECIPIENT: recipient, ORIGINAL_ID: ours });
    const row = await deliverRaw(t, '', SUPPORT, raw);
    expect(row).toMatchObject({ status: 'ignored', reason: 'bounce', ticketId: ticket.id, commentId });
    const [outgoing] = await t.server.database.db.select().from(emailOutbox).where(eq(emailOutbox.messageId, ours));
    expect(outgoing?.status).toBe('bounced');
    const [entry] = await t.server.database.db
      .select()
      .from(ticketHistory)
      .where(and(eq(ticketHistory.ticketId, ticket.id), eq(ticketHistory.type, 'email_bounced')));
    expect(entry).toMatchObject({ fromValue: recipient, toValue: '5.1.1', internal: true, actorId: cast.agent.user.id });
    expect((await detail(ticket.id)).history.some((h) => h.type === 'email_bounced')).toBe(true);
    expect((await detail(ticket.id, cast.owner.token)).history.some((h) => h.type === 'email_bounced')).toBe(false);
    // The report names the reply it returned, but the reply was not filed from it.
    expect((await detail(ticket.id)).comments.find((c) => c.id === commentId)).not.toHaveProperty('inboundMessageId');
  });

  it('stores every accepted message whole, downloadable by staff only', async () => {
    const row = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'Raw copy', text: 'Keep me whole.' });
    const raw = await t.api.get(`/email/inbound/${row.id}/raw`, { token: cast.agent.token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('message/rfc822');
    expect(String(raw.body)).toContain('Keep me whole.');
    expect(Number(raw.headers.get('content-length'))).toBe(row.size);
    const denied = await t.api.get(`/email/inbound/${row.id}/raw`, { token: cast.owner.token });
    expect(denied).toMatchObject({ status: 403, body: { message: 'Only support staff can perform this action' } });
    const [stored] = await t.server.database.db.select().from(inboundMessages).where(eq(inboundMessages.id, row.id));
    expect(stored?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('with INBOUND_CREATE_USERS=false rejects a stranger; caps a sender at INBOUND_MAX_PER_SENDER_PER_HOUR', async () => {
    const strict = await startTestServer({ ...INBOUND_ENV, INBOUND_CREATE_USERS: 'false', INBOUND_MAX_PER_SENDER_PER_HOUR: '2' });
    try {
      const from = uniqueEmail('unknown');
      const row = await deliver(strict, { from, to: SUPPORT, subject: 'Let me in', text: 'Please.' });
      expect(row).toMatchObject({ status: 'rejected', reason: 'unknown sender', ticketId: null });
      expect(await strict.server.database.db.select().from(users).where(eq(users.email, from))).toHaveLength(0);
      const known = await insertUser(strict, {});
      const rows = [];
      for (let i = 0; i < 3; i++)
        rows.push(await deliver(strict, { from: known.user.email, to: SUPPORT, subject: `Message ${i}`, text: 'Again.' }));
      expect(rows.map((r) => [r.status, r.reason])).toEqual([
        ['ticket', null],
        ['ticket', null],
        ['ignored', 'rate'],
      ]);
    } finally {
      await strict.close();
    }
  });
});
