/**
 * Authorization matrix of docs/api.md#endpoints: every route × every kind of caller → the HTTP status
 * documented there. The matrix is ONE table (ROWS); the tests are generated from it, and a guard
 * test checks that the table covers every documented route and every route the server registers,
 * so a new route cannot ship without a row.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Article, type Ticket, type TicketDetail } from '@helpdesk/protocol';
import {
  ADMIN_ENV,
  STRONG_PASSWORD,
  createCast,
  createTicket,
  insertUser,
  sessionOf,
  uniqueEmail,
  TEST_ADMIN,
  type Account,
} from '../../test/factories.js';
import { inboundMessages, webhookDeliveries, webhooks } from '../db/schema/index.js';
import { newDelivery } from '../presenters/webhooks.js';
import { ifSetUp } from '../../test/hooks.js';
import type { ApiClient, ApiResponse } from '../../test/http.js';
import { uploadIds } from '../../test/uploads.js';
import { registeredRoutes } from '../../test/routes.js';
import { startTestServer, type TestServer } from '../../test/server.js';

type Caller = 'anonymous' | 'owner' | 'other' | 'agent' | 'admin';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const CALLERS: readonly Caller[] = ['anonymous', 'owner', 'other', 'agent', 'admin'];

type Cast = Awaited<ReturnType<typeof createCast>>;

/** State made fresh for one (row, caller) call, so a mutating call never sees another's leftovers. */
interface Fixture {
  ticketId?: number;
  /** A second ticket of the same owner (merge). */
  intoId?: number;
  articleId?: number;
  /** A fresh account the call acts on (PUT/DELETE /users/:id, reset-password). */
  target?: Account;
  resetToken?: string;
  /** A private saved view or canned response of `agent`; an SLA calendar or policy. */
  itemId?: number;
  /** Every SLA policy's id, for a reorder. */
  ids?: number[];
  /** A file on a fresh ticket of `owner`. */
  attachmentId?: number;
  /** An inbound mail message (stored and failed for the retry row). */
  inboundId?: number;
  /** A webhook, and a failed delivery of it. */
  webhookId?: number;
  deliveryId?: number;
  /** The survey link's token of `ticketId`, resolved by an agent. */
  surveyToken?: string;
}

interface Ctx {
  caller: Caller;
  /** The caller's account; undefined for anonymous. */
  me: Account | undefined;
  cast: Cast;
  /** A ticket owned by `owner`, for calls that only read it (or append a comment). */
  ticket: Ticket;
  /** A published article, for reads and helpful votes. */
  article: Article;
  fx: Fixture;
}

interface Row {
  /** `METHOD /path` as docs/api.md#endpoints writes it (without /api). */
  route: string;
  /** Distinguishes several rows of one route (owner fields vs staff fields). */
  name: string;
  method: Method;
  path: (c: Ctx) => string;
  body?: (c: Ctx) => unknown;
  setup?: () => Promise<Fixture>;
  expect: Record<Caller, number>;
  /** The exact message of a 403/404 answer of this row (401 is always "Authentication required"); per caller where they differ. */
  denied?: { 403?: string | Partial<Record<Caller, string>>; 404?: string };
  /** Extra checks after the call: that a success did what it said, that a refusal changed nothing. */
  after?: (c: Ctx, res: ApiResponse) => Promise<void> | void;
}

// Literal texts of docs/api.md#endpoints, hard-coded so a wrong constant in protocol/ is caught as well.
const ONLY_ADMINS_CREATE_ADMINS = 'Only administrators can create admin accounts';
const ONLY_ADMINS_CREATE_AGENTS = 'Only administrators can create agent accounts';
const RESET_REQUESTED = 'If an account with that email exists, a password reset link has been sent.';
const RESET_DONE = 'Password has been reset successfully.';

const AUTH_REQUIRED = MESSAGES.auth.authRequired;
const TICKET_NOT_FOUND = MESSAGES.tickets.notFound;
const ADMIN_ONLY = MESSAGES.http.adminOnly;
const STAFF_ONLY = MESSAGES.http.staffOnly;
const CSAT_OWNER_ONLY = 'Only the ticket’s owner can rate it';

/** Short-hands for the expected status of each caller, in CALLERS order. */
const all = (status: number): Record<Caller, number> => ({ anonymous: status, owner: status, other: status, agent: status, admin: status });
const signedIn = (status: number): Record<Caller, number> => ({ ...all(status), anonymous: 401 });
const adminOnly = (status: number): Record<Caller, number> => ({ anonymous: 401, owner: 403, other: 403, agent: 403, admin: status });
const staffOnly = (status: number): Record<Caller, number> => ({ anonymous: 401, owner: 403, other: 403, agent: status, admin: status });
/** Ticket routes: the owner and staff may, another user gets 404 (never 403), anonymous 401. */
const ticketAccess = (owner: number, staff: number, admin = staff): Record<Caller, number> => ({
  anonymous: 401,
  owner,
  other: 404,
  agent: staff,
  admin,
});

let t: TestServer;
let cast: Cast;
let sharedTicket: Ticket;
let sharedArticle: Article;

const api = (): ApiClient => t.api;
const token = (c: Ctx) => c.me?.token;

async function freshTicket(): Promise<Fixture> {
  return { ticketId: (await createTicket(api(), cast.owner.token, { title: 'Fixture ticket for the matrix', priority: 'low' })).id };
}

/** A message the mail intake stored; `failed` to be retried (no worker runs in this suite). */
/** A received message in `status`: a failed one can be retried, and agents read only filed ones. */
async function freshInbound(status: 'failed' | 'note' = 'failed'): Promise<Fixture> {
  const raw = `From: x@example.test\r\nSubject: Matrix\r\nMessage-ID: <${uniqueEmail('matrix')}>\r\n\r\nHello\r\n`;
  const accepted = await t.server.services.inbound.accept({
    source: 'smtp',
    envelopeFrom: 'x@example.test',
    envelopeTo: ['support@helpdesk.local'],
    data: [Buffer.from(raw)],
  });
  if (!accepted.stored) throw new Error('the matrix message was not stored');
  await t.server.database.db.update(inboundMessages).set({ status }).where(eq(inboundMessages.id, accepted.id));
  return { inboundId: accepted.id };
}

/**
 * The only webhook, written directly (the matrix makes more than the limit of 20 over its calls). Its
 * http URL is refused at send under the default settings: a test or retry it queues reaches no network.
 */
async function freshWebhook(): Promise<Fixture> {
  const { db } = t.server.database;
  await db.delete(webhooks);
  const [hook] = await db
    .insert(webhooks)
    .values({ url: 'http://hooks.invalid/matrix', events: ['ticket.created'], secret: 'whsec_bWF0cml4LXNlY3JldC1vZi0zMi1ieXRlcy0wMDA=' })
    .returning();
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({ ...newDelivery(hook!.id, 'webhook.test', {}, new Date()), status: 'failed', attempts: 8 })
    .returning();
  return { webhookId: hook!.id, deliveryId: delivery!.id };
}

async function freshArticle(): Promise<Fixture> {
  const res = await api().post(
    '/knowledge',
    { title: 'Fixture article', content: 'Content of a fixture article.', category: 'general', keywords: ['fixture'] },
    { token: cast.admin.token },
  );
  if (res.status !== 201) throw new Error(`article fixture failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { articleId: res.body.article.id };
}

async function freshItem(path: '/views' | '/canned-responses'): Promise<Fixture> {
  const body =
    path === '/views' ? { name: 'Fixture view', filters: { status: 'open' } } : { title: 'Fixture reply', content: 'Hello there' };
  const res = await api().post(path, body, { token: cast.agent.token });
  if (res.status !== 201) throw new Error(`${path} fixture failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { itemId: (res.body.view ?? res.body.cannedResponse).id };
}

const CALENDAR = { name: 'Fixture hours', timeZone: 'Europe/Berlin', hours: [{ day: 1, start: '09:00', end: '17:00' }] };
const POLICY = { name: 'Fixture policy', targets: { urgent: { firstResponseMinutes: 60, resolutionMinutes: 480 } } };

async function freshSla(path: '/sla/calendars' | '/sla/policies'): Promise<Fixture> {
  const res = await api().post(path, path === '/sla/calendars' ? CALENDAR : POLICY, { token: cast.admin.token });
  if (res.status !== 201) throw new Error(`${path} fixture failed: ${res.status} ${JSON.stringify(res.body)}`);
  const ids = (await api().get('/sla/policies', { token: cast.admin.token })).body.policies.map((p: { id: number }) => p.id);
  return { itemId: (res.body.calendar ?? res.body.policy).id, ids };
}

/** SLA settings: staff read; writing, a user is told the staff rule and an agent the admin rule. */
const SLA_WRITE_DENIED = { 403: { owner: STAFF_ONLY, other: STAFF_ONLY, agent: ADMIN_ONLY } };

/**
 * A file on a fresh ticket of `owner`: on the ticket itself, or on an agent's internal note. Its bytes
 * are JSON, so the matrix's check of a success reads it like any answer.
 */
async function freshAttachment(where: 'ticket' | 'note'): Promise<Fixture> {
  const file = { name: 'data.json', bytes: Buffer.from('{"success":true}'), type: 'application/json' };
  if (where === 'ticket') {
    const [id] = await uploadIds(t.url, cast.owner.token, [file]);
    const res = await api().post(
      '/tickets',
      { title: 'Fixture with a file', description: 'See the file.', attachmentIds: [id] },
      { token: cast.owner.token },
    );
    if (res.status !== 201) throw new Error(`ticket with file failed: ${res.status} ${JSON.stringify(res.body)}`);
    return { attachmentId: id };
  }
  const { ticketId } = await freshTicket();
  const [id] = await uploadIds(t.url, cast.agent.token, [file]);
  const res = await api().post(
    `/tickets/${ticketId}/comments`,
    { content: 'Note', internal: true, attachmentIds: [id] },
    { token: cast.agent.token },
  );
  if (res.status !== 201) throw new Error(`note with file failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { attachmentId: id };
}

/** Another agent's private item is not there for an admin either: 404. */
const ownerAgentOnly = (status: number): Record<Caller, number> => ({ anonymous: 401, owner: 403, other: 403, agent: status, admin: 404 });

async function freshAgent(): Promise<Fixture> {
  return { target: await insertUser(t, { role: 'agent', name: 'Target Agent' }) };
}

/** Decodes the quoted-printable / base64 parts of an .eml well enough to find a link in it. */
function decodeMail(raw: string): string {
  const qp = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const base64Parts = [...raw.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi)].map((m) =>
    Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64').toString('utf8'),
  );
  return [qp, ...base64Parts].join('\n');
}

/** Asks for a reset link through the API and reads the token from the mail in DATA_DIR/outbox. */
async function requestResetToken(server: TestServer, email: string): Promise<string> {
  const res = await server.api.post('/auth/request-password-reset', { email });
  if (res.status !== 200) throw new Error(`reset request failed: ${res.status} ${JSON.stringify(res.body)}`);
  await server.server.mailer.idle();
  const outbox = path.join(server.dataDir, 'outbox');
  for (const file of await readdir(outbox)) {
    const text = decodeMail(await readFile(path.join(outbox, file), 'utf8'));
    if (!text.toLowerCase().includes(email.toLowerCase())) continue;
    const match = text.match(/reset-password\?token=([A-Za-z0-9_-]+)/);
    if (match) return decodeURIComponent(match[1]!);
  }
  throw new Error(`no reset mail for ${email} in ${outbox}`);
}

/** A fresh ticket of `owner` an agent resolved, with the token of the survey link mailed for it. */
async function freshSurvey(): Promise<Fixture> {
  const { ticketId } = await freshTicket();
  const res = await api().put(`/tickets/${ticketId}`, { status: 'resolved' }, { token: cast.agent.token });
  if (res.status !== 200) throw new Error(`resolve failed: ${res.status} ${JSON.stringify(res.body)}`);
  await t.server.mailer.idle();
  const outbox = path.join(t.dataDir, 'outbox');
  for (const file of await readdir(outbox)) {
    const text = decodeMail(await readFile(path.join(outbox, file), 'utf8'));
    const match = text.includes(`How did we do on ticket #${ticketId}?`) && text.match(/\/rate\/([A-Za-z0-9_-]{43})\?rating=/);
    if (match) return { ticketId, surveyToken: match[1]! };
  }
  throw new Error(`no survey mail for ticket #${ticketId} in ${outbox}`);
}

async function freshResetToken(): Promise<Fixture> {
  const target = await insertUser(t, { name: 'Reset Target' });
  return { target, resetToken: await requestResetToken(t, target.user.email) };
}

const ownerSeesTicket = async (c: Ctx, stillThere: boolean) => {
  const res = await api().get(`/tickets/${c.fx.ticketId}`, { token: c.cast.owner.token });
  expect(res.status).toBe(stillThere ? 200 : 404);
  return res.body.ticket as TicketDetail | undefined;
};

/** After a PUT on a fresh ticket: a success changed the field, a refusal changed nothing. */
const ticketField = (field: keyof TicketDetail, changedTo: (c: Ctx) => unknown, original: unknown) => async (c: Ctx, res: ApiResponse) => {
  const ticket = (await ownerSeesTicket(c, true))!;
  if (res.status === 200) {
    expect(ticket[field]).toEqual(changedTo(c));
    expect(ticket.updatedBy).toEqual({ id: c.me!.user.id, name: c.me!.user.name });
  } else {
    expect(ticket[field]).toEqual(original);
    expect(ticket.updatedBy).toBeNull();
    expect(ticket.history.map((h) => h.type)).toEqual(['created']);
  }
};

const SEARCH_WORD = 'Matrixshared';

const ROWS: Row[] = [
  // ---- Auth (public unless noted) ----
  {
    route: 'POST /auth/register',
    name: 'role user',
    method: 'POST',
    path: () => '/auth/register',
    body: () => ({ name: 'Matrix Signup', email: uniqueEmail('matrix'), password: STRONG_PASSWORD, role: 'user' }),
    expect: all(201),
    after: (_c, res) => expect(res.body.user.role).toBe('user'),
  },
  {
    route: 'POST /auth/login',
    name: 'valid credentials',
    method: 'POST',
    path: () => '/auth/login',
    body: (c) => ({ email: c.cast.other.user.email, password: STRONG_PASSWORD }),
    expect: all(200),
    after: (c, res) => expect(res.body.user.id).toBe(c.cast.other.user.id),
  },
  {
    route: 'POST /auth/request-password-reset',
    name: 'any email',
    method: 'POST',
    path: () => '/auth/request-password-reset',
    body: () => ({ email: uniqueEmail('nobody') }),
    expect: all(200),
    after: (_c, res) => expect(res.body).toEqual({ success: true, message: RESET_REQUESTED }),
  },
  {
    route: 'POST /auth/reset-password',
    name: 'valid token',
    method: 'POST',
    path: () => '/auth/reset-password',
    setup: freshResetToken,
    body: (c) => ({ token: c.fx.resetToken, newPassword: 'Changed456!' }),
    expect: all(200),
    after: async (c, res) => {
      expect(res.body).toEqual({ success: true, message: RESET_DONE });
      // Older JWTs of that user stop working.
      expect((await api().get('/auth/verify', { token: c.fx.target!.token })).status).toBe(401);
    },
  },
  {
    route: 'GET /auth/verify',
    name: 'bearer token',
    method: 'GET',
    path: () => '/auth/verify',
    expect: signedIn(200),
    after: (c, res) => {
      if (c.me) expect(res.body.user.id).toBe(c.me.user.id);
    },
  },

  // ---- Users ----
  {
    route: 'GET /users/profile',
    name: 'own profile',
    method: 'GET',
    path: () => '/users/profile',
    expect: signedIn(200),
    after: (c, res) => {
      if (!c.me) return;
      expect(res.body.user).toMatchObject({ id: c.me.user.id, email: c.me.user.email });
      expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i);
    },
  },
  {
    route: 'PUT /users/preferences',
    name: 'own preferences',
    method: 'PUT',
    path: () => '/users/preferences',
    body: () => ({ email_notifications: 'important' }),
    expect: signedIn(200),
    after: (c, res) => {
      if (c.me)
        expect(res.body).toMatchObject({
          success: true,
          user: { id: c.me.user.id, email_notifications: 'important' },
          message: MESSAGES.users.preferencesUpdated,
        });
    },
  },
  {
    route: 'PUT /users/password',
    name: 'wrong current password changes nothing',
    method: 'PUT',
    path: () => '/users/password',
    body: () => ({ currentPassword: 'NotMine123!', newPassword: 'Changed456!' }),
    expect: signedIn(400),
    after: async (c, res) => {
      if (!c.me) return;
      expect(res.body).toEqual({
        success: false,
        message: MESSAGES.users.currentPasswordWrong,
        errors: { currentPassword: MESSAGES.users.currentPasswordWrong },
      });
      expect((await api().get('/auth/verify', { token: c.me.token })).status).toBe(200);
    },
  },
  {
    route: 'GET /users',
    name: 'list with role filter',
    method: 'GET',
    path: () => '/users?role=agent',
    expect: adminOnly(200),
    denied: { 403: ADMIN_ONLY },
    after: (c, res) => {
      if (res.status === 200) expect(res.body.users.map((u: { id: number }) => u.id)).toContain(c.cast.agent.user.id);
    },
  },
  {
    route: 'POST /users',
    name: 'create support agent',
    method: 'POST',
    path: () => '/users',
    body: () => ({ name: 'Created Agent', email: uniqueEmail('created'), password: STRONG_PASSWORD, role: 'agent' }),
    expect: adminOnly(201),
    denied: { 403: ADMIN_ONLY },
    after: (_c, res) => {
      if (res.status === 201)
        expect(res.body).toMatchObject({ success: true, user: { role: 'agent' }, message: MESSAGES.users.agentCreated });
    },
  },
  {
    route: 'PUT /users/:id',
    name: 'rename a fresh agent',
    method: 'PUT',
    path: (c) => `/users/${c.fx.target!.user.id}`,
    setup: freshAgent,
    body: () => ({ name: 'Renamed Agent' }),
    expect: adminOnly(200),
    denied: { 403: ADMIN_ONLY },
    after: async (c, res) => {
      const seen = await api().get('/users/profile', { token: c.fx.target!.token });
      expect(seen.status).toBe(200);
      expect(seen.body.user.name).toBe(res.status === 200 ? 'Renamed Agent' : 'Target Agent');
    },
  },
  {
    route: 'DELETE /users/:id',
    name: 'delete a fresh agent',
    method: 'DELETE',
    path: (c) => `/users/${c.fx.target!.user.id}`,
    setup: freshAgent,
    expect: adminOnly(200),
    denied: { 403: ADMIN_ONLY },
    after: async (c, res) => {
      if (res.status === 200) expect(res.body).toEqual({ success: true, message: MESSAGES.users.agentDeleted });
      // The deleted user's tokens stop working; a refused delete leaves the account alone.
      expect((await api().get('/auth/verify', { token: c.fx.target!.token })).status).toBe(res.status === 200 ? 401 : 200);
    },
  },

  // ---- Tickets ----
  {
    route: 'GET /tickets',
    name: 'list (scoped)',
    method: 'GET',
    path: () => `/tickets?search=${SEARCH_WORD}`,
    expect: signedIn(200),
    after: (c, res) => {
      if (!c.me) return;
      const ids = res.body.tickets.map((x: Ticket) => x.id);
      expect(res.body.data.map((x: Ticket) => x.id)).toEqual(ids);
      // A user sees only their own tickets; staff see all.
      expect(ids).toEqual(c.caller === 'other' ? [] : [c.ticket.id]);
      expect(res.body.total).toBe(ids.length);
    },
  },
  {
    route: 'GET /tickets/stats',
    name: 'stats (scoped)',
    method: 'GET',
    path: () => `/tickets/stats?search=${SEARCH_WORD}`,
    expect: signedIn(200),
    after: (c, res) => {
      if (c.me) expect(res.body.stats.total).toBe(c.caller === 'other' ? 0 : 1);
    },
  },
  {
    route: 'GET /tickets/:id',
    name: 'detail',
    method: 'GET',
    path: (c) => `/tickets/${c.ticket.id}`,
    expect: ticketAccess(200, 200),
    denied: { 404: TICKET_NOT_FOUND },
    after: (c, res) => {
      if (res.status === 200) expect(res.body.ticket.id).toBe(c.ticket.id);
    },
  },
  {
    route: 'GET /tickets/:id/comments',
    name: 'older comments',
    method: 'GET',
    path: (c) => `/tickets/${c.ticket.id}/comments?before=1`,
    expect: ticketAccess(200, 200),
    denied: { 404: TICKET_NOT_FOUND },
  },
  {
    route: 'GET /tickets/:id/history',
    name: 'older history',
    method: 'GET',
    path: (c) => `/tickets/${c.ticket.id}/history?before=1`,
    expect: ticketAccess(200, 200),
    denied: { 404: TICKET_NOT_FOUND },
  },
  {
    route: 'POST /tickets',
    name: 'create',
    method: 'POST',
    path: () => '/tickets',
    body: () => ({ title: 'Created through the matrix', description: 'A ticket body long enough to be valid.' }),
    expect: signedIn(201),
    after: (c, res) => {
      if (c.me) expect(res.body.ticket.user).toEqual({ id: c.me.user.id, name: c.me.user.name });
    },
  },
  {
    route: 'PUT /tickets/:id',
    name: 'owner field: title',
    method: 'PUT',
    path: (c) => `/tickets/${c.fx.ticketId}`,
    setup: freshTicket,
    body: () => ({ title: 'Renamed by the caller' }),
    expect: ticketAccess(200, 403),
    denied: { 403: MESSAGES.tickets.fieldForbidden('title'), 404: TICKET_NOT_FOUND },
    after: ticketField('title', () => 'Renamed by the caller', 'Fixture ticket for the matrix'),
  },
  {
    route: 'PUT /tickets/:id',
    name: 'owner field: description',
    method: 'PUT',
    path: (c) => `/tickets/${c.fx.ticketId}`,
    setup: freshTicket,
    body: () => ({ description: 'A description rewritten by the caller.' }),
    expect: ticketAccess(200, 403),
    denied: { 403: MESSAGES.tickets.fieldForbidden('description'), 404: TICKET_NOT_FOUND },
    after: ticketField('description', () => 'A description rewritten by the caller.', 'Smoke comes out of the printer on floor 3.'),
  },
  {
    route: 'PUT /tickets/:id',
    name: 'owner and staff field: priority',
    method: 'PUT',
    path: (c) => `/tickets/${c.fx.ticketId}`,
    setup: freshTicket,
    body: () => ({ priority: 'high' }),
    expect: ticketAccess(200, 200),
    denied: { 404: TICKET_NOT_FOUND },
    after: ticketField('priority', () => 'high', 'low'),
  },
  {
    route: 'PUT /tickets/:id',
    name: 'owner and staff field: status resolved',
    method: 'PUT',
    path: (c) => `/tickets/${c.fx.ticketId}`,
    setup: freshTicket,
    body: () => ({ status: 'resolved' }),
    expect: ticketAccess(200, 200),
    denied: { 404: TICKET_NOT_FOUND },
    after: ticketField('status', () => 'resolved', 'open'),
  },
  {
    route: 'PUT /tickets/:id',
    name: 'staff field: resolutionNotes',
    method: 'PUT',
    path: (c) => `/tickets/${c.fx.ticketId}`,
    setup: freshTicket,
    body: () => ({ resolutionNotes: 'Replaced the toner.' }),
    expect: ticketAccess(403, 200),
    denied: { 403: MESSAGES.tickets.fieldForbidden('resolutionNotes'), 404: TICKET_NOT_FOUND },
    after: ticketField('resolutionNotes', () => 'Replaced the toner.', null),
  },
  {
    route: 'PUT /tickets/:id',
    name: 'staff field: assignedAgentId',
    method: 'PUT',
    path: (c) => `/tickets/${c.fx.ticketId}`,
    setup: freshTicket,
    body: (c) => ({ assignedAgentId: c.cast.agent.user.id }),
    expect: ticketAccess(403, 200),
    denied: { 403: MESSAGES.tickets.fieldForbidden('assignedAgentId'), 404: TICKET_NOT_FOUND },
    after: ticketField('assignedAgent', (c) => ({ id: c.cast.agent.user.id, name: c.cast.agent.user.name }), null),
  },
  {
    route: 'PUT /tickets/:id',
    name: 'status: closed (staff close, the owner withdraws)',
    method: 'PUT',
    path: (c) => `/tickets/${c.fx.ticketId}`,
    setup: freshTicket,
    body: () => ({ status: 'closed' }),
    expect: ticketAccess(200, 200),
    denied: { 404: TICKET_NOT_FOUND },
    after: ticketField('status', () => 'closed', 'open'),
  },
  {
    route: 'DELETE /tickets/:id',
    name: 'owner or admin',
    method: 'DELETE',
    path: (c) => `/tickets/${c.fx.ticketId}`,
    setup: freshTicket,
    expect: ticketAccess(200, 403, 200),
    denied: { 403: MESSAGES.tickets.deleteByAgent, 404: TICKET_NOT_FOUND },
    after: async (c, res) => {
      if (res.status === 200) expect(res.body).toEqual({ success: true, message: MESSAGES.tickets.deleted });
      await ownerSeesTicket(c, res.status !== 200);
    },
  },
  {
    route: 'POST /tickets/:id/comments',
    name: 'owner or staff',
    method: 'POST',
    path: (c) => `/tickets/${c.ticket.id}/comments`,
    body: (c) => ({ content: `A comment by ${c.caller}` }),
    expect: ticketAccess(201, 201),
    denied: { 404: TICKET_NOT_FOUND },
    after: async (c, res) => {
      const detail = await api().get(`/tickets/${c.ticket.id}`, { token: c.cast.owner.token });
      const contents = detail.body.ticket.comments.map((x: { content: string }) => x.content);
      if (res.status === 201) expect(contents).toContain(`A comment by ${c.caller}`);
      else expect(contents).not.toContain(`A comment by ${c.caller}`);
    },
  },
  {
    route: 'POST /tickets/:id/comments',
    name: 'internal note: staff only',
    method: 'POST',
    path: (c) => `/tickets/${c.ticket.id}/comments`,
    body: (c) => ({ content: `A note by ${c.caller}`, internal: true }),
    expect: ticketAccess(403, 201),
    denied: { 403: 'Only support staff can write internal notes', 404: TICKET_NOT_FOUND },
    after: async (c, res) => {
      const staffView = await api().get(`/tickets/${c.ticket.id}`, { token: c.cast.agent.token });
      const notes = staffView.body.ticket.comments
        .filter((x: { internal: boolean }) => x.internal)
        .map((x: { content: string }) => x.content);
      if (res.status === 201) expect(notes).toContain(`A note by ${c.caller}`);
      else expect(notes).not.toContain(`A note by ${c.caller}`);
      const ownerView = await api().get(`/tickets/${c.ticket.id}`, { token: c.cast.owner.token });
      expect(JSON.stringify(ownerView.body)).not.toContain('A note by');
    },
  },

  // ---- Attachments ----
  {
    route: 'POST /uploads',
    name: 'not multipart: 415 for anyone signed in',
    method: 'POST',
    path: () => '/uploads',
    body: () => ({ file: 'not a file' }),
    expect: signedIn(415),
    after: (c, res) => {
      if (c.me) expect(res.body).toEqual({ success: false, message: 'Uploads must be sent as multipart/form-data' });
    },
  },
  {
    route: 'GET /attachments/:id',
    name: "a ticket's file: whoever reads the ticket",
    method: 'GET',
    path: (c) => `/attachments/${c.fx.attachmentId}`,
    setup: () => freshAttachment('ticket'),
    expect: ticketAccess(200, 200),
    denied: { 404: 'Attachment not found' },
  },
  {
    route: 'GET /attachments/:id',
    name: "an internal note's file: staff only",
    method: 'GET',
    path: (c) => `/attachments/${c.fx.attachmentId}`,
    setup: () => freshAttachment('note'),
    expect: { anonymous: 401, owner: 404, other: 404, agent: 200, admin: 200 },
    denied: { 404: 'Attachment not found' },
  },

  {
    route: 'GET /users/staff',
    name: 'staff directory',
    method: 'GET',
    path: () => '/users/staff',
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
    after: (c, res) => {
      if (res.status !== 200) return;
      const ids = res.body.staff.map((s: { id: number }) => s.id);
      expect(ids).toContain(c.cast.agent.user.id);
      expect(ids).not.toContain(c.cast.owner.user.id);
      expect(Object.keys(res.body.staff[0]).sort()).toEqual(['id', 'name']);
    },
  },
  // ---- Notifications (each person's own) ----
  {
    route: 'GET /notifications',
    name: 'own notifications',
    method: 'GET',
    path: () => '/notifications?unread=1',
    expect: signedIn(200),
    after: (c, res) => {
      if (res.status === 200) expect(res.body).toMatchObject({ notifications: expect.any(Array), unread: expect.any(Number) });
    },
  },
  {
    route: 'POST /notifications/read',
    name: 'mark own read',
    method: 'POST',
    path: () => '/notifications/read',
    body: () => ({}),
    expect: signedIn(200),
    after: (c, res) => {
      if (res.status === 200) expect(res.body).toEqual({ success: true, unread: 0 });
    },
  },

  // ---- Knowledge base (reads and helpful are public; writes are staff-only) ----
  {
    route: 'GET /knowledge',
    name: 'list',
    method: 'GET',
    path: () => '/knowledge',
    expect: all(200),
    after: (c, res) => expect(res.body.data.articles.map((a: Article) => a.id)).toContain(c.article.id),
  },
  {
    route: 'GET /knowledge/:id',
    name: 'detail',
    method: 'GET',
    path: (c) => `/knowledge/${c.article.id}`,
    expect: all(200),
    after: (c, res) => expect(res.body.article.id).toBe(c.article.id),
  },
  {
    route: 'POST /knowledge/:id/helpful',
    name: 'vote',
    method: 'POST',
    path: (c) => `/knowledge/${c.article.id}/helpful`,
    expect: all(200),
    after: (_c, res) => expect(res.body.helpfulCount).toBeGreaterThan(0),
  },
  {
    route: 'POST /knowledge',
    name: 'create',
    method: 'POST',
    path: () => '/knowledge',
    body: () => ({ title: 'Matrix article', content: 'How to restart the printer.', category: 'technical', keywords: ['printer'] }),
    expect: staffOnly(201),
    denied: { 403: STAFF_ONLY },
  },
  {
    route: 'PUT /knowledge/:id',
    name: 'update a fresh article',
    method: 'PUT',
    path: (c) => `/knowledge/${c.fx.articleId}`,
    setup: freshArticle,
    body: () => ({ title: 'Updated article title' }),
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
    after: async (c, res) => {
      const seen = await api().get(`/knowledge/${c.fx.articleId}`);
      expect(seen.body.article.title).toBe(res.status === 200 ? 'Updated article title' : 'Fixture article');
    },
  },
  {
    route: 'DELETE /knowledge/:id',
    name: 'delete a fresh article',
    method: 'DELETE',
    path: (c) => `/knowledge/${c.fx.articleId}`,
    setup: freshArticle,
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
    after: async (c, res) => {
      expect((await api().get(`/knowledge/${c.fx.articleId}`)).status).toBe(res.status === 200 ? 404 : 200);
    },
  },

  // ---- Service levels (docs/api.md#service-levels): staff read, admins write ----
  ...(['/sla/calendars', '/sla/policies'] as const).flatMap((base): Row[] => {
    const kind = base === '/sla/calendars' ? 'calendar' : 'policy';
    const body = base === '/sla/calendars' ? CALENDAR : POLICY;
    return [
      { route: `GET ${base}`, name: 'list', method: 'GET', path: () => base, expect: staffOnly(200), denied: { 403: STAFF_ONLY } },
      {
        route: `GET ${base}/:id`,
        name: `one ${kind}`,
        method: 'GET',
        path: (c) => `${base}/${c.fx.itemId}`,
        setup: () => freshSla(base),
        expect: staffOnly(200),
        denied: { 403: STAFF_ONLY },
      },
      {
        route: `POST ${base}`,
        name: `create a ${kind}`,
        method: 'POST',
        path: () => base,
        body: () => body,
        expect: adminOnly(201),
        denied: SLA_WRITE_DENIED,
      },
      {
        route: `PUT ${base}/:id`,
        name: `change a ${kind}`,
        method: 'PUT',
        path: (c) => `${base}/${c.fx.itemId}`,
        setup: () => freshSla(base),
        body: () => ({ ...body, name: 'Renamed' }),
        expect: adminOnly(200),
        denied: SLA_WRITE_DENIED,
      },
      {
        route: `DELETE ${base}/:id`,
        name: `delete a ${kind}`,
        method: 'DELETE',
        path: (c) => `${base}/${c.fx.itemId}`,
        setup: () => freshSla(base),
        expect: adminOnly(200),
        denied: SLA_WRITE_DENIED,
      },
    ];
  }),
  {
    route: 'PUT /sla/policies/order',
    name: 'reorder policies',
    method: 'PUT',
    path: () => '/sla/policies/order',
    setup: () => freshSla('/sla/policies'),
    body: (c) => ({ ids: [...(c.fx.ids ?? [])].reverse() }),
    expect: adminOnly(200),
    denied: SLA_WRITE_DENIED,
  },
  // ---- The queue (docs/api.md#running-the-queue): staff only; private items are their owner's ----
  {
    route: 'GET /users/staff',
    name: 'assignable staff',
    method: 'GET',
    path: () => '/users/staff',
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
    after: (c, res) => {
      if (res.status !== 200) return;
      const ids = res.body.staff.map((u: { id: number }) => u.id);
      expect(ids).toEqual(expect.arrayContaining([c.cast.agent.user.id, c.cast.admin.user.id]));
      expect(ids).not.toContain(c.cast.owner.user.id);
      expect(Object.keys(res.body.staff[0] as object).sort()).toEqual(['id', 'name']);
    },
  },
  {
    route: 'POST /tickets/:id/merge',
    name: 'merge a duplicate',
    method: 'POST',
    path: (c) => `/tickets/${c.fx.ticketId}/merge`,
    setup: async () => ({ ...(await freshTicket()), intoId: (await freshTicket()).ticketId }),
    body: (c) => ({ intoId: c.fx.intoId }),
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
    after: async (c, res) => {
      const seen = await api().get(`/tickets/${c.fx.ticketId}`, { token: c.cast.admin.token });
      expect(seen.body.ticket.status).toBe(res.status === 200 ? 'closed' : 'open');
    },
  },
  {
    route: 'GET /tags',
    name: 'tag suggestions',
    method: 'GET',
    path: () => '/tags',
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
  },
  {
    route: 'GET /users/:id/tickets',
    name: 'requester panel',
    method: 'GET',
    path: (c) => `/users/${c.cast.owner.user.id}/tickets?limit=1`,
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
    after: (c, res) => {
      if (res.status === 200) expect(res.body.tickets.map((x: { user: { id: number } }) => x.user.id)).toEqual([c.cast.owner.user.id]);
    },
  },
  {
    route: 'POST /tickets/bulk',
    name: 'bulk priority change',
    method: 'POST',
    path: () => '/tickets/bulk',
    setup: freshTicket,
    body: (c) => ({ ids: [c.fx.ticketId], changes: { priority: 'high' } }),
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
    after: async (c, res) => {
      const seen = await api().get(`/tickets/${c.fx.ticketId}`, { token: c.cast.admin.token });
      expect(seen.body.ticket.priority).toBe(res.status === 200 ? 'high' : 'low');
    },
  },
  { route: 'GET /views', name: 'list', method: 'GET', path: () => '/views', expect: staffOnly(200), denied: { 403: STAFF_ONLY } },
  {
    route: 'GET /views/counts',
    name: 'counts',
    method: 'GET',
    path: () => '/views/counts',
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
  },
  {
    route: 'POST /views',
    name: 'create private',
    method: 'POST',
    path: () => '/views',
    body: () => ({ name: 'Matrix view' }),
    expect: staffOnly(201),
    denied: { 403: STAFF_ONLY },
  },
  {
    route: 'PUT /views/:id',
    name: "rename an agent's private view",
    method: 'PUT',
    path: (c) => `/views/${c.fx.itemId}`,
    setup: () => freshItem('/views'),
    body: () => ({ name: 'Renamed view' }),
    expect: ownerAgentOnly(200),
    denied: { 403: STAFF_ONLY, 404: MESSAGES.views.notFound },
  },
  {
    route: 'DELETE /views/:id',
    name: "delete an agent's private view",
    method: 'DELETE',
    path: (c) => `/views/${c.fx.itemId}`,
    setup: () => freshItem('/views'),
    expect: ownerAgentOnly(200),
    denied: { 403: STAFF_ONLY, 404: MESSAGES.views.notFound },
  },
  {
    route: 'GET /canned-responses',
    name: 'list',
    method: 'GET',
    path: () => '/canned-responses',
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
  },
  {
    route: 'POST /canned-responses',
    name: 'create private',
    method: 'POST',
    path: () => '/canned-responses',
    body: () => ({ title: 'Matrix reply', content: 'Thanks for waiting' }),
    expect: staffOnly(201),
    denied: { 403: STAFF_ONLY },
  },
  {
    route: 'PUT /canned-responses/:id',
    name: "edit an agent's private reply",
    method: 'PUT',
    path: (c) => `/canned-responses/${c.fx.itemId}`,
    setup: () => freshItem('/canned-responses'),
    body: () => ({ title: 'Renamed reply' }),
    expect: ownerAgentOnly(200),
    denied: { 403: STAFF_ONLY, 404: MESSAGES.cannedResponses.notFound },
  },
  {
    route: 'DELETE /canned-responses/:id',
    name: "delete an agent's private reply",
    method: 'DELETE',
    path: (c) => `/canned-responses/${c.fx.itemId}`,
    setup: () => freshItem('/canned-responses'),
    expect: ownerAgentOnly(200),
    denied: { 403: STAFF_ONLY, 404: MESSAGES.cannedResponses.notFound },
  },

  // ---- API tokens ----
  {
    route: 'GET /tokens',
    name: 'list own (admins: everyone’s)',
    method: 'GET',
    path: () => '/tokens',
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
  },
  {
    route: 'POST /tokens',
    name: 'create',
    method: 'POST',
    path: () => '/tokens',
    body: () => ({ name: `Matrix ${uniqueEmail('token')}`, scopes: ['tickets:read'] }),
    expect: staffOnly(201),
    denied: { 403: 'Only support staff can create API tokens' },
  },
  {
    route: 'DELETE /tokens/:id',
    name: "revoke an agent's token (the agent, or an admin)",
    method: 'DELETE',
    path: (c) => `/tokens/${c.fx.itemId}`,
    setup: async () => {
      const res = await api().post(
        '/tokens',
        { name: `Matrix ${uniqueEmail('token')}`, scopes: ['tickets:read'] },
        { token: cast.agent.token },
      );
      return { itemId: res.body.token.id };
    },
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
  },

  // ---- Webhooks ----
  {
    route: 'GET /webhooks',
    name: 'list',
    method: 'GET',
    path: () => '/webhooks',
    expect: adminOnly(200),
    denied: { 403: ADMIN_ONLY },
  },
  {
    route: 'POST /webhooks',
    name: 'create',
    method: 'POST',
    path: () => '/webhooks',
    setup: async () => {
      await t.server.database.db.delete(webhooks);
      return {};
    },
    body: () => ({ url: 'https://hooks.example.com/matrix', events: ['ticket.created'] }),
    expect: adminOnly(201),
    denied: { 403: ADMIN_ONLY },
    after: async (_c, res) => {
      if (res.status === 201) expect(res.body.secret).toMatch(/^whsec_/);
      // Its address is a real name: gone before any later ticket would be sent there.
      await t.server.database.db.delete(webhooks);
    },
  },
  // The calls on one webhook (or its failed delivery), each on a fresh one.
  ...(
    [
      ['PUT /webhooks/:id', 'edit', (c) => `/webhooks/${c.fx.webhookId}`],
      ['DELETE /webhooks/:id', 'delete', (c) => `/webhooks/${c.fx.webhookId}`],
      ['POST /webhooks/:id/rotate-secret', 'rotate the secret', (c) => `/webhooks/${c.fx.webhookId}/rotate-secret`],
      ['POST /webhooks/:id/test', 'send a test event', (c) => `/webhooks/${c.fx.webhookId}/test`],
      ['GET /webhooks/:id/deliveries', 'delivery log', (c) => `/webhooks/${c.fx.webhookId}/deliveries`],
      ['POST /webhooks/deliveries/:id/retry', 'retry a failed delivery', (c) => `/webhooks/deliveries/${c.fx.deliveryId}/retry`],
    ] satisfies [string, string, (c: Ctx) => string][]
  ).map(([route, name, path]): Row => ({
    route,
    name,
    method: route.split(' ')[0] as Method,
    path,
    setup: freshWebhook,
    ...(route.startsWith('PUT') && { body: () => ({ description: 'Matrix' }) }),
    expect: adminOnly(200),
    denied: { 403: ADMIN_ONLY },
    ...(route.startsWith('DELETE') && {
      after: async (c: Ctx, res: ApiResponse) => {
        const left = await t.server.database.db.select().from(webhooks);
        expect(left.map((w) => w.id)).toEqual(res.status === 200 ? [] : [c.fx.webhookId]);
      },
    }),
  })),

  // ---- Satisfaction surveys ----
  {
    route: 'GET /csat/:token',
    name: 'the link is the key',
    method: 'GET',
    path: (c) => `/csat/${c.fx.surveyToken}`,
    setup: freshSurvey,
    expect: all(200),
    after: (c, res) => expect(res.body.survey).toMatchObject({ ticketId: c.fx.ticketId, rating: null }),
  },
  {
    route: 'POST /csat/:token',
    name: 'answer through the link',
    method: 'POST',
    path: (c) => `/csat/${c.fx.surveyToken}`,
    setup: freshSurvey,
    body: () => ({ rating: 'good' }),
    expect: all(200),
    after: (_c, res) => expect(res.body).toEqual({ success: true, message: 'Thank you for your feedback!' }),
  },
  {
    route: 'GET /tickets/:id/csat',
    name: "the owner's survey",
    method: 'GET',
    path: (c) => `/tickets/${c.fx.ticketId}/csat`,
    setup: freshSurvey,
    expect: { anonymous: 401, owner: 200, other: 404, agent: 403, admin: 403 },
    denied: { 403: CSAT_OWNER_ONLY, 404: TICKET_NOT_FOUND },
  },
  {
    route: 'POST /tickets/:id/csat',
    name: 'the owner answers',
    method: 'POST',
    path: (c) => `/tickets/${c.fx.ticketId}/csat`,
    setup: freshSurvey,
    body: () => ({ rating: 'bad', comment: 'From the matrix' }),
    expect: { anonymous: 401, owner: 200, other: 404, agent: 403, admin: 403 },
    denied: { 403: CSAT_OWNER_ONLY, 404: TICKET_NOT_FOUND },
    after: async (c, res) => {
      // Only the owner's answer is recorded.
      const staffView = (await api().get(`/tickets/${c.fx.ticketId}`, { token: cast.agent.token })).body.ticket as TicketDetail;
      expect(staffView.csat).toEqual(res.status === 200 ? { rating: 'bad', comment: 'From the matrix', at: expect.any(String) } : null);
    },
  },

  // ---- Other ----
  {
    route: 'GET /config',
    name: 'public',
    method: 'GET',
    path: () => '/config',
    expect: all(200),
    after: (_c, res) => expect(res.body).toMatchObject({ agentSignup: 'open' }),
  },
  {
    route: 'GET /email/settings',
    name: 'intake settings',
    method: 'GET',
    path: () => '/email/settings',
    expect: adminOnly(200),
    denied: { 403: ADMIN_ONLY },
  },
  {
    route: 'GET /email/inbound',
    name: 'recent inbound mail',
    method: 'GET',
    path: () => '/email/inbound',
    expect: adminOnly(200),
    denied: { 403: ADMIN_ONLY },
  },
  {
    route: 'POST /email/inbound/:id/retry',
    name: 'retry a failed message',
    method: 'POST',
    path: (c) => `/email/inbound/${c.fx.inboundId}/retry`,
    setup: freshInbound,
    expect: adminOnly(200),
    denied: { 403: ADMIN_ONLY },
  },
  {
    route: 'GET /email/inbound/:id/raw',
    name: 'raw message',
    method: 'GET',
    path: (c) => `/email/inbound/${c.fx.inboundId}/raw`,
    setup: () => freshInbound('note'),
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
  },
  {
    route: 'GET /health',
    name: 'public',
    method: 'GET',
    path: () => '/health',
    expect: all(200),
    after: (_c, res) => expect(res.body).toEqual({ status: 'ok', db: 'ok' }),
  },
  {
    route: 'GET /openapi.json',
    name: 'public',
    method: 'GET',
    path: () => '/openapi.json',
    expect: all(200),
    after: (_c, res) => expect(res.body).toMatchObject({ openapi: '3.1.0' }),
  },
  {
    route: 'GET /docs',
    name: 'public',
    method: 'GET',
    path: () => '/docs',
    expect: all(200),
    after: (_c, res) => expect(res.body).toContain('<div id="reference"></div>'),
  },
  {
    route: 'GET /docs/:file',
    name: 'public',
    method: 'GET',
    path: () => '/docs/init.js',
    expect: all(200),
    after: (_c, res) => expect(res.body).toContain("url: '/api/openapi.json'"),
  },
  // ---- Reports ----
  ...(['summary', 'timeseries', 'backlog', 'breakdown'] as const).map((report): Row => ({
    route: `GET /reports/${report}`,
    name: `the ${report} report`,
    method: 'GET',
    path: () => `/reports/${report}`,
    expect: staffOnly(200),
    denied: { 403: STAFF_ONLY },
  })),
  ...(['agents', 'tickets.csv'] as const).map((report): Row => ({
    route: `GET /reports/${report}`,
    name: `the ${report} report`,
    method: 'GET',
    path: () => `/reports/${report}`,
    expect: adminOnly(200),
    denied: SLA_WRITE_DENIED,
  })),
];

/** Every call of docs/api.md#endpoints, written out by hand from that page. */
const CONTRACT_ROUTES = [
  'POST /auth/register',
  'POST /auth/login',
  'POST /auth/request-password-reset',
  'POST /auth/reset-password',
  'GET /auth/verify',
  'GET /users/profile',
  'PUT /users/preferences',
  'PUT /users/password',
  'GET /users',
  'POST /users',
  'PUT /users/:id',
  'DELETE /users/:id',
  'GET /tickets',
  'GET /tickets/stats',
  'GET /tickets/:id',
  'GET /tickets/:id/comments',
  'GET /tickets/:id/history',
  'POST /tickets',
  'PUT /tickets/:id',
  'DELETE /tickets/:id',
  'POST /tickets/:id/comments',
  'GET /knowledge',
  'GET /knowledge/:id',
  'POST /knowledge/:id/helpful',
  'POST /knowledge',
  'PUT /knowledge/:id',
  'DELETE /knowledge/:id',
  'GET /users/staff',
  'POST /tickets/bulk',
  'GET /views',
  'GET /views/counts',
  'POST /views',
  'PUT /views/:id',
  'DELETE /views/:id',
  'GET /canned-responses',
  'POST /canned-responses',
  'PUT /canned-responses/:id',
  'DELETE /canned-responses/:id',
  'GET /config',
  'GET /health',
  'GET /notifications',
  'POST /notifications/read',
  'GET /users/staff',
  'GET /sla/calendars',
  'GET /sla/calendars/:id',
  'POST /sla/calendars',
  'PUT /sla/calendars/:id',
  'DELETE /sla/calendars/:id',
  'GET /sla/policies',
  'GET /sla/policies/:id',
  'POST /sla/policies',
  'PUT /sla/policies/:id',
  'DELETE /sla/policies/:id',
  'PUT /sla/policies/order',
  'POST /uploads',
  'GET /attachments/:id',
  'GET /email/settings',
  'GET /email/inbound',
  'POST /email/inbound/:id/retry',
  'GET /email/inbound/:id/raw',
  'POST /tickets/:id/merge',
  'GET /tags',
  'GET /users/:id/tickets',
  'GET /tokens',
  'POST /tokens',
  'DELETE /tokens/:id',
  'GET /webhooks',
  'POST /webhooks',
  'PUT /webhooks/:id',
  'DELETE /webhooks/:id',
  'POST /webhooks/:id/rotate-secret',
  'POST /webhooks/:id/test',
  'GET /webhooks/:id/deliveries',
  'POST /webhooks/deliveries/:id/retry',
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/:file',
  'GET /csat/:token',
  'POST /csat/:token',
  'GET /tickets/:id/csat',
  'POST /tickets/:id/csat',
  'GET /reports/summary',
  'GET /reports/timeseries',
  'GET /reports/backlog',
  'GET /reports/breakdown',
  'GET /reports/agents',
  'GET /reports/tickets.csv',
];

const accountOf = (caller: Caller): Account | undefined => (caller === 'anonymous' ? undefined : cast[caller]);

function expectError(res: ApiResponse, status: number, message: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ success: false, message });
}

beforeAll(async () => {
  t = await startTestServer(ADMIN_ENV);
  cast = await createCast(t);
  sharedTicket = await createTicket(t.api, cast.owner.token, {
    title: `${SEARCH_WORD} printer jam`,
    description: 'Paper jams on every print job.',
  });
  const { articleId } = await freshArticle();
  sharedArticle = (await t.api.get(`/knowledge/${articleId}`)).body.article;
});
afterAll(() => ifSetUp(t)?.close());

describe('authorization matrix (docs/api.md#endpoints)', () => {
  it('has a row for every documented route', () => {
    expect(new Set(ROWS.map((r) => r.route))).toEqual(new Set(CONTRACT_ROUTES));
    for (const row of ROWS) expect(row.route.startsWith(`${row.method} `)).toBe(true);
  });

  it('has a row for every route the server registers (no unlisted route)', () => {
    expect(new Set(registeredRoutes(t.server))).toEqual(new Set(CONTRACT_ROUTES));
  });

  for (const row of ROWS) {
    describe(`${row.route} (${row.name})`, () => {
      for (const caller of CALLERS) {
        const status = row.expect[caller];
        it(`${caller} → ${status}`, async () => {
          const fx = row.setup ? await row.setup() : {};
          const ctx: Ctx = { caller, me: accountOf(caller), cast, ticket: sharedTicket, article: sharedArticle, fx };
          const res = await t.api.request(row.method, row.path(ctx), { token: token(ctx), body: row.body?.(ctx) });
          expect({ status: res.status, body: res.body }).toMatchObject({ status });
          if (status === 401) expectError(res, 401, AUTH_REQUIRED);
          if (status === 403 || status === 404) {
            const denied = row.denied?.[status];
            const message = typeof denied === 'object' ? denied[caller] : denied;
            if (!message) throw new Error(`row "${row.route} (${row.name})" expects ${status} but names no message`);
            expectError(res, status, message);
          }
          // A download answers its bytes, not JSON; the API document is OpenAPI's shape, not ours.
          if (status < 300)
            expect(typeof res.body === 'string' ? res.body : (res.body.success ?? res.body.status ?? res.body.openapi)).toBeTruthy();
          await row.after?.(ctx, res);
        });
      }
    });
  }
});

describe('who may create which role (docs/api.md#auth-endpoints)', () => {
  const register = (role: string, as?: string) =>
    t.api.post('/auth/register', { name: `New ${role}`, email: uniqueEmail(role), password: STRONG_PASSWORD, role }, { token: as });

  it.each(['anonymous', 'owner', 'agent'] as const)(
    'role admin from %s → 403 "Only administrators can create admin accounts"',
    async (caller) => {
      const res = await register('admin', accountOf(caller)?.token);
      expectError(res, 403, ONLY_ADMINS_CREATE_ADMINS);
      expect(MESSAGES.auth.adminOnlyAdmin).toBe(ONLY_ADMINS_CREATE_ADMINS);
    },
  );

  it('role admin with an admin token → 201 admin account', async () => {
    const res = await register('admin', cast.admin.token);
    expect(res.status).toBe(201);
    expect(res.body.user.role).toBe('admin');
    const verify = await t.api.get('/auth/verify', { token: res.body.token });
    expect(verify.body.user.role).toBe('admin');
  });

  it('role agent is open to anyone while AGENT_SIGNUP is open', async () => {
    const res = await register('agent');
    expect(res.status).toBe(201);
    expect(res.body.user.role).toBe('agent');
  });

  it('role defaults to user', async () => {
    const res = await t.api.post('/auth/register', { name: 'Default Role', email: uniqueEmail('default'), password: STRONG_PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body.user.role).toBe('user');
  });

  it('an invalid bearer token is 401, also on routes where a token is optional', async () => {
    expectError(await t.api.get('/auth/verify', { token: 'not-a-jwt' }), 401, MESSAGES.auth.sessionInvalid);
    expectError(await t.api.get('/tickets', { token: `${cast.owner.token}x` }), 401, MESSAGES.auth.sessionInvalid);
    expectError(await register('user', 'not-a-jwt'), 401, MESSAGES.auth.sessionInvalid);
    expectError(await t.api.get('/tickets', { headers: { authorization: 'Basic abc' } }), 401, AUTH_REQUIRED);
  });

  describe('with AGENT_SIGNUP=closed', () => {
    let closed: TestServer;
    let closedAdmin: Account;
    beforeAll(async () => {
      closed = await startTestServer({ ...ADMIN_ENV, AGENT_SIGNUP: 'closed' });
      closedAdmin = await sessionOf(closed, TEST_ADMIN.email, TEST_ADMIN.password);
    });
    afterAll(() => closed.close());

    const registerOn = (role: string, as?: string) =>
      closed.api.post('/auth/register', { name: `New ${role}`, email: uniqueEmail(role), password: STRONG_PASSWORD, role }, { token: as });

    it('config reports agentSignup closed', async () => {
      expect((await closed.api.get('/config')).body).toMatchObject({ agentSignup: 'closed' });
    });

    it('role agent without a token → 403 "Only administrators can create agent accounts"', async () => {
      expectError(await registerOn('agent'), 403, ONLY_ADMINS_CREATE_AGENTS);
      expect(MESSAGES.auth.adminOnlyAgent).toBe(ONLY_ADMINS_CREATE_AGENTS);
    });

    it('role agent with a user token → 403 as well', async () => {
      const user = await insertUser(closed, { name: 'Closed User' });
      expectError(await registerOn('agent', user.token), 403, ONLY_ADMINS_CREATE_AGENTS);
    });

    it('role agent with an admin token → 201', async () => {
      const res = await registerOn('agent', closedAdmin.token);
      expect(res.status).toBe(201);
      expect(res.body.user.role).toBe('agent');
    });

    it('role admin without an admin token is still 403 admin accounts', async () => {
      expectError(await registerOn('admin'), 403, ONLY_ADMINS_CREATE_ADMINS);
    });

    it('role user stays open', async () => {
      expect((await registerOn('user')).status).toBe(201);
    });
  });
});

describe('ticket access details', () => {
  it("another user's ticket answers exactly like a ticket that does not exist", async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const missing = 2_000_000_000;
    const calls: [Method, string, unknown][] = [
      ['GET', '', undefined],
      ['PUT', '', { title: 'Not yours to change' }],
      ['DELETE', '', undefined],
      ['POST', '/comments', { content: 'Not yours to comment on' }],
    ];
    for (const [method, suffix, body] of calls) {
      const foreign = await t.api.request(method, `/tickets/${ticket.id}${suffix}`, { token: cast.other.token, body });
      const absent = await t.api.request(method, `/tickets/${missing}${suffix}`, { token: cast.other.token, body });
      expectError(foreign, 404, TICKET_NOT_FOUND);
      expect(foreign.body).toEqual(absent.body);
    }
    expect((await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token })).body.ticket.commentCount).toBe(0);
  });

  it('a staff member who owns the ticket may edit both owner and staff fields', async () => {
    const ticket = await createTicket(t.api, cast.agent.token, { title: 'Agent own ticket' });
    const res = await t.api.put(
      `/tickets/${ticket.id}`,
      { title: 'Agent renamed own ticket', resolutionNotes: 'Fixed it myself.' },
      { token: cast.agent.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.ticket).toMatchObject({ title: 'Agent renamed own ticket', resolutionNotes: 'Fixed it myself.' });
  });

  it('an owner mixing allowed and forbidden fields gets 403 and nothing changes', async () => {
    const ticket = await createTicket(t.api, cast.owner.token, { title: 'Mixed fields ticket' });
    const res = await t.api.put(
      `/tickets/${ticket.id}`,
      { title: 'Should not stick', resolutionNotes: 'Nope' },
      { token: cast.owner.token },
    );
    expectError(res, 403, MESSAGES.tickets.fieldForbidden('resolutionNotes'));
    const after = await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token });
    expect(after.body.ticket).toMatchObject({ title: 'Mixed fields ticket', resolutionNotes: null });
  });

  it('an agent who is not the owner may not delete, and the ticket stays', async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    expectError(await t.api.delete(`/tickets/${ticket.id}`, { token: cast.agent.token }), 403, MESSAGES.tickets.deleteByAgent);
    expect((await t.api.get(`/tickets/${ticket.id}`, { token: cast.agent.token })).status).toBe(200);
  });

  it('staff list every ticket; users only their own', async () => {
    const mine = await createTicket(t.api, cast.owner.token, { title: 'Scopecheck owner ticket' });
    const theirs = await createTicket(t.api, cast.other.token, { title: 'Scopecheck other ticket' });
    const ids = async (account: Account) =>
      ((await t.api.get('/tickets?search=Scopecheck&limit=100', { token: account.token })).body.tickets as Ticket[])
        .map((x) => x.id)
        .sort((a, b) => a - b);
    expect(await ids(cast.owner)).toEqual([mine.id]);
    expect(await ids(cast.other)).toEqual([theirs.id]);
    expect(await ids(cast.agent)).toEqual([mine.id, theirs.id].sort((a, b) => a - b));
    expect(await ids(cast.admin)).toEqual([mine.id, theirs.id].sort((a, b) => a - b));
  });
});
