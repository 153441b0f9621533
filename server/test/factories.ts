import { registerBody, type Role, type Ticket, type User } from '@helpdesk/protocol';
import { users } from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/passwords.js';
import { presentUser } from '../src/presenters/users.js';
import type { ApiClient } from './http.js';
import type { TestServer } from './server.js';

export interface Account {
  token: string;
  user: User;
  password: string;
}

let sequence = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${process.pid}.${Date.now()}.${++sequence}@example.test`;
export const STRONG_PASSWORD = 'Secret123!';

let strongPasswordHash: Promise<string> | undefined;

/**
 * An account written straight to the database, for tests that are not about signing up: an argon2id
 * hash per account would cost ~100 ms of CPU, so all share one hash of STRONG_PASSWORD (signing in
 * with it still works). The fields are normalised as registration does, and the token comes from the
 * server's own token service, so revocation applies to it as to any session.
 */
export async function insertUser(t: TestServer, options: { role?: Role; name?: string; email?: string } = {}): Promise<Account> {
  const role = options.role ?? 'user';
  const input = registerBody.parse({
    name: options.name ?? `Test ${role}`,
    email: options.email ?? uniqueEmail(role),
    password: STRONG_PASSWORD,
    role,
  });
  strongPasswordHash ??= hashPassword(STRONG_PASSWORD);
  const [row] = await t.server.database.db
    .insert(users)
    .values({ name: input.name, email: input.email, passwordHash: await strongPasswordHash, role: input.role })
    .returning();
  return { token: await t.server.tokens.sign(row!.id, row!.tokenVersion), user: presentUser(row!), password: STRONG_PASSWORD };
}

/** A session for an existing account without checking its password (which costs a hash). */
export async function sessionOf(t: TestServer, email: string, password: string): Promise<Account> {
  const row = await t.server.services.accounts.findByEmail(email);
  if (!row) throw new Error(`no account ${email}`);
  return { token: await t.server.tokens.sign(row.id, row.tokenVersion), user: presentUser(row), password };
}

/** Signs up through the public API; agent/admin need `as` to be an admin's token when required. */
export async function signUp(api: ApiClient, options: { role?: Role; name?: string; email?: string; as?: string } = {}): Promise<Account> {
  const email = options.email ?? uniqueEmail(options.role ?? 'user');
  const res = await api.post(
    '/auth/register',
    { name: options.name ?? `Test ${options.role ?? 'user'}`, email, password: STRONG_PASSWORD, role: options.role ?? 'user' },
    { token: options.as },
  );
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token, user: res.body.user, password: STRONG_PASSWORD };
}

export async function logIn(api: ApiClient, email: string, password: string): Promise<Account> {
  const res = await api.post('/auth/login', { email, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token, user: res.body.user, password };
}

/** The bootstrap admin of startTestServer's ADMIN_EMAIL/ADMIN_PASSWORD. */
export const TEST_ADMIN = { email: 'root.admin@example.test', password: 'RootAdmin1!' };
export const ADMIN_ENV = { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password };

/** An admin, an agent and two plain users, the cast most tests need; sign-up and sign-in have tests of their own. */
export async function createCast(t: TestServer) {
  const admin = await sessionOf(t, TEST_ADMIN.email, TEST_ADMIN.password);
  const agent = await insertUser(t, { role: 'agent', name: 'Agent Smith' });
  const owner = await insertUser(t, { name: 'Owner Olive' });
  const other = await insertUser(t, { name: 'Other Oscar' });
  return { admin, agent, owner, other };
}

export async function createTicket(
  api: ApiClient,
  token: string,
  input: Partial<{ title: string; description: string; priority: string; category: string }> = {},
): Promise<Ticket> {
  const res = await api.post(
    '/tickets',
    { title: 'Printer is on fire', description: 'Smoke comes out of the printer on floor 3.', ...input },
    { token },
  );
  if (res.status !== 201) throw new Error(`create ticket failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.ticket;
}

/** Notification mails for direct insertion into email_outbox: `<tag>-<i>@support.test`, to `<to><i>@example.test`. */
export const queuedMails = (tag: string, count: number, { to = 'reader', subject = 'Mail' } = {}) =>
  Array.from({ length: count }, (_, i) => ({
    kind: 'notification' as const,
    messageId: `${tag}-${i}@support.test`,
    recipient: `${to}${i}@example.test`,
    message: {
      from: 'HelpDesk <no-reply@support.test>',
      to: `${to}${i}@example.test`,
      subject: `${subject} ${i}`,
      text: `Body ${i}`,
      html: '',
    },
  }));
