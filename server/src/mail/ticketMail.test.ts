import { setTimeout as sleep } from 'node:timers/promises';
import { createServer as createTcpServer, type AddressInfo, type Socket as TcpSocket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationPreference, Ticket } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, insertUser, signUp, type Account } from '../../test/factories.js';
import { emailOutbox } from '../db/schema/index.js';
import { ifSetUp } from '../../test/hooks.js';
import { startMailReceiver, type MailReceiver } from '../../test/mailReceiver.js';
import { startTestServer, type TestServer } from '../../test/server.js';

const MAIL_TIMEOUT_MS = 5_000;

describe('ticket notification mails (docs/api.md#email)', () => {
  let t: TestServer;
  let smtp: MailReceiver;
  let cast: Awaited<ReturnType<typeof createCast>>;

  beforeAll(async () => {
    smtp = await startMailReceiver();
    // The survey mail a resolution also sends has its suite (routes/csat.test.ts); here, the notices alone.
    t = await startTestServer({ ...ADMIN_ENV, SMTP_URL: smtp.url, CSAT_ENABLED: 'false' });
    cast = await createCast(t);
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
    await ifSetUp(smtp)?.close();
  });

  /** The notifier works after the response is sent, so wait for the mail to arrive. */
  const waitForMails = async (address: string, count: number) => {
    const deadline = Date.now() + MAIL_TIMEOUT_MS;
    while (smtp.to(address).length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} mails to ${address}, got ${smtp.to(address).length}`);
      await sleep(20);
    }
    return smtp.to(address);
  };
  /**
   * No waiting out a delay: the notifier hands each notice to the mailer before the request is
   * answered, so once the mailer is idle every mail those requests cause has been sent or dropped.
   */
  const quiet = async () => {
    await t.server.mailer.idle();
  };

  const ownerWith = async (preference: NotificationPreference, name: string): Promise<Account> => {
    const owner = await insertUser(t, { name });
    const res = await t.api.put('/users/preferences', { email_notifications: preference }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      message: 'Email preferences updated successfully!',
      user: { id: owner.user.id, email_notifications: preference },
    });
    return owner;
  };

  const setStatus = async (ticket: Ticket, status: string, by: Account) => {
    const res = await t.api.put(`/tickets/${ticket.id}`, { status }, { token: by.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.ticket as Ticket;
  };
  const comment = async (ticket: Ticket, content: string, by: Account) => {
    const res = await t.api.post(`/tickets/${ticket.id}/comments`, { content }, { token: by.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  };

  it('new accounts default to "all"', async () => {
    const fresh = await signUp(t.api, { name: 'Default Dana' });
    expect(fresh.user.email_notifications).toBe('all');
    const profile = await t.api.get('/users/profile', { token: fresh.token });
    expect(profile.body.user.email_notifications).toBe('all');
  });

  it('"all": mails every status change made by staff and every staff comment', async () => {
    const owner = await ownerWith('all', 'All Alice');
    const ticket = await createTicket(t.api, owner.token, { title: 'Monitor flickers' });
    await quiet();
    expect(smtp.to(owner.user.email)).toEqual([]); // creating a ticket is not a status change

    await setStatus(ticket, 'in_progress', cast.agent);
    let mails = await waitForMails(owner.user.email, 1);
    expect(mails[0]!.subject).toBe(`Ticket #${ticket.id} is now In Progress`);
    expect(mails[0]!.text).toContain('Agent Smith changed the status of your ticket');
    expect(mails[0]!.text).toContain('from Open to In Progress');
    expect(mails[0]!.text).toContain(`http://helpdesk.test/ticket/${ticket.id}`);

    await comment(ticket, 'We ordered a new cable for you.', cast.agent);
    mails = await waitForMails(owner.user.email, 2);
    expect(mails[1]!.subject).toBe(`Re: ${ticket.title} [#${ticket.id}]`);
    expect(mails[1]!.text).toContain('We ordered a new cable for you.');
    expect(mails[1]!.text).toContain('Agent Smith');

    await setStatus(ticket, 'resolved', cast.agent);
    mails = await waitForMails(owner.user.email, 3);
    expect(mails[2]!.subject).toBe(`Ticket #${ticket.id} is now Resolved`);

    await setStatus(ticket, 'closed', cast.admin);
    mails = await waitForMails(owner.user.email, 4);
    expect(mails[3]!.subject).toBe(`Ticket #${ticket.id} is now Closed`);

    await comment(ticket, 'Admin note after closing.', cast.admin);
    mails = await waitForMails(owner.user.email, 5);
    expect(mails[4]!.subject).toBe(`Re: ${ticket.title} [#${ticket.id}]`);

    await setStatus(ticket, 'open', cast.agent);
    mails = await waitForMails(owner.user.email, 6);
    expect(mails[5]!.subject).toBe(`Ticket #${ticket.id} is now Open`);

    // Changes that are not status changes, and a "change" to the same status, send nothing.
    const res = await t.api.put(
      `/tickets/${ticket.id}`,
      { priority: 'urgent', resolutionNotes: 'Cable swapped' },
      { token: cast.agent.token },
    );
    expect(res.status).toBe(200);
    await setStatus(ticket, 'open', cast.agent);
    await quiet();
    expect(smtp.to(owner.user.email)).toHaveLength(6);

    // Only the owner is mailed: never staff, never anyone else.
    for (const account of [cast.agent, cast.admin, cast.other]) expect(smtp.to(account.user.email)).toEqual([]);
    for (const mail of smtp.to(owner.user.email)) expect(mail.to).toEqual([owner.user.email]);
  });

  it('"important": mails only when the status becomes resolved or closed', async () => {
    const owner = await ownerWith('important', 'Important Ian');
    const ticket = await createTicket(t.api, owner.token, { title: 'Laptop battery swelling' });

    await setStatus(ticket, 'in_progress', cast.agent);
    await comment(ticket, 'Please stop using the laptop.', cast.agent);
    await quiet();
    expect(smtp.to(owner.user.email)).toEqual([]);

    await setStatus(ticket, 'resolved', cast.agent);
    let mails = await waitForMails(owner.user.email, 1);
    expect(mails[0]!.subject).toBe(`Ticket #${ticket.id} is now Resolved`);
    expect(mails[0]!.text).toContain('from In Progress to Resolved');

    await setStatus(ticket, 'open', cast.agent);
    await quiet();
    expect(smtp.to(owner.user.email)).toHaveLength(1);

    await setStatus(ticket, 'closed', cast.admin);
    mails = await waitForMails(owner.user.email, 2);
    expect(mails[1]!.subject).toBe(`Ticket #${ticket.id} is now Closed`);

    await comment(ticket, 'Closing remark from the admin.', cast.admin);
    await quiet();
    expect(smtp.to(owner.user.email)).toHaveLength(2);
  });

  it('"none": mails nothing at all', async () => {
    const owner = await ownerWith('none', 'Nobody Nora');
    const ticket = await createTicket(t.api, owner.token, { title: 'Keyboard missing keys' });

    await setStatus(ticket, 'in_progress', cast.agent);
    await comment(ticket, 'New keyboard on its way.', cast.agent);
    await setStatus(ticket, 'resolved', cast.agent);
    await setStatus(ticket, 'closed', cast.admin);
    await quiet();
    expect(smtp.to(owner.user.email)).toEqual([]);

    // The preference is read at send time: switching back on brings mails back.
    await t.api.put('/users/preferences', { email_notifications: 'all' }, { token: owner.token });
    await setStatus(ticket, 'open', cast.agent);
    const mails = await waitForMails(owner.user.email, 1);
    expect(mails[0]!.subject).toBe(`Ticket #${ticket.id} is now Open`);
  });

  it('does not mail the owner about their own changes and comments', async () => {
    const owner = await ownerWith('all', 'Self Sally');
    const ticket = await createTicket(t.api, owner.token, { title: 'Mouse double clicks' });

    await setStatus(ticket, 'in_progress', owner);
    await comment(ticket, 'Adding some details myself.', owner);
    await setStatus(ticket, 'resolved', owner);
    await quiet();
    expect(smtp.to(owner.user.email)).toEqual([]);

    // The same owner still hears from staff, so the silence above was the rule, not a broken pipeline.
    await comment(ticket, 'Glad it works now.', cast.agent);
    const mails = await waitForMails(owner.user.email, 1);
    expect(mails[0]!.subject).toBe(`Re: ${ticket.title} [#${ticket.id}]`);
  });

  it("a staff member's own ticket is not mailed to them when they change it", async () => {
    const staffTicket = await createTicket(t.api, cast.agent.token, { title: 'Agent needs a new headset' });
    await setStatus(staffTicket, 'in_progress', cast.agent);
    await comment(staffTicket, 'Note to self.', cast.agent);
    await quiet();
    expect(smtp.to(cast.agent.user.email)).toEqual([]);

    // A change by someone else to that ticket does reach its (staff) owner.
    await setStatus(staffTicket, 'resolved', cast.admin);
    const mails = await waitForMails(cast.agent.user.email, 1);
    expect(mails[0]!.subject).toBe(`Ticket #${staffTicket.id} is now Resolved`);
  });
});

describe('a failing mail server never fails or slows the request', () => {
  /** Accepts TCP connections and never says a word: the worst kind of SMTP server. */
  let blackHole: ReturnType<typeof createTcpServer>;
  const held = new Set<TcpSocket>();
  let t: TestServer;
  let cast: Awaited<ReturnType<typeof createCast>>;
  let blackHoleOpen = true;

  beforeAll(async () => {
    blackHole = createTcpServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => held.delete(socket));
    });
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', () => resolve()));
    const { port } = blackHole.address() as AddressInfo;
    t = await startTestServer({ ...ADMIN_ENV, SMTP_URL: `smtp://127.0.0.1:${port}`, SHUTDOWN_TIMEOUT_MS: '2000' });
    cast = await createCast(t);
  });
  afterAll(async () => {
    await closeBlackHole();
    await ifSetUp(t)?.close();
  });

  const closeBlackHole = async () => {
    if (!blackHoleOpen) return;
    blackHoleOpen = false;
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => blackHole.close(() => resolve()));
  };

  const timed = async <T>(call: () => Promise<T>) => {
    const started = performance.now();
    const result = await call();
    return { result, ms: performance.now() - started };
  };

  /** Every kind of call that queues a mail, each timed. */
  const mailTriggeringCalls = async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const statusChange = await timed(() => t.api.put(`/tickets/${ticket.id}`, { status: 'resolved' }, { token: cast.agent.token }));
    const staffComment = await timed(() =>
      t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Mail server is having a bad day.' }, { token: cast.agent.token }),
    );
    const reset = await timed(() => t.api.post('/auth/request-password-reset', { email: cast.owner.user.email }));
    return { statusChange, staffComment, reset };
  };

  const expectFastAndSuccessful = (calls: Awaited<ReturnType<typeof mailTriggeringCalls>>) => {
    expect(calls.statusChange.result.status).toBe(200);
    expect(calls.statusChange.result.body.ticket.status).toBe('resolved');
    expect(calls.staffComment.result.status).toBe(201);
    expect(calls.reset.result.status).toBe(200);
    expect(calls.reset.result.body).toEqual({
      success: true,
      message: 'If an account with that email exists, a password reset link has been sent.',
    });
    for (const { ms } of Object.values(calls)) expect(ms).toBeLessThan(1_000);
  };

  it('answers at once while the mail server accepts connections but never responds', async () => {
    const calls = await mailTriggeringCalls();
    expectFastAndSuccessful(calls);
    // The mailer really was trying to deliver to the silent server.
    const deadline = Date.now() + 3_000;
    while (held.size === 0 && Date.now() < deadline) await sleep(20);
    expect(held.size).toBeGreaterThan(0);
    expect((await t.api.get('/health')).status).toBe(200);
  });

  it('answers at once while nothing listens on the mail port, and keeps the mail queued for its retry', async () => {
    await closeBlackHole();
    const calls = await mailTriggeringCalls();
    expectFastAndSuccessful(calls);

    // The failed attempt is recorded and the mail waits in the outbox for its retry; the server stays fine.
    await t.server.mailer.idle();
    const reset = await t.server.database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'password-reset'));
    expect(reset.at(-1)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(reset.at(-1)?.lastError).toBeTruthy();
    expect(reset.at(-1)!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect((await t.api.get('/health')).body).toEqual({ status: 'ok', db: 'ok' });
    const ticket = await createTicket(t.api, cast.owner.token);
    expect((await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token })).status).toBe(200);
  });
});
