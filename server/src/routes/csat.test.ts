import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Ticket, type TicketDetail } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startMailReceiver, type MailReceiver, type ReceivedMail } from '../../test/mailReceiver.js';
import { expectRateLimited } from '../../test/rateLimited.js';
import { sentinel, socketClients } from '../../test/socketClients.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { csatSurveys, emailOutbox, tickets } from '../db/schema/index.js';
import { createUnitOfWork } from '../db/unitOfWork.js';
import { redactTokens } from '../mail/outbox.js';
import { surveyMail } from '../mail/surveyMail.js';
import { threadKeys } from '../mail/threadAddress.js';

const THANKS = 'Thank you for your feedback!';
const INVALID = 'This survey link is invalid or has expired';
const RATING_INVALID = 'Rating must be one of good, neutral, bad';
const COMMENT_TOO_LONG = 'Comment must be at most 2000 characters long';

let t: TestServer;
let smtp: MailReceiver;
let cast: Awaited<ReturnType<typeof createCast>>;
const sockets = socketClients();

beforeAll(async () => {
  smtp = await startMailReceiver();
  t = await startTestServer({ ...ADMIN_ENV, SMTP_URL: smtp.url });
  cast = await createCast(t);
});
afterEach(() => sockets.closeAll());
afterAll(async () => {
  await ifSetUp(t)?.close();
  await ifSetUp(smtp)?.close();
});

const setStatus = async (ticket: Ticket, status: string, by: Account = cast.agent) => {
  const res = await t.api.put(`/tickets/${ticket.id}`, { status }, { token: by.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const surveyMails = (owner: Account, ticket: Ticket): ReceivedMail[] =>
  smtp.to(owner.user.email).filter((mail) => mail.subject === `How did we do on ticket #${ticket.id}?`);

/** The token of the newest survey mailed for the ticket; the mailer is idle once every due mail was sent. */
const mailedToken = async (owner: Account, ticket: Ticket): Promise<string> => {
  await t.server.mailer.idle();
  const mail = surveyMails(owner, ticket).at(-1);
  const token = mail?.text.match(/\/rate\/([A-Za-z0-9_-]+)\?rating=good/)?.[1];
  if (!token) throw new Error(`no survey mail for ticket #${ticket.id}`);
  return token;
};

/** A ticket of `owner` an agent resolved, with its survey's token. */
const resolvedTicket = async (owner: Account = cast.owner) => {
  const ticket = await createTicket(t.api, owner.token, { title: 'Laptop will not charge' });
  await setStatus(ticket, 'resolved');
  return { ticket, token: await mailedToken(owner, ticket) };
};

const staffView = async (id: number): Promise<TicketDetail> => (await t.api.get(`/tickets/${id}`, { token: cast.agent.token })).body.ticket;

describe('the survey mail (docs/api.md#satisfaction-surveys)', () => {
  it('goes to the owner on resolution: the subject, and one link per rating to the rate page', async () => {
    const { ticket, token } = await resolvedTicket();
    const [mail] = surveyMails(cast.owner, ticket);
    expect(mail!.subject).toBe(`How did we do on ticket #${ticket.id}?`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const rating of ['good', 'neutral', 'bad']) expect(mail!.text).toContain(`http://helpdesk.test/rate/${token}?rating=${rating}`);
    expect(mail!.html).toContain(`http://helpdesk.test/rate/${token}?rating=bad`);
    // The link works, and only its hash is kept.
    expect((await t.api.get(`/csat/${token}`)).body.survey).toMatchObject({ ticketId: ticket.id, title: ticket.title });
    const rows = await t.server.database.db.select().from(csatSurveys).where(eq(csatSurveys.ticketId, ticket.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
    // Mail written to the log (no SMTP_URL) shows no working link.
    expect(redactTokens(mail!.text)).toContain('http://helpdesk.test/rate/[redacted]?rating=good');
    expect(redactTokens(mail!.html)).not.toContain(token);
  });

  it('goes out on a bulk change to resolved as well', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Bulk resolved' });
    const res = await t.api.post('/tickets/bulk', { ids: [ticket.id], changes: { status: 'resolved' } }, { token: cast.agent.token });
    expect(res.body.updated).toHaveLength(1);
    expect(await mailedToken(cast.owner, ticket)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is not sent for other status changes, nor to an owner who asked for no mail (who can still answer on the page)', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Only in progress' });
    await setStatus(ticket, 'in_progress');
    await t.server.mailer.idle();
    expect(surveyMails(cast.owner, ticket)).toEqual([]);

    const quiet = await insertUser(t, { name: 'Quiet Quinn' });
    await t.api.put('/users/preferences', { email_notifications: 'none' }, { token: quiet.token });
    const theirs = await createTicket(t.api, quiet.token);
    await setStatus(theirs, 'resolved');
    await t.server.mailer.idle();
    expect(surveyMails(quiet, theirs)).toEqual([]);
    expect((await t.api.get(`/tickets/${theirs.id}/csat`, { token: quiet.token })).body.survey).toMatchObject({ ticketId: theirs.id });
  });

  it('is not mailed to an owner who resolved the ticket themselves, nor issued for a staff member’s own ticket', async () => {
    const own = await createTicket(t.api, cast.owner.token, { title: 'Fixed it myself' });
    await setStatus(own, 'resolved', cast.owner);
    await t.server.mailer.idle();
    expect(surveyMails(cast.owner, own)).toEqual([]);
    expect((await t.api.get(`/tickets/${own.id}/csat`, { token: cast.owner.token })).body.survey).toMatchObject({ ticketId: own.id });

    const staffOwned = await createTicket(t.api, cast.agent.token, { title: 'Agent’s own laptop' });
    await setStatus(staffOwned, 'resolved', cast.admin);
    await t.server.mailer.idle();
    expect(surveyMails(cast.agent, staffOwned)).toEqual([]);
    expect(await t.server.database.db.select().from(csatSurveys).where(eq(csatSurveys.ticketId, staffOwned.id))).toEqual([]);
  });

  it('is written with the resolution: a transaction that fails after it leaves neither survey nor mail', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Rolled back' });
    const { db } = t.server.database;
    const hook = surveyMail({
      publicUrl: 'http://helpdesk.test',
      mailFrom: 'x@helpdesk.test',
      threadKeys: threadKeys('s@helpdesk.test', undefined, 'a-secret-only-this-hook-signs-with'),
      tokenTtlDays: 30,
    });
    const failing = createUnitOfWork(db, t.server.bus, async (tx, events, emit) => {
      await hook(tx, events, emit);
      throw new Error('a later write failed');
    });
    const published: unknown[] = [];
    const off = t.server.bus.subscribe('mail.queued', (event) => void published.push(event));
    await expect(
      failing(async (tx, emit) => {
        await tx.update(tickets).set({ status: 'resolved' }).where(eq(tickets.id, ticket.id));
        emit('ticket.updated', {
          ticketId: ticket.id,
          ownerId: cast.owner.user.id,
          actor: { id: cast.agent.user.id, name: 'Agent Smith', role: 'agent' },
          statusChange: { from: 'open', to: 'resolved' },
          ticket: { ...ticket, status: 'resolved' },
          previous: { status: 'open' },
          history: [],
        });
      }),
    ).rejects.toThrow('a later write failed');
    off();
    expect(await db.select().from(csatSurveys).where(eq(csatSurveys.ticketId, ticket.id))).toEqual([]);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.ticketId, ticket.id))).toEqual([]);
    expect(published).toEqual([]);
  });

  it('a new resolution issues a new survey; the older link ends and the newest answer is the one staff see', async () => {
    const { ticket, token: first } = await resolvedTicket();
    expect((await t.api.post(`/csat/${first}`, { rating: 'bad' })).status).toBe(200);
    expect((await staffView(ticket.id)).csat).toMatchObject({ rating: 'bad' });
    await setStatus(ticket, 'open');
    await setStatus(ticket, 'resolved');
    const second = await mailedToken(cast.owner, ticket);
    expect(second).not.toBe(first);
    expect(surveyMails(cast.owner, ticket)).toHaveLength(2);
    // The new resolution is not rated yet.
    expect((await staffView(ticket.id)).csat).toBeNull();
    expect(await t.api.get(`/csat/${first}`)).toMatchObject({ status: 404, body: { success: false, message: INVALID } });
    expect(await t.api.post(`/csat/${first}`, { rating: 'good' })).toMatchObject({ status: 404, body: { message: INVALID } });
    expect((await t.api.post(`/csat/${second}`, { rating: 'good' })).status).toBe(200);
    expect((await staffView(ticket.id)).csat).toMatchObject({ rating: 'good', comment: null });
  });
});

describe('the survey link', () => {
  it('GET shows the survey and records nothing; POST records; sending again replaces the answer', async () => {
    const { ticket, token } = await resolvedTicket();
    const read = await t.api.get(`/csat/${token}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      success: true,
      survey: { ticketId: ticket.id, title: ticket.title, rating: null, comment: null, expiresAt: expect.any(String) },
    });
    const days = (Date.parse(read.body.survey.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    expect((await staffView(ticket.id)).csat).toBeNull();

    const sent = await t.api.post(`/csat/${token}`, { rating: 'neutral', comment: '  Took a while.  ' });
    expect(sent.body).toEqual({ success: true, message: THANKS });
    expect((await t.api.get(`/csat/${token}`)).body.survey).toMatchObject({ rating: 'neutral', comment: 'Took a while.' });
    const first = (await staffView(ticket.id)).csat!;
    expect(first).toMatchObject({ rating: 'neutral', comment: 'Took a while.' });

    expect((await t.api.post(`/csat/${token}`, { rating: 'good' })).body).toEqual({ success: true, message: THANKS });
    const second = (await staffView(ticket.id)).csat!;
    expect(second).toMatchObject({ rating: 'good', comment: null });
    expect(Date.parse(second.at)).toBeGreaterThanOrEqual(Date.parse(first.at));
  });

  it('a wrong, malformed or expired token is 404', async () => {
    const { ticket, token } = await resolvedTicket();
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [wrong, 'short', `${token}x`, '%00']) {
      expect(await t.api.get(`/csat/${bad}`)).toMatchObject({ status: 404, body: { success: false, message: INVALID } });
      expect(await t.api.post(`/csat/${bad}`, { rating: 'good' })).toMatchObject({ status: 404, body: { message: INVALID } });
    }
    await t.server.database.db
      .update(csatSurveys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(csatSurveys.ticketId, ticket.id));
    expect(await t.api.get(`/csat/${token}`)).toMatchObject({ status: 404, body: { message: INVALID } });
    expect(await t.api.post(`/csat/${token}`, { rating: 'good' })).toMatchObject({ status: 404, body: { message: INVALID } });
  });

  it('says what is wrong with an answer (400), and records nothing', async () => {
    const { ticket, token } = await resolvedTicket();
    for (const body of [{}, { rating: 'great' }, { rating: 3 }, { rating: null }]) {
      expect(await t.api.post(`/csat/${token}`, body)).toMatchObject({ status: 400, body: { success: false, message: RATING_INVALID } });
    }
    expect(await t.api.post(`/csat/${token}`, { rating: 'good', comment: 'x'.repeat(2001) })).toMatchObject({
      status: 400,
      body: { success: false, message: COMMENT_TOO_LONG },
    });
    expect(await t.api.post(`/csat/${token}`, { rating: 'good', comment: 42 })).toMatchObject({
      status: 400,
      body: { message: 'Comment must be text' },
    });
    expect((await t.api.post(`/csat/${token}`, { rating: 'good', comment: 'x'.repeat(2000) })).status).toBe(200);
    expect(MESSAGES.csat).toMatchObject({
      ratingInvalid: RATING_INVALID,
      commentTooLong: COMMENT_TOO_LONG,
      thanks: THANKS,
      linkInvalid: INVALID,
    });
    expect((await staffView(ticket.id)).csat?.comment).toHaveLength(2000);
  });
});

describe('who sees and answers what', () => {
  it('the owner answers from the ticket page; another user, staff and strangers cannot', async () => {
    const { ticket } = await resolvedTicket();
    const path = `/tickets/${ticket.id}/csat`;
    expect((await t.api.get(path, { token: cast.owner.token })).body).toEqual({
      success: true,
      survey: { ticketId: ticket.id, title: ticket.title, rating: null, comment: null, expiresAt: expect.any(String) },
    });
    expect(await t.api.post(path, { rating: 'good', comment: 'Quick fix' }, { token: cast.owner.token })).toMatchObject({
      status: 200,
      body: { success: true, message: THANKS },
    });
    expect((await t.api.get(path, { token: cast.owner.token })).body.survey).toMatchObject({ rating: 'good', comment: 'Quick fix' });
    expect(await t.api.post(path, { rating: 'meh' }, { token: cast.owner.token })).toMatchObject({
      status: 400,
      body: { message: RATING_INVALID },
    });

    for (const who of [cast.other]) {
      expect(await t.api.get(path, { token: who.token })).toMatchObject({ status: 404, body: { message: MESSAGES.tickets.notFound } });
      expect(await t.api.post(path, { rating: 'bad' }, { token: who.token })).toMatchObject({ status: 404 });
    }
    for (const who of [cast.agent, cast.admin]) {
      expect(await t.api.post(path, { rating: 'bad' }, { token: who.token })).toMatchObject({
        status: 403,
        body: { message: 'Only the ticket’s owner can rate it' },
      });
    }
    expect((await t.api.post(path, { rating: 'bad' })).status).toBe(401);
    expect((await staffView(ticket.id)).csat).toMatchObject({ rating: 'good', comment: 'Quick fix' });
  });

  it('an owner with nothing to answer gets null, and 404 when sending', async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const path = `/tickets/${ticket.id}/csat`;
    expect((await t.api.get(path, { token: cast.owner.token })).body).toEqual({ success: true, survey: null });
    expect(await t.api.post(path, { rating: 'good' }, { token: cast.owner.token })).toMatchObject({
      status: 404,
      body: { message: 'This ticket has no survey to answer' },
    });
  });

  it('staff see the rating on the ticket; the owner never does there', async () => {
    const { ticket, token } = await resolvedTicket();
    await t.api.post(`/csat/${token}`, { rating: 'bad', comment: 'Slow' });
    expect((await staffView(ticket.id)).csat).toEqual({ rating: 'bad', comment: 'Slow', at: expect.any(String) });
    const own = (await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token })).body.ticket as TicketDetail;
    expect(own).not.toHaveProperty('csat');
  });

  it('csat-received reaches staff sockets after the answer, never the owner’s', async () => {
    const { ticket, token } = await resolvedTicket();
    const staff = await sockets.listen(t.url, cast.agent.token);
    const owner = await sockets.listen(t.url, cast.owner.token);
    await t.api.post(`/csat/${token}`, { rating: 'good', comment: 'Thanks!' });
    const event = await staff.next('csat-received', (e) => e.ticketId === ticket.id);
    expect(event).toMatchObject({ ticketId: ticket.id, csat: { rating: 'good', comment: 'Thanks!', at: expect.any(String) } });
    await sentinel(t.api, cast.agent.token, [owner]);
    expect(owner.events['csat-received']).toEqual([]);
  });

  it('the bus announces csat.received for other subscribers (webhooks)', async () => {
    const { ticket, token } = await resolvedTicket();
    const heard = new Promise((resolve) => {
      const off = t.server.bus.subscribe('csat.received', (event) => {
        if (event.ticketId !== ticket.id) return;
        off();
        resolve(event);
      });
    });
    await t.api.post(`/csat/${token}`, { rating: 'neutral' });
    expect(await heard).toMatchObject({ ticketId: ticket.id, ownerId: cast.owner.user.id, csat: { rating: 'neutral', comment: null } });
  });
});

describe('with CSAT_ENABLED=false, and the public routes’ rate limit', () => {
  const LIMIT = { points: 3, durationSeconds: 60 };
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer({ SMTP_URL: smtp.url, CSAT_ENABLED: 'false' }, { rateLimits: { csatPerAddress: LIMIT } });
  });
  afterAll(() => ifSetUp(off)?.close());

  it('a resolution issues no survey and mails none', async () => {
    const agent = await insertUser(off, { role: 'agent' });
    const owner = await insertUser(off, { name: 'Unasked Uma' });
    const ticket = await createTicket(off.api, owner.token);
    expect((await off.api.put(`/tickets/${ticket.id}`, { status: 'resolved' }, { token: agent.token })).status).toBe(200);
    await off.server.mailer.idle();
    expect(smtp.to(owner.user.email).map((m) => m.subject)).toEqual([`Ticket #${ticket.id} is now Resolved`]);
    expect(await off.server.database.db.select().from(csatSurveys)).toEqual([]);
  });

  it('counts every public call per address, and then answers 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT.points; i++) statuses.push((await off.api.get(`/csat/${'A'.repeat(43)}`)).status);
    expect(statuses).toEqual([404, 404, 404]);
    expectRateLimited(
      await off.api.post(`/csat/${'A'.repeat(43)}`, { rating: 'good' }),
      MESSAGES.csat.tooManyRequests,
      LIMIT.durationSeconds,
    );
    expectRateLimited(await off.api.get(`/csat/${'B'.repeat(43)}`), MESSAGES.csat.tooManyRequests, LIMIT.durationSeconds);
  });
});
