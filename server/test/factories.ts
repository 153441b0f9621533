import type { Role, Ticket, User } from '@helpdesk/protocol';
import type { ApiClient } from './http.js';

export interface Account {
  token: string;
  user: User;
  password: string;
}

let sequence = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${process.pid}.${Date.now()}.${++sequence}@example.test`;
export const STRONG_PASSWORD = 'Secret123!';

/** Signs up through the public API; agent/admin need `as` to be an admin's token when required. */
export async function signUp(api: ApiClient, options: { role?: Role; name?: string; email?: string; as?: string } = {}): Promise<Account> {
  const email = options.email ?? uniqueEmail(options.role ?? 'user');
  const res = await api.post('/auth/register', { name: options.name ?? `Test ${options.role ?? 'user'}`, email, password: STRONG_PASSWORD, role: options.role ?? 'user' }, { token: options.as });
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

/** An admin, an agent and two plain users, the cast most tests need. */
export async function createCast(api: ApiClient) {
  const admin = await logIn(api, TEST_ADMIN.email, TEST_ADMIN.password);
  const agent = await signUp(api, { role: 'agent', name: 'Agent Smith' });
  const owner = await signUp(api, { name: 'Owner Olive' });
  const other = await signUp(api, { name: 'Other Oscar' });
  return { admin, agent, owner, other };
}

export async function createTicket(api: ApiClient, token: string, input: Partial<{ title: string; description: string; priority: string }> = {}): Promise<Ticket> {
  const res = await api.post('/tickets', { title: 'Printer is on fire', description: 'Smoke comes out of the printer on floor 3.', ...input }, { token });
  if (res.status !== 201) throw new Error(`create ticket failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.ticket;
}
