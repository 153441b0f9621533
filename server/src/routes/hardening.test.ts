/**
 * Inputs that once answered 500 or misled the caller: text PostgreSQL cannot store, bodies that are
 * not JSON, an edit of a ticket whose title is longer than the edit form allows, and the agent
 * sign-up default of a real deployment. Each case failed before the fix.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@helpdesk/protocol';
import { ADMIN_ENV, createCast, createTicket, insertUser, signUp, uniqueEmail, STRONG_PASSWORD } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { createApiClient } from '../../test/http.js';
import { cancelWideUpdates } from '../../test/slowStatements.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { createLogger } from '../lib/logger.js';
import { errorHandler } from '../middleware/errors.js';
import { AGENT_SIGNUP_OPEN_WARNING } from '../server.js';
import { parseSettings } from '../settings.js';

const NUL = 'with a \u0000 inside it';
const LONE_SURROGATE = 'with a \uD83D alone in it';

/** A logger whose lines the test can read. */
function capturedLogger() {
  const lines: string[] = [];
  return { lines, logger: createLogger('info', { write: (line: string) => void lines.push(line) }) };
}

let t: TestServer;
let cast: Awaited<ReturnType<typeof createCast>>;
const logs = capturedLogger();

beforeAll(async () => {
  t = await startTestServer(ADMIN_ENV, { logger: logs.logger });
  cast = await createCast(t);
});
afterAll(() => ifSetUp(t)?.close());

describe('text the database cannot store', () => {
  const expectRefused = (res: { status: number; body: any }, field: string, label: string) => {
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toBe(MESSAGES.validation.invalidCharacter(label));
    expect(Object.keys(res.body.errors)).toContain(field);
  };

  it.each([NUL, LONE_SURROGATE])('is refused in every stored field, naming the field (%j)', async (bad) => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const owner = { token: cast.owner.token };
    const staff = { token: cast.agent.token };
    expectRefused(
      await t.api.post('/tickets', { title: `Title ${bad}`, description: 'A long enough description.' }, owner),
      'title',
      'Title',
    );
    expectRefused(
      await t.api.post('/tickets', { title: 'Fine title', description: `Description ${bad}` }, owner),
      'description',
      'Description',
    );
    expectRefused(await t.api.put(`/tickets/${ticket.id}`, { title: `Edited ${bad}` }, owner), 'title', 'Title');
    expectRefused(
      await t.api.put(`/tickets/${ticket.id}`, { resolutionNotes: `Notes ${bad}` }, staff),
      'resolutionNotes',
      'Resolution notes',
    );
    expectRefused(await t.api.post(`/tickets/${ticket.id}/comments`, { content: `Comment ${bad}` }, owner), 'content', 'Comment');
    expectRefused(
      await t.api.post('/auth/register', { name: `Name ${bad}`, email: uniqueEmail(), password: STRONG_PASSWORD }),
      'name',
      'Name',
    );
    expectRefused(
      await t.api.post('/users', { name: `Name ${bad}`, email: uniqueEmail(), password: STRONG_PASSWORD }, { token: cast.admin.token }),
      'name',
      'Name',
    );
    const article = { title: 'Article title', content: 'Article content long enough.', category: 'general', keywords: ['fine'] };
    expectRefused(await t.api.post('/knowledge', { ...article, title: `Title ${bad}` }, staff), 'title', 'Title');
    expectRefused(await t.api.post('/knowledge', { ...article, content: `Content ${bad}` }, staff), 'content', 'Content');
    expectRefused(await t.api.post('/knowledge', { ...article, keywords: [`kw ${bad}`] }, staff), 'keywords.0', 'Keywords');
    // Nothing half-written: the ticket is as it was.
    const after = await t.api.get(`/tickets/${ticket.id}`, owner);
    expect(after.body.ticket).toMatchObject({ title: ticket.title, resolutionNotes: null, commentCount: 0 });
  });

  it('is refused in a search, on both lists, signed in or not', async () => {
    for (const search of ['a%00b', 'a%00', '%00']) {
      const tickets = await t.api.get(`/tickets?search=${search}`, { token: cast.agent.token });
      expect(tickets.status).toBe(400);
      expect(tickets.body.errors.search).toBe(MESSAGES.validation.invalidCharacter('Search'));
      const articles = await t.api.get(`/knowledge?search=${search}`);
      expect(articles.status).toBe(400);
      expect(articles.body.message).toBe(MESSAGES.validation.invalidCharacter('Search'));
      expect((await t.api.get(`/tickets/stats?search=${search}`, { token: cast.agent.token })).status).toBe(400);
    }
  });

  it('keeps emoji and other well-formed text', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, {
      title: 'Printer 🔥 on fire',
      description: 'Smoke 💨 and “quotes” and 日本語.',
    });
    expect(ticket.title).toBe('Printer 🔥 on fire');
  });

  /** A handler's error through the real error middleware, with what it logged. */
  async function throughErrorHandler(handler: () => Promise<unknown>) {
    const { lines, logger } = capturedLogger();
    const app = new Koa();
    app.use(errorHandler(logger));
    app.use(async () => {
      await handler();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/`);
      return { status: res.status, body: await res.json(), logged: lines.join('\n') };
    } finally {
      server.close();
    }
  }

  it('is a 400 even if a schema misses it, and the log never carries the query values', async () => {
    // The second line of defence: a real database error for a NUL, through the real error middleware.
    const { status, body, logged } = await throughErrorHandler(() =>
      t.server.database.db.execute(
        sql`select ${'$argon2id$v=19$m=19456,t=2,p=1$SECRETHASH'}::text as hash, ${'victim@example.test'}::text as email, ${'a\u0000b'}::text as bad`,
      ),
    );
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, message: MESSAGES.http.invalidData });
    expect(logged).toContain('database refused the input');
    expect(logged).not.toContain('SECRETHASH');
    expect(logged).not.toContain('victim@example.test');
  });

  it('stops any statement after a second of database time and answers a 400 saying to narrow the request', async () => {
    const { db, kind } = t.server.database;
    // PostgreSQL cancels by itself; PGlite has no timer, so there the same SQLSTATE is raised by hand.
    const slow =
      kind === 'postgres'
        ? sql`select pg_sleep(1.5)`
        : sql.raw(`do $$ begin raise exception 'canceling statement due to statement timeout' using errcode = '57014'; end $$`);
    if (kind === 'postgres') {
      const shown: unknown = await db.execute(sql`show statement_timeout`);
      expect((shown as { rows: { statement_timeout: string }[] }).rows[0]!.statement_timeout).toBe('1s');
    }
    const started = performance.now();
    const { status, body, logged } = await throughErrorHandler(() => db.execute(slow));
    expect(performance.now() - started).toBeLessThan(1_400);
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, message: MESSAGES.http.tooSlow });
    expect(logged).toContain('statement timed out');
  });

  it('answers a change the timeout cancelled as not made, and saves nothing of it', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Slow to save', description: 'Waits on a held row.' });
    // One ticket row changed is one too many: the change fails as a cancelled statement does.
    const undo = await cancelWideUpdates(t.server.database.db, 'tickets', 0);
    let edit;
    try {
      edit = await t.api.put(`/tickets/${ticket.id}`, { priority: 'urgent' }, { token: cast.agent.token });
    } finally {
      await undo();
    }
    expect(edit.status).toBe(400);
    expect(edit.body).toEqual({ success: false, message: MESSAGES.http.changeTooSlow });
    const after = await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token });
    expect(after.body.ticket).toMatchObject({ priority: ticket.priority, version: ticket.version });
    expect(after.body.ticket.history.map((entry: { type: string }) => entry.type)).not.toContain('priority');
  });

  it('left no 500 and no secret in the server log', () => {
    const logged = logs.lines.join('\n');
    expect(logged).not.toMatch(/"status":5\d\d/);
    expect(logged).not.toMatch(/\$argon2id\$/);
    expect(logged).not.toContain(STRONG_PASSWORD);
  });
});

describe('bodies that are not JSON', () => {
  it.each([
    ['text/plain', 'title=Printer broken&description=It does not print at all'],
    ['application/x-www-form-urlencoded', 'title=Printer+broken&description=It+does+not+print+at+all'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nPrinter\r\n--x--'],
  ])('are answered 415 saying the body must be JSON (%s), not with a field message', async (type, raw) => {
    const res = await t.api.request('POST', '/tickets', { token: cast.owner.token, raw, headers: { 'content-type': type } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ success: false, message: MESSAGES.http.notJson });
  });

  it('still accepts JSON with a charset and a JSON body without a body at all', async () => {
    const withCharset = await t.api.request('POST', '/tickets', {
      token: cast.owner.token,
      raw: JSON.stringify({ title: 'Charset ticket', description: 'Sent as JSON with a charset.' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(withCharset.status).toBe(201);
    const { body } = await t.api.post(
      '/knowledge',
      { title: 'Helpful article', content: 'Content long enough.' },
      { token: cast.agent.token },
    );
    expect((await t.api.post(`/knowledge/${body.article.id}/helpful`)).status).toBe(200);
  });

  it('malformed JSON is still "not valid JSON"', async () => {
    const res = await t.api.request('POST', '/tickets', { token: cast.owner.token, raw: '{"title": ' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MESSAGES.http.malformedJson);
  });
});

describe('editing a ticket created with a long title', () => {
  const longTitle = `A very long title ${'x'.repeat(150)}`.slice(0, 180);

  it('accepts every edit that leaves the long title as it is', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: longTitle });
    const res = await t.api.put(
      `/tickets/${ticket.id}`,
      { title: longTitle, description: 'A brand new description.', priority: 'high', status: 'open' },
      { token: cast.owner.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.ticket).toMatchObject({ title: longTitle, description: 'A brand new description.', priority: 'high' });
  });

  it('holds a changed title to the edit rule of 3 to 100 characters', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: longTitle });
    const tooLong = await t.api.put(`/tickets/${ticket.id}`, { title: `${longTitle.slice(0, 150)} changed` }, { token: cast.owner.token });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject({
      message: MESSAGES.validation.titleTooLongEdit,
      errors: { title: MESSAGES.validation.titleTooLongEdit },
    });
    const beyondAnyTitle = await t.api.put(`/tickets/${ticket.id}`, { title: 'y'.repeat(201) }, { token: cast.owner.token });
    expect(beyondAnyTitle.status).toBe(400);
    const shortened = await t.api.put(`/tickets/${ticket.id}`, { title: 'Short and sweet' }, { token: cast.owner.token });
    expect(shortened.status).toBe(200);
    expect(shortened.body.ticket.title).toBe('Short and sweet');
  });
});

describe('a password-reset request', () => {
  it('answers before it looks the email up, so a known email answers as fast as an unknown one', async () => {
    const account = await insertUser(t, { name: 'Known Kim' });
    // Hold the users table: any lookup made before answering would wait for the release.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.server.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table users in access exclusive mode`);
      locked();
      await held;
    });
    await isLocked;
    try {
      const answer = await Promise.race([
        t.api.post('/auth/request-password-reset', { email: account.user.email }),
        new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 5_000)),
      ]);
      expect(answer).not.toBe('waited');
      expect(answer).toMatchObject({ status: 200, body: { message: MESSAGES.auth.resetRequested } });
    } finally {
      release();
      await holder;
    }
    // The link is still sent once the lookup can run.
    await t.server.mailer.idle();
    const outbox = path.join(t.dataDir, 'outbox');
    const mails = await Promise.all((await readdir(outbox)).map((f) => readFile(path.join(outbox, f), 'utf8')));
    expect(mails.some((m) => m.includes(account.user.email) && m.includes('reset-password?token='))).toBe(true);
  });
});

describe('AGENT_SIGNUP on a real deployment', () => {
  const pg = { DATABASE_URL: 'postgres://helpdesk@db.internal:5432/helpdesk' };

  it('defaults to closed with DATABASE_URL and to open on the embedded database', () => {
    expect(parseSettings(pg).agentSignup).toBe('closed');
    expect(parseSettings({}).agentSignup).toBe('open');
    expect(parseSettings({ ...pg, AGENT_SIGNUP: 'open' }).agentSignup).toBe('open');
    expect(parseSettings({ AGENT_SIGNUP: 'closed' }).agentSignup).toBe('closed');
  });

  it('refuses self-service agents by default and warns at start when opened', async () => {
    // The settings name a PostgreSQL URL; the test database stands in for it.
    const quiet = capturedLogger();
    const closed = await startTestServer(pg, { logger: quiet.logger });
    try {
      expect((await closed.api.get('/config')).body).toEqual({ success: true, agentSignup: 'closed' });
      const res = await closed.api.post('/auth/register', {
        name: 'Self Agent',
        email: uniqueEmail(),
        password: STRONG_PASSWORD,
        role: 'agent',
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(MESSAGES.auth.adminOnlyAgent);
      expect(quiet.lines.join('\n')).not.toContain(AGENT_SIGNUP_OPEN_WARNING);
    } finally {
      await closed.close();
    }

    const loud = capturedLogger();
    const open = await startTestServer({ ...pg, AGENT_SIGNUP: 'open' }, { logger: loud.logger });
    try {
      const warning = loud.lines
        .map((l) => JSON.parse(l) as { level: number; msg: string })
        .find((l) => l.msg === AGENT_SIGNUP_OPEN_WARNING);
      expect(warning?.level).toBe(40);
      await signUp(createApiClient(open.url), { role: 'agent' });
    } finally {
      await open.close();
    }
  });
});
