/**
 * Every validation message of docs/product.md#validation and docs/api.md#errors, word for word, through real HTTP: a 400 whose
 * `message` is the text and whose `errors[field]` is the same text. The texts are hard-coded here as
 * the docs write them (TEXT), and a first test checks that protocol's MESSAGES carry the same
 * words, so a wrong constant fails twice: once here and once in the HTTP answer.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Ticket } from '@helpdesk/protocol';
import {
  ADMIN_ENV,
  STRONG_PASSWORD,
  TEST_ADMIN,
  createTicket,
  insertUser,
  sessionOf,
  uniqueEmail,
  type Account,
} from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import type { ApiResponse } from '../../test/http.js';
import { startTestServer, type TestServer } from '../../test/server.js';

/** The documented texts (and, where the docs give only a bound, protocol's wording of it). */
const TEXT = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 6 characters long',
  passwordWeak: 'Password must include uppercase, number, and special character',
  roleInvalid: 'Role must be one of user, agent, admin',
  staffRoleInvalid: 'Role must be agent or admin',
  duplicateEmail: 'An account with this email already exists',
  invalidCredentials: 'Invalid credentials',
  titleRequired: 'Title is required',
  titleTooShortCreate: 'Title must be at least 5 characters long',
  titleTooLongCreate: 'Title must be at most 200 characters long',
  titleTooShortEdit: 'Title must be at least 3 characters long',
  titleTooLongEdit: 'Title must be at most 100 characters long',
  descriptionRequired: 'Description is required',
  descriptionTooShort: 'Description must be at least 10 characters long',
  descriptionTooLong: 'Description must be at most 2000 characters long',
  priorityInvalid: 'Priority must be one of low, medium, high, urgent',
  statusInvalid: 'Status must be one of open, in_progress, pending, resolved, closed',
  resolutionNotesTooLong: 'Resolution notes must be at most 5000 characters long',
  assignedAgentInvalid: 'Assigned agent must be a support agent id or null',
  agentNotFound: 'Assigned agent must be an existing support agent',
  nothingToUpdate: 'No changes were provided',
  commentRequired: 'Comment content is required',
  commentTooLong: 'Comment must be at most 5000 characters long',
  resetInvalid: 'Invalid or expired reset token',
  tokenRequired: 'Reset token is required',
  resetDone: 'Password has been reset successfully.',
  notificationPreferenceInvalid: 'Email notifications must be one of all, important, none',
  preferencesUpdated: 'Email preferences updated successfully!',
  limitInvalid: 'Limit must be a whole number from 1 to 100',
  pageInvalid: 'Page must be a whole number of at least 1',
  sortInvalid: 'Sort must be one of createdAt, updatedAt, priority, id, status, lastActivityAt, slaDueAt, optionally prefixed with -',
  searchTooLong: 'Search must be at most 200 characters long',
  idInvalid: 'Id must be a positive whole number',
  emailLocked: 'Email cannot be changed',
  cannotDeleteSelf: 'You cannot delete your own account',
  cannotChangeOwnRole: 'You cannot change your own role',
  categoryInvalid: 'Category must be one of general, technical, billing, account, other',
  contentTooShort: 'Content must be at least 10 characters long',
} as const;

const V = MESSAGES.validation;
const CONSTANTS: Record<keyof typeof TEXT, string> = {
  nameRequired: V.nameRequired,
  emailRequired: V.emailRequired,
  emailInvalid: V.emailInvalid,
  passwordRequired: V.passwordRequired,
  passwordTooShort: V.passwordTooShort,
  passwordWeak: V.passwordWeak,
  roleInvalid: V.roleInvalid,
  staffRoleInvalid: V.staffRoleInvalid,
  duplicateEmail: MESSAGES.auth.duplicateEmail,
  invalidCredentials: MESSAGES.auth.invalidCredentials,
  titleRequired: V.titleRequired,
  titleTooShortCreate: V.titleTooShortCreate,
  titleTooLongCreate: V.titleTooLongCreate,
  titleTooShortEdit: V.titleTooShortEdit,
  titleTooLongEdit: V.titleTooLongEdit,
  descriptionRequired: V.descriptionRequired,
  descriptionTooShort: V.descriptionTooShort,
  descriptionTooLong: V.descriptionTooLong,
  priorityInvalid: V.priorityInvalid,
  statusInvalid: V.statusInvalid,
  resolutionNotesTooLong: V.resolutionNotesTooLong,
  assignedAgentInvalid: V.assignedAgentInvalid,
  agentNotFound: MESSAGES.tickets.agentNotFound,
  nothingToUpdate: V.nothingToUpdate,
  commentRequired: V.commentRequired,
  commentTooLong: V.commentTooLong,
  resetInvalid: MESSAGES.auth.resetInvalid,
  tokenRequired: V.tokenRequired,
  resetDone: MESSAGES.auth.resetDone,
  notificationPreferenceInvalid: V.notificationPreferenceInvalid,
  preferencesUpdated: MESSAGES.users.preferencesUpdated,
  limitInvalid: V.limitInvalid,
  pageInvalid: V.pageInvalid,
  sortInvalid: V.sortInvalid,
  searchTooLong: V.searchTooLong,
  idInvalid: V.idInvalid,
  emailLocked: MESSAGES.users.emailLocked,
  cannotDeleteSelf: MESSAGES.users.cannotDeleteSelf,
  cannotChangeOwnRole: MESSAGES.users.cannotChangeOwnRole,
  categoryInvalid: V.categoryInvalid,
  contentTooShort: V.contentTooShort,
};

/** A 400 naming one field: the first problem is the message and that field carries the same text. */
function expectInvalid(res: ApiResponse, field: string, text: string) {
  expect({ status: res.status, body: res.body }).toMatchObject({ status: 400 });
  expect(res.body.success).toBe(false);
  expect(res.body.message).toBe(text);
  expect(res.body.errors?.[field]).toBe(text);
}

function expectError(res: ApiResponse, status: number, text: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ success: false, message: text });
}

let t: TestServer;
let admin: Account;
let owner: Account;
let agent: Account;
let ownerTicket: Ticket;

beforeAll(async () => {
  t = await startTestServer(ADMIN_ENV);
  admin = await sessionOf(t, TEST_ADMIN.email, TEST_ADMIN.password);
  owner = await insertUser(t, { name: 'Owner Olive' });
  agent = await insertUser(t, { role: 'agent', name: 'Agent Smith' });
  ownerTicket = await createTicket(t.api, owner.token, { title: 'Validation target ticket' });
});
afterAll(() => ifSetUp(t)?.close());

it('protocol MESSAGES carry the documented texts word for word', () => {
  for (const key of Object.keys(TEXT) as (keyof typeof TEXT)[]) expect({ key, text: CONSTANTS[key] }).toEqual({ key, text: TEXT[key] });
});

describe('POST /auth/register', () => {
  const valid = () => ({ name: 'New Person', email: uniqueEmail('register'), password: STRONG_PASSWORD });

  it.each([
    { case: 'missing email', patch: { email: undefined }, field: 'email', text: TEXT.emailRequired },
    { case: 'blank email', patch: { email: '   ' }, field: 'email', text: TEXT.emailRequired },
    { case: 'email without @', patch: { email: 'not-an-email' }, field: 'email', text: TEXT.emailInvalid },
    { case: 'email without domain', patch: { email: 'someone@' }, field: 'email', text: TEXT.emailInvalid },
    { case: 'email with spaces inside', patch: { email: 'some one@example.test' }, field: 'email', text: TEXT.emailInvalid },
    { case: 'missing password', patch: { password: undefined }, field: 'password', text: TEXT.passwordRequired },
    { case: 'password of 5 characters', patch: { password: 'Ab1!x' }, field: 'password', text: TEXT.passwordTooShort },
    { case: 'password all lower-case letters', patch: { password: 'password' }, field: 'password', text: TEXT.passwordWeak },
    { case: 'password without uppercase', patch: { password: 'secret123!' }, field: 'password', text: TEXT.passwordWeak },
    { case: 'password without digit', patch: { password: 'Secret!!' }, field: 'password', text: TEXT.passwordWeak },
    { case: 'password without special character', patch: { password: 'Secret123' }, field: 'password', text: TEXT.passwordWeak },
    { case: 'password with a special outside !@#$%^&*', patch: { password: 'Secret123?' }, field: 'password', text: TEXT.passwordWeak },
    { case: 'missing name', patch: { name: undefined }, field: 'name', text: TEXT.nameRequired },
    { case: 'blank name', patch: { name: '   ' }, field: 'name', text: TEXT.nameRequired },
    { case: 'unknown role', patch: { role: 'superuser' }, field: 'role', text: TEXT.roleInvalid },
  ])('$case → 400 $text', async ({ patch, field, text }) => {
    const res = await t.api.post('/auth/register', { ...valid(), ...patch });
    expectInvalid(res, field, text);
  });

  it('a password of exactly 6 characters meeting the rule is accepted', async () => {
    const res = await t.api.post('/auth/register', { ...valid(), password: 'Ab1!cd' });
    expect(res.status).toBe(201);
  });

  it('trims and lower-cases the email, and the stored form signs in', async () => {
    const local = uniqueEmail('Mixed.Case').replace('@example.test', '');
    const res = await t.api.post('/auth/register', { ...valid(), email: `  ${local.toUpperCase()}@Example.TEST  ` });
    expect(res.status).toBe(201);
    const stored = `${local.toLowerCase()}@example.test`;
    expect(res.body.user.email).toBe(stored);
    expect((await t.api.post('/auth/login', { email: stored, password: STRONG_PASSWORD })).status).toBe(200);
    expect((await t.api.post('/auth/login', { email: ` ${stored.toUpperCase()} `, password: STRONG_PASSWORD })).status).toBe(200);
  });

  it('a duplicate email → 409 "An account with this email already exists", also in another case and with spaces', async () => {
    const email = owner.user.email;
    expectError(await t.api.post('/auth/register', { ...valid(), email }), 409, TEXT.duplicateEmail);
    expectError(await t.api.post('/auth/register', { ...valid(), email: `  ${email.toUpperCase()} ` }), 409, TEXT.duplicateEmail);
  });
});

describe('POST /auth/login', () => {
  it.each([
    { case: 'bad email format', body: { email: 'not-an-email', password: STRONG_PASSWORD }, field: 'email', text: TEXT.emailInvalid },
    { case: 'missing email', body: { password: STRONG_PASSWORD }, field: 'email', text: TEXT.emailRequired },
    {
      case: 'password of 5 characters',
      body: { email: 'someone@example.test', password: 'Ab1!x' },
      field: 'password',
      text: TEXT.passwordTooShort,
    },
    { case: 'missing password', body: { email: 'someone@example.test' }, field: 'password', text: TEXT.passwordRequired },
  ])('$case → 400 $text', async ({ body, field, text }) => {
    expectInvalid(await t.api.post('/auth/login', body), field, text);
  });

  it('a wrong password → 401 "Invalid credentials"', async () => {
    expectError(await t.api.post('/auth/login', { email: owner.user.email, password: 'Wrong123!' }), 401, TEXT.invalidCredentials);
  });

  it('an unknown email → 401 with the same answer', async () => {
    expectError(
      await t.api.post('/auth/login', { email: uniqueEmail('unknown'), password: STRONG_PASSWORD }),
      401,
      TEXT.invalidCredentials,
    );
  });

  it('login checks only the length, not the strength rule (older accounts)', async () => {
    expectError(await t.api.post('/auth/login', { email: owner.user.email, password: 'weakpassword' }), 401, TEXT.invalidCredentials);
  });
});

describe('POST /tickets', () => {
  const valid = { title: 'Laptop will not boot', description: 'It shows a black screen after the logo.' };

  it.each([
    { case: 'missing title', patch: { title: undefined }, field: 'title', text: TEXT.titleRequired },
    { case: 'empty title', patch: { title: '' }, field: 'title', text: TEXT.titleRequired },
    { case: 'blank title', patch: { title: '     ' }, field: 'title', text: TEXT.titleRequired },
    { case: 'title of 4 characters', patch: { title: 'Abcd' }, field: 'title', text: TEXT.titleTooShortCreate },
    { case: 'title of 4 characters padded with spaces', patch: { title: '   Abcd   ' }, field: 'title', text: TEXT.titleTooShortCreate },
    { case: 'title of 201 characters', patch: { title: 'T'.repeat(201) }, field: 'title', text: TEXT.titleTooLongCreate },
    { case: 'missing description', patch: { description: undefined }, field: 'description', text: TEXT.descriptionRequired },
    { case: 'blank description', patch: { description: '    ' }, field: 'description', text: TEXT.descriptionRequired },
    { case: 'description of 9 characters', patch: { description: 'Too short' }, field: 'description', text: TEXT.descriptionTooShort },
    {
      case: 'description of 9 characters padded',
      patch: { description: '   123456789    ' },
      field: 'description',
      text: TEXT.descriptionTooShort,
    },
    {
      case: 'description of 2001 characters',
      patch: { description: 'd'.repeat(2001) },
      field: 'description',
      text: TEXT.descriptionTooLong,
    },
    { case: 'unknown priority', patch: { priority: 'critical' }, field: 'priority', text: TEXT.priorityInvalid },
  ])('$case → 400 $text', async ({ patch, field, text }) => {
    expectInvalid(await t.api.post('/tickets', { ...valid, ...patch }, { token: owner.token }), field, text);
  });

  it('accepts the bounds (title 5 and 200, description 10 and 2000) and trims', async () => {
    for (const body of [
      { title: 'Abcde', description: '0123456789' },
      { title: 'T'.repeat(200), description: 'd'.repeat(2000) },
    ]) {
      const res = await t.api.post('/tickets', body, { token: owner.token });
      expect(res.status).toBe(201);
      expect(res.body.ticket).toMatchObject(body);
    }
    const padded = await t.api.post(
      '/tickets',
      { title: '  Padded title  ', description: '  Padded description  ' },
      { token: owner.token },
    );
    expect(padded.body.ticket).toMatchObject({ title: 'Padded title', description: 'Padded description' });
  });

  it('defaults the priority to medium', async () => {
    const res = await t.api.post('/tickets', valid, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body.ticket).toMatchObject({ priority: 'medium', status: 'open' });
  });
});

describe('PUT /tickets/:id', () => {
  const put = (body: unknown, account: Account = owner) => t.api.put(`/tickets/${ownerTicket.id}`, body, { token: account.token });

  it.each([
    { case: 'empty title', body: { title: '' }, field: 'title', text: TEXT.titleRequired },
    { case: 'title of 2 characters after trimming', body: { title: '   ab   ' }, field: 'title', text: TEXT.titleTooShortEdit },
    { case: 'title of 101 characters', body: { title: 'T'.repeat(101) }, field: 'title', text: TEXT.titleTooLongEdit },
    {
      case: 'title of 150 characters (fine on create, too long on edit)',
      body: { title: 'T'.repeat(150) },
      field: 'title',
      text: TEXT.titleTooLongEdit,
    },
    { case: 'empty description', body: { description: '' }, field: 'description', text: TEXT.descriptionRequired },
    {
      case: 'description of 9 characters after trimming',
      body: { description: '    123456789    ' },
      field: 'description',
      text: TEXT.descriptionTooShort,
    },
    {
      case: 'description of 2001 characters',
      body: { description: 'd'.repeat(2001) },
      field: 'description',
      text: TEXT.descriptionTooLong,
    },
    { case: 'unknown priority', body: { priority: 'critical' }, field: 'priority', text: TEXT.priorityInvalid },
    { case: 'unknown status', body: { status: 'waiting' }, field: 'status', text: TEXT.statusInvalid },
  ])('owner: $case → 400 $text', async ({ body, field, text }) => {
    expectInvalid(await put(body), field, text);
  });

  it('owner: an empty body → 400 "No changes were provided"', async () => {
    const res = await put({});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: TEXT.nothingToUpdate });
  });

  it('owner: a title of 3 characters after trimming and one of 100 are accepted, stored trimmed', async () => {
    const short = await put({ title: '   abc   ' });
    expect(short.status).toBe(200);
    expect(short.body.ticket.title).toBe('abc');
    const long = await put({ title: 'T'.repeat(100), description: '   Exactly ten plus, trimmed.   ' });
    expect(long.status).toBe(200);
    expect(long.body.ticket).toMatchObject({ title: 'T'.repeat(100), description: 'Exactly ten plus, trimmed.' });
  });

  it.each([
    {
      case: 'resolution notes of 5001 characters',
      body: { resolutionNotes: 'n'.repeat(5001) },
      field: 'resolutionNotes',
      text: TEXT.resolutionNotesTooLong,
    },
    {
      case: 'resolution notes that are not text',
      body: { resolutionNotes: 5 },
      field: 'resolutionNotes',
      text: 'Resolution notes must be text',
    },
    {
      case: 'assignedAgentId that is not a number',
      body: { assignedAgentId: 'Agent Smith' },
      field: 'assignedAgentId',
      text: TEXT.assignedAgentInvalid,
    },
    { case: 'assignedAgentId 0', body: { assignedAgentId: 0 }, field: 'assignedAgentId', text: TEXT.assignedAgentInvalid },
    { case: 'unknown status', body: { status: 'done' }, field: 'status', text: TEXT.statusInvalid },
  ])('staff: $case → 400 $text', async ({ body, field, text }) => {
    expectInvalid(await put(body, agent), field, text);
  });

  it('staff: assigning a plain user → 400 "Assigned agent must be an existing support agent"', async () => {
    expectInvalid(await put({ assignedAgentId: owner.user.id }, agent), 'assignedAgentId', TEXT.agentNotFound);
  });

  it('accepts the spelling in-progress and stores/returns in_progress', async () => {
    const ticket = await createTicket(t.api, owner.token, { title: 'Alias spelling ticket' });
    const res = await t.api.put(`/tickets/${ticket.id}`, { status: 'in-progress' }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.ticket.status).toBe('in_progress');
    const detail = await t.api.get(`/tickets/${ticket.id}`, { token: owner.token });
    expect(detail.body.ticket.status).toBe('in_progress');
    expect(detail.body.ticket.history.at(-1)).toMatchObject({ type: 'status', from: 'open', to: 'in_progress' });
    for (const status of ['in_progress', 'in-progress']) {
      const list = await t.api.get(`/tickets?status=${status}&search=Alias`, { token: owner.token });
      expect(list.status).toBe(200);
      expect(list.body.tickets.map((x: Ticket) => x.id)).toEqual([ticket.id]);
      expect(list.body.tickets[0].status).toBe('in_progress');
    }
    // Staff may use the alias as well.
    await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, { token: agent.token });
    const byAgent = await t.api.put(`/tickets/${ticket.id}`, { status: 'in-progress' }, { token: agent.token });
    expect(byAgent.body.ticket.status).toBe('in_progress');
  });

  it('a malformed id → 400 "Id must be a positive whole number"', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await t.api.get(`/tickets/${id}`, { token: owner.token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: TEXT.idInvalid });
    }
  });
});

describe('POST /tickets/:id/comments', () => {
  it.each([
    { case: 'missing content', body: {} },
    { case: 'empty content', body: { content: '' } },
    { case: 'blank content', body: { content: '   \n\t  ' } },
    { case: 'content that is not text', body: { content: 42 } },
  ])('$case → 400 "Comment content is required"', async ({ body }) => {
    expectInvalid(await t.api.post(`/tickets/${ownerTicket.id}/comments`, body, { token: owner.token }), 'content', TEXT.commentRequired);
  });

  it('content over 5000 characters → 400', async () => {
    expectInvalid(
      await t.api.post(`/tickets/${ownerTicket.id}/comments`, { content: 'c'.repeat(5001) }, { token: owner.token }),
      'content',
      TEXT.commentTooLong,
    );
  });

  it('accepts 5000 characters and trims the content', async () => {
    expect((await t.api.post(`/tickets/${ownerTicket.id}/comments`, { content: 'c'.repeat(5000) }, { token: owner.token })).status).toBe(
      201,
    );
    const res = await t.api.post(`/tickets/${ownerTicket.id}/comments`, { content: '   Thanks!   ' }, { token: owner.token });
    expect(res.status).toBe(201);
    expect(res.body.comment.content).toBe('Thanks!');
  });
});

/** Decodes the quoted-printable / base64 parts of an .eml well enough to find a link in it. */
function decodeMail(raw: string): string {
  const qp = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const base64Parts = [...raw.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/gi)].map((m) =>
    Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64').toString('utf8'),
  );
  return [qp, ...base64Parts].join('\n');
}

/** Asks for a reset link through the API and reads the token from the mail in DATA_DIR/outbox. */
async function requestResetToken(email: string): Promise<string> {
  const res = await t.api.post('/auth/request-password-reset', { email });
  expect(res.status).toBe(200);
  await t.server.mailer.idle();
  const outbox = path.join(t.dataDir, 'outbox');
  for (const file of await readdir(outbox)) {
    const text = decodeMail(await readFile(path.join(outbox, file), 'utf8'));
    if (!text.toLowerCase().includes(email.toLowerCase())) continue;
    const match = text.match(/reset-password\?token=([A-Za-z0-9_-]+)/);
    if (match) return decodeURIComponent(match[1]!);
  }
  throw new Error(`no reset mail for ${email}`);
}

describe('POST /auth/reset-password', () => {
  it('an unknown token → 400 "Invalid or expired reset token"', async () => {
    expectInvalid(
      await t.api.post('/auth/reset-password', { token: 'not-a-real-token', newPassword: 'Changed456!' }),
      'token',
      TEXT.resetInvalid,
    );
  });

  it('a missing token → 400 "Reset token is required"', async () => {
    expectInvalid(await t.api.post('/auth/reset-password', { newPassword: 'Changed456!' }), 'token', TEXT.tokenRequired);
  });

  it.each([
    { case: 'weak new password', newPassword: 'password1', text: TEXT.passwordWeak },
    { case: 'short new password', newPassword: 'Ab1!x', text: TEXT.passwordTooShort },
    { case: 'missing new password', newPassword: undefined, text: TEXT.passwordRequired },
  ])('$case → 400 $text (signup rules)', async ({ newPassword, text }) => {
    expectInvalid(await t.api.post('/auth/reset-password', { token: 'any-token-value', newPassword }), 'newPassword', text);
  });

  it('a real token survives a rejected weak password, works once, then is invalid', async () => {
    const account = await insertUser(t, { name: 'Reset Person' });
    const token = await requestResetToken(account.user.email);
    expectInvalid(await t.api.post('/auth/reset-password', { token, newPassword: 'weakpass' }), 'newPassword', TEXT.passwordWeak);
    const done = await t.api.post('/auth/reset-password', { token, newPassword: 'Changed456!' });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true, message: TEXT.resetDone });
    expectInvalid(await t.api.post('/auth/reset-password', { token, newPassword: 'Another789!' }), 'token', TEXT.resetInvalid);
    expect((await t.api.post('/auth/login', { email: account.user.email, password: 'Changed456!' })).status).toBe(200);
    expectError(await t.api.post('/auth/login', { email: account.user.email, password: STRONG_PASSWORD }), 401, TEXT.invalidCredentials);
  });
});

describe('PUT /users/preferences', () => {
  it.each([
    { case: 'unknown value', body: { email_notifications: 'sometimes' } },
    { case: 'missing value', body: {} },
    { case: 'boolean value', body: { email_notifications: true } },
  ])('$case → 400 "Email notifications must be one of all, important, none"', async ({ body }) => {
    expectInvalid(
      await t.api.put('/users/preferences', body, { token: owner.token }),
      'email_notifications',
      TEXT.notificationPreferenceInvalid,
    );
  });

  it('a valid value is stored', async () => {
    const res = await t.api.put('/users/preferences', { email_notifications: 'none' }, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, user: { email_notifications: 'none' }, message: TEXT.preferencesUpdated });
    expect((await t.api.get('/users/profile', { token: owner.token })).body.user.email_notifications).toBe('none');
  });
});

describe('GET /tickets query', () => {
  it.each([
    { query: 'limit=0', field: 'limit', text: TEXT.limitInvalid },
    { query: 'limit=101', field: 'limit', text: TEXT.limitInvalid },
    { query: 'limit=-1', field: 'limit', text: TEXT.limitInvalid },
    { query: 'limit=ten', field: 'limit', text: TEXT.limitInvalid },
    { query: 'limit=2.5', field: 'limit', text: TEXT.limitInvalid },
    { query: 'page=0', field: 'page', text: TEXT.pageInvalid },
    { query: 'page=-1', field: 'page', text: TEXT.pageInvalid },
    { query: 'page=first', field: 'page', text: TEXT.pageInvalid },
    { query: 'sort=title', field: 'sort', text: TEXT.sortInvalid },
    { query: 'sort=--createdAt', field: 'sort', text: TEXT.sortInvalid },
    { query: 'status=waiting', field: 'status', text: TEXT.statusInvalid },
    { query: 'priority=critical', field: 'priority', text: TEXT.priorityInvalid },
    { query: `search=${'s'.repeat(201)}`, field: 'search', text: TEXT.searchTooLong },
  ])('?$query → 400 $text', async ({ query, field, text }) => {
    expectInvalid(await t.api.get(`/tickets?${query}`, { token: owner.token }), field, text);
  });

  it.each([
    'limit=1',
    'limit=100',
    'page=1',
    'page=5',
    'sort=createdAt',
    'sort=-createdAt',
    'sort=updatedAt',
    'sort=-updatedAt',
    'sort=priority',
    'sort=-priority',
    'status=in-progress',
    'status=closed',
    'priority=urgent',
    'limit=&page=&sort=&status=',
  ])('?%s is accepted', async (query) => {
    const res = await t.api.get(`/tickets?${query}`, { token: owner.token });
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200, body: { success: true } });
  });

  it('echoes page and limit, defaulting to 1 and 10', async () => {
    expect((await t.api.get('/tickets', { token: owner.token })).body).toMatchObject({ page: 1, limit: 10 });
    expect((await t.api.get('/tickets?page=2&limit=25', { token: owner.token })).body).toMatchObject({ page: 2, limit: 25 });
  });

  it('stats refuse the same bad filters', async () => {
    expectInvalid(await t.api.get('/tickets/stats?status=waiting', { token: owner.token }), 'status', TEXT.statusInvalid);
    expectInvalid(await t.api.get('/tickets/stats?priority=critical', { token: owner.token }), 'priority', TEXT.priorityInvalid);
  });
});

describe('users administration', () => {
  it('PUT /users/:id with a different email → 400 "Email cannot be changed"', async () => {
    const res = await t.api.put(`/users/${agent.user.id}`, { name: 'Agent Smith', email: uniqueEmail('changed') }, { token: admin.token });
    expectInvalid(res, 'email', TEXT.emailLocked);
    expect((await t.api.get('/users/profile', { token: agent.token })).body.user.email).toBe(agent.user.email);
  });

  it('PUT /users/:id with the same email (any case) is fine', async () => {
    const res = await t.api.put(
      `/users/${agent.user.id}`,
      { name: 'Agent Smith Jr', email: ` ${agent.user.email.toUpperCase()} ` },
      { token: admin.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ name: 'Agent Smith Jr', email: agent.user.email });
  });

  it('PUT /users/:id with a weak password → 400 with the signup rule', async () => {
    expectInvalid(
      await t.api.put(`/users/${agent.user.id}`, { password: 'weakpass' }, { token: admin.token }),
      'password',
      TEXT.passwordWeak,
    );
  });

  it('PUT /users/:id changing your own role → 400 "You cannot change your own role"', async () => {
    expectInvalid(await t.api.put(`/users/${admin.user.id}`, { role: 'agent' }, { token: admin.token }), 'role', TEXT.cannotChangeOwnRole);
  });

  it('POST /users with role user → 400 "Role must be agent or admin"', async () => {
    const res = await t.api.post(
      '/users',
      { name: 'Not Staff', email: uniqueEmail('notstaff'), password: STRONG_PASSWORD, role: 'user' },
      { token: admin.token },
    );
    expectInvalid(res, 'role', TEXT.staffRoleInvalid);
  });

  it('POST /users with an existing email → 409 "An account with this email already exists"', async () => {
    const res = await t.api.post(
      '/users',
      { name: 'Twin', email: owner.user.email.toUpperCase(), password: STRONG_PASSWORD },
      { token: admin.token },
    );
    expectError(res, 409, TEXT.duplicateEmail);
  });

  it('POST /users with a bad email / weak password → 400', async () => {
    expectInvalid(
      await t.api.post('/users', { name: 'X', email: 'nope', password: STRONG_PASSWORD }, { token: admin.token }),
      'email',
      TEXT.emailInvalid,
    );
    expectInvalid(
      await t.api.post('/users', { name: 'X', email: uniqueEmail('x'), password: 'secret' }, { token: admin.token }),
      'password',
      TEXT.passwordWeak,
    );
  });

  it('DELETE own admin account → 400 "You cannot delete your own account", and the admin still works', async () => {
    const res = await t.api.delete(`/users/${admin.user.id}`, { token: admin.token });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: TEXT.cannotDeleteSelf });
    expect((await t.api.get('/auth/verify', { token: admin.token })).status).toBe(200);
  });
});

describe('knowledge base writes', () => {
  it.each([
    { case: 'title of 2 characters', patch: { title: 'ab' }, field: 'title', text: TEXT.titleTooShortEdit },
    { case: 'missing title', patch: { title: undefined }, field: 'title', text: TEXT.titleRequired },
    { case: 'content of 9 characters', patch: { content: 'Too short' }, field: 'content', text: TEXT.contentTooShort },
    { case: 'unknown category', patch: { category: 'misc' }, field: 'category', text: TEXT.categoryInvalid },
  ])('$case → 400 $text', async ({ patch, field, text }) => {
    const body = { title: 'Resetting a password', content: 'Open the login page and follow the link.', category: 'account', ...patch };
    expectInvalid(await t.api.post('/knowledge', body, { token: agent.token }), field, text);
  });
});
