import { sql } from 'drizzle-orm';
import { DEFAULT_CATEGORY, type Category, type Priority, type Role } from '@helpdesk/protocol';
import type { Actor } from '../lib/actor.js';
import type { Services } from '../services/index.js';
import { createUserRecord } from '../services/userRecords.js';
import type { Db } from '../db/client.js';
import { users } from '../db/schema/index.js';

export interface DemoAccount {
  name: string;
  email: string;
  password: string;
  role: Role;
}

/** Demo sign-ins, printed at start whenever demo data is on. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { name: 'Alex Admin', email: 'admin@helpdesk.local', password: 'Admin123!', role: 'admin' },
  { name: 'Sam Agent', email: 'agent@helpdesk.local', password: 'Agent123!', role: 'agent' },
  { name: 'Jordan User', email: 'user@helpdesk.local', password: 'User123!', role: 'user' },
  { name: 'Riley Customer', email: 'riley@helpdesk.local', password: 'Riley123!', role: 'user' },
];

/** Fills an empty database with accounts, tickets in every state and knowledge articles. */
export async function seedDemo(db: Db, services: Services): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  if (Number(row?.n) > 0) return false;

  const actors: Actor[] = [];
  for (const account of DEMO_ACCOUNTS) {
    const user = await createUserRecord(db, account);
    actors.push({ id: user.id, name: user.name, email: user.email, role: user.role });
  }
  const [, agent, jordan, riley] = actors as [Actor, Actor, Actor, Actor];

  const ticket = (owner: Actor, title: string, description: string, priority: Priority, category: Category = DEFAULT_CATEGORY) =>
    services.tickets.create(owner, { title, description, priority, category });

  const vpn = await ticket(
    jordan,
    'Cannot connect to the office VPN',
    'Since this morning the VPN client says "authentication failed" although my password works everywhere else.',
    'high',
    'technical',
  );
  await services.tickets.update(agent, vpn.id, { status: 'in_progress' });
  await services.tickets.addComment(agent, vpn.id, {
    content: 'Thanks for reporting this. I reset your VPN certificate; please try again and let me know.',
  });
  await services.tickets.addComment(agent, vpn.id, {
    content: 'Internal: the certificate authority flagged this account twice this month; watch for a third time.',
    internal: true,
  });

  const invoice = await ticket(
    jordan,
    'Invoice shows the wrong billing address',
    'My last two invoices still show our old office address. We moved in March.',
    'medium',
    'billing',
  );
  await services.tickets.update(agent, invoice.id, { status: 'in_progress' });
  await services.tickets.update(agent, invoice.id, {
    status: 'resolved',
    resolutionNotes: 'Billing address updated; the corrected invoices were sent by email.',
  });

  await ticket(
    jordan,
    'Feature request: dark mode',
    'It would be great if the customer portal had a dark mode for late-night work.',
    'low',
  );
  await ticket(
    riley,
    'Production checkout is down',
    'Customers get a 500 error on the payment step since 09:12. This is costing us sales.',
    'urgent',
    'technical',
  );
  const password = await ticket(
    riley,
    'Password reset email never arrives',
    'I requested a reset link three times but nothing shows up, not even in spam.',
    'high',
    'account',
  );
  await services.tickets.addComment(riley, password.id, {
    content: 'I also checked with our IT team; the mail server is not blocking you.',
  });
  const export_ = await ticket(
    riley,
    'How do I export my data?',
    'Is there a way to export all my tickets as CSV for our quarterly report?',
    'low',
  );
  await services.tickets.update(agent, export_.id, {
    status: 'closed',
    resolutionNotes: 'Answered with the export guide from the knowledge base.',
  });

  const article = (
    title: string,
    category: 'general' | 'technical' | 'billing' | 'account' | 'other',
    keywords: string[],
    content: string,
  ) => services.knowledge.create(agent, { title, category, keywords, content });
  await article(
    'Getting started with HelpDesk',
    'general',
    ['start', 'tickets', 'overview', 'help'],
    'Create a ticket from your dashboard with New Ticket. Describe the problem, pick a priority and follow the status on the ticket page; you get an email when support replies or resolves it.',
  );
  await article(
    'Fixing VPN authentication errors',
    'technical',
    ['vpn', 'network', 'certificate', 'remote'],
    'If the VPN client reports "authentication failed", sign out of the client, remove the stored certificate and sign in again. If it persists, open a ticket with the exact error text.',
  );
  await article(
    'Updating your billing address',
    'billing',
    ['invoice', 'address', 'billing'],
    'Billing details are changed by our billing team. Open a ticket in the billing category with the new address; future invoices use it from the next cycle.',
  );
  await article(
    'Resetting your password',
    'account',
    ['password', 'login', 'reset', 'email', 'security'],
    'Use Forgot Password? on the login page and enter your email. The link in the email works once and expires after one hour. Check your spam folder if it does not arrive.',
  );
  await article(
    'Exporting your data',
    'other',
    ['export', 'csv'],
    'Ask support for a CSV export of your tickets by opening a ticket; exports are usually ready within one business day.',
  );
  return true;
}
