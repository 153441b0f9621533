import type { Comment } from '@helpdesk/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ENV, createCast } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { deliver, deliverRaw, INBOUND_ENV, SUPPORT } from '../../test/inboundMail.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { sentinel, socketClients } from '../../test/socketClients.js';

describe('Email admin calls (docs/api.md#email-admin)', () => {
  let t: TestServer;
  let cast: Awaited<ReturnType<typeof createCast>>;
  const sockets = socketClients();

  beforeAll(async () => {
    t = await startTestServer({
      ...ADMIN_ENV,
      ...INBOUND_ENV,
      IMAP_URL: 'imaps://helpdesk:very-secret-password@imap.example.test/INBOX',
      IMAP_POLL_MS: '30000',
    });
    cast = await createCast(t);
  });
  afterEach(() => sockets.closeAll());
  afterAll(async () => {
    await ifSetUp(t)?.close();
  });

  it('shows admins the settings in force, never a password', async () => {
    const res = await t.api.get('/email/settings', { token: cast.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({
      supportAddress: SUPPORT,
      smtp: { host: '127.0.0.1', port: t.server.inboundSmtpPort },
      imap: { url: 'imaps://helpdesk@imap.example.test/INBOX', doneFolder: 'Processed', pollMs: 30_000 },
      createUsers: true,
      maxBytes: 36 * 1024 * 1024,
      maxPerSenderPerHour: 20,
    });
    expect(JSON.stringify(res.body)).not.toContain('very-secret-password');
  });

  it('lists the newest messages first with their status and reason, paged by id', async () => {
    const first = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'First', text: 'One.' });
    const second = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: 'Second',
      text: 'Two.',
      headers: { Precedence: 'bulk' },
    });
    const page = await t.api.get('/email/inbound?limit=1', { token: cast.admin.token });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      hasMore: true,
      messages: [{ id: second.id, status: 'ignored', reason: 'precedence', subject: 'Second' }],
    });
    const older = await t.api.get(`/email/inbound?limit=1&before=${second.id}`, { token: cast.admin.token });
    expect(older.body.messages).toMatchObject([{ id: first.id, status: 'ticket', ticketId: first.ticketId, from: cast.owner.user.email }]);
  });

  it('keeps every call but the raw download to admins, and validates ids and limits', async () => {
    for (const [method, path] of [
      ['GET', '/email/settings'],
      ['GET', '/email/inbound'],
      ['POST', '/email/inbound/1/retry'],
    ] as const) {
      const res = await t.api.request(method, path, { token: cast.agent.token });
      expect(res, `${method} ${path}`).toMatchObject({ status: 403, body: { message: 'Only administrators can perform this action' } });
      const anonymous = await t.api.request(method, path);
      expect(anonymous.status).toBe(401);
    }
    expect((await t.api.get('/email/inbound?limit=500', { token: cast.admin.token })).body).toMatchObject({
      message: 'Limit must be a whole number from 1 to 100',
    });
    expect((await t.api.post('/email/inbound/abc/retry', undefined, { token: cast.admin.token })).status).toBe(400);
    expect(await t.api.post('/email/inbound/999999/retry', undefined, { token: cast.admin.token })).toMatchObject({
      status: 404,
      body: { message: 'Inbound message not found' },
    });
    expect((await t.api.get('/email/inbound/999999/raw', { token: cast.agent.token })).status).toBe(404);
  });

  it('gives agents the original of filed mail only: a bounce, which may quote a reset link, is for admins', async () => {
    const bounce = await deliver(t, {
      from: 'MAILER-DAEMON@mail.example.test',
      to: SUPPORT,
      subject: 'Undelivered Mail Returned to Sender',
      text: 'Your password reset link: https://help.example.test/reset-password?token=secret-reset-token',
    });
    expect(bounce.status).toBe('ignored');
    const raw = (token: string) => fetch(`${t.url}/api/email/inbound/${bounce.id}/raw`, { headers: { authorization: `Bearer ${token}` } });
    const refused = await raw(cast.agent.token);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ success: false, message: 'Inbound message not found' });
    const read = await raw(cast.admin.token);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('secret-reset-token');
  });

  it('retries only a failed message', async () => {
    const row = await deliver(t, { from: cast.owner.user.email, to: SUPPORT, subject: 'Fine', text: 'Filed fine.' });
    expect(await t.api.post(`/email/inbound/${row.id}/retry`, undefined, { token: cast.admin.token })).toMatchObject({
      status: 409,
      body: { message: 'Only a failed message can be retried' },
    });
  });

  it('names to staff alone the mail a ticket and its comments came from, which an agent downloads whole', async () => {
    const staff = await sockets.listen(t.url, cast.agent.token);
    const owner = await sockets.listen(t.url, cast.owner.token);
    const from = cast.owner.user.email;
    // Past the description's 2,000 characters: the whole text is also the first comment.
    const long = `${'The scanner jams on every page. '.repeat(80)}\n\nRegards, Olive`;
    const opened = await deliver(t, {
      from,
      to: SUPPORT,
      subject: 'Scanner jams',
      text: long,
      messageId: `<open-${Date.now()}@customer.test>`,
    });
    expect(opened).toMatchObject({ status: 'ticket', commentId: expect.any(Number) });
    const ticketId = opened.ticketId!;
    const raw = [
      `From: Owner Olive <${from}>`,
      `To: ${SUPPORT}`,
      'Subject: Re: Scanner jams',
      `Message-ID: <reply-${Date.now()}@customer.test>`,
      `In-Reply-To: <${opened.messageId}>`,
      'Date: Mon, 02 Mar 2026 10:00:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Still jamming after the update.',
      '',
      'On Mon, 2 Mar 2026 at 09:00, HelpDesk <support@helpdesk.test> wrote:',
      '> Have you tried turning it off and on again?',
      '',
    ].join('\r\n');
    const reply = await deliverRaw(t, from, SUPPORT, raw);
    expect(reply).toMatchObject({ status: 'comment', ticketId });
    // A later web reply: the page before it holds both mailed comments.
    const web = await t.api.post(`/tickets/${ticketId}/comments`, { content: 'Sending a technician.' }, { token: cast.agent.token });
    expect(web.status).toBe(201);

    const staffRead = (await t.api.get(`/tickets/${ticketId}`, { token: cast.agent.token })).body.ticket;
    expect(staffRead.inboundMessageId).toBe(opened.id);
    const byId = (comments: Comment[], id: number | null) => comments.find((c) => c.id === id);
    expect(byId(staffRead.comments, opened.commentId)).toMatchObject({ inboundMessageId: opened.id });
    expect(byId(staffRead.comments, reply.commentId)).toMatchObject({
      content: 'Still jamming after the update.',
      inboundMessageId: reply.id,
    });
    expect(byId(staffRead.comments, web.body.comment.id)).not.toHaveProperty('inboundMessageId');
    const older = await t.api.get(`/tickets/${ticketId}/comments?before=${web.body.comment.id}`, { token: cast.agent.token });
    expect(byId(older.body.comments, reply.commentId)).toMatchObject({ inboundMessageId: reply.id });

    const ownerRead = (await t.api.get(`/tickets/${ticketId}`, { token: cast.owner.token })).body.ticket;
    expect(ownerRead).not.toHaveProperty('inboundMessageId');
    expect(ownerRead.comments.length).toBe(3);
    for (const comment of ownerRead.comments) expect(comment).not.toHaveProperty('inboundMessageId');
    const ownerOlder = await t.api.get(`/tickets/${ticketId}/comments?before=${web.body.comment.id}`, { token: cast.owner.token });
    expect(ownerOlder.body.comments.length).toBe(2);
    for (const comment of ownerOlder.body.comments) expect(comment).not.toHaveProperty('inboundMessageId');

    // Live alike: staff's copy of the mailed reply names its message, the owner's does not.
    await sentinel(t.api, cast.agent.token, [staff, owner]);
    expect((await staff.next('comment-added', (e) => e.comment.id === reply.commentId)).comment.inboundMessageId).toBe(reply.id);
    expect((await owner.next('comment-added', (e) => e.comment.id === reply.commentId)).comment).not.toHaveProperty('inboundMessageId');
    expect(owner.events['comment-added'].some((e) => 'inboundMessageId' in e.comment)).toBe(false);

    // The quote cut from the comment is in the original, byte for byte.
    const download = await fetch(`${t.url}/api/email/inbound/${reply.id}/raw`, {
      headers: { authorization: `Bearer ${cast.agent.token}` },
    });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(raw))).toBe(true);
  });

  it('sends a mailed comment with its files in the live event, as a later read shows it', async () => {
    const staff = await sockets.listen(t.url, cast.agent.token);
    const owner = await sockets.listen(t.url, cast.owner.token);
    const file = (filename: string) => ({ filename, content: `contents of ${filename}\n`, contentType: 'text/plain' });
    const names = (comment: Comment) => comment.attachments.map((a) => a.filename);
    // A first message past the description's length: its text and files become the first comment.
    const opened = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: 'Badge reader logs',
      text: 'The badge reader at the side door refuses every badge since Monday. '.repeat(40),
      attachments: [file('reader-log.txt')],
    });
    expect(opened).toMatchObject({ status: 'ticket', commentId: expect.any(Number) });
    const ticketId = opened.ticketId!;
    const reply = await deliver(t, {
      from: cast.owner.user.email,
      to: SUPPORT,
      subject: 'Re: Badge reader logs',
      inReplyTo: `<${opened.messageId}>`,
      text: 'Here is the log of this morning too.',
      attachments: [file('morning-log.txt')],
    });
    expect(reply).toMatchObject({ status: 'comment', ticketId });
    // Someone else on the thread: a note for staff, with its file.
    const note = await deliver(t, {
      from: cast.other.user.email,
      to: SUPPORT,
      subject: 'Re: Badge reader logs',
      inReplyTo: `<${opened.messageId}>`,
      text: 'Same at the back door.',
      attachments: [file('back-door.txt')],
    });
    expect(note).toMatchObject({ status: 'note', ticketId });

    await sentinel(t.api, cast.agent.token, [staff, owner]);
    const live = async (client: typeof staff, id: number | null) => client.next('comment-added', (e) => e.comment.id === id);
    expect(names((await live(staff, opened.commentId)).comment)).toEqual(['reader-log.txt']);
    expect(names((await live(owner, opened.commentId)).comment)).toEqual(['reader-log.txt']);
    expect(names((await live(staff, reply.commentId)).comment)).toEqual(['morning-log.txt']);
    expect(names((await live(owner, reply.commentId)).comment)).toEqual(['morning-log.txt']);
    expect(names((await live(staff, note.commentId)).comment)).toEqual(['back-door.txt']);
    expect(owner.events['comment-added'].some((e) => e.comment.id === note.commentId)).toBe(false);
    // What the events said is what a fresh read holds.
    const read = (await t.api.get(`/tickets/${ticketId}`, { token: cast.agent.token })).body.ticket as { comments: Comment[] };
    const stored = new Map(read.comments.map((c) => [c.id, c.attachments]));
    for (const filed of [opened, reply, note]) {
      const event = await live(staff, filed.commentId);
      expect(event.comment.attachments).toEqual(stored.get(filed.commentId!));
    }
  });
});
