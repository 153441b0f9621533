import type { ComponentType } from 'react';
import { parse } from 'regexparam';
import { articleListRead } from '../features/knowledge/filters';

/**
 * Every page path: where its code lives, its tab title and who may open it (docs/product.md#routes).
 * Data only, without React or zod: the entry script (main.tsx) reads it to start the page's download and first read beside the
 * boot code, routes.tsx renders from it, and the tab title comes from it.
 */

type PageModule = { default: ComponentType<{ id: number }> } | { default: ComponentType };

/** A page's code, fetched once whoever asks first: the entry script or the route rendering it. */
export interface PageCode {
  load: () => Promise<PageModule>;
}

function code(load: () => Promise<PageModule>): PageCode {
  let loading: Promise<PageModule> | undefined;
  return { load: () => (loading ??= load()) };
}

export type Access = 'anyone' | 'signed-out' | 'signed-in' | 'staff';

export interface PageRule {
  path: string;
  code: PageCode;
  /** Who may open it; an admin may also open the signed-out /signup (routes.tsx). */
  access: Access;
  /** The tab title; `id` as the address writes it. */
  title: (id: string) => string;
  /** The API path of the page's main read, from the address's id and query string, started by the entry script (api/earlyReads.ts). */
  read?: (id: string, search: string) => string;
}

// The login page ships with the boot code (vite.config.ts), so its import costs the first visit nothing.
const login = code(() => import('../features/auth/LoginPage'));
const signup = code(() => import('../features/auth/SignupPage'));
const resetPassword = code(() => import('../features/auth/ResetPasswordPage'));
const apiTest = code(() => import('../features/auth/ApiTestPage'));
const userDashboard = code(() => import('../features/tickets/UserDashboardPage'));
const tickets = code(() => import('../features/tickets/TicketsPage'));
const createTicket = code(() => import('../features/tickets/CreateTicketPage'));
const ticketDetail = code(() => import('../features/tickets/TicketDetailPage'));
const editTicket = code(() => import('../features/tickets/EditTicketPage'));
const agentDashboard = code(() => import('../features/queue/AgentDashboardPage'));
const agentUpdate = code(() => import('../features/queue/AgentUpdatePage'));
const cannedResponses = code(() => import('../features/queue/CannedResponsesPage'));
const knowledgeList = code(() => import('../features/knowledge/KnowledgeListPage'));
const articleDetail = code(() => import('../features/knowledge/ArticleDetailPage'));
const articleEditor = code(() => import('../features/knowledge/ArticleEditorPage'));
const settings = code(() => import('../features/account/SettingsPage'));
const supportManagement = code(() => import('../features/staff/SupportManagementPage'));
const serviceLevels = code(() => import('../features/serviceLevels/ServiceLevelsPage'));
const emailAdmin = code(() => import('../features/email/EmailAdminPage'));
const webhooksAdmin = code(() => import('../features/webhooks/WebhooksPage'));
const rate = code(() => import('../features/csat/RatePage'));
// Charts (recharts) come with this page only, never with the first load (the /login budget, client/scripts/report-size.mjs).
const reports = code(() => import('../features/reports/ReportsPage'));

const ticketRead = (id: string) => `/tickets/${id}`;

/** In the order they are matched: /knowledge/new before /knowledge/:id. */
export const PAGES: readonly PageRule[] = [
  { path: '/login', code: login, access: 'signed-out', title: () => 'Login' },
  { path: '/signup', code: signup, access: 'signed-out', title: () => 'Create Account' },
  { path: '/reset-password', code: resetPassword, access: 'signed-out', title: () => 'Reset Password' },
  { path: '/api-test', code: apiTest, access: 'signed-out', title: () => 'API Test' },
  {
    path: '/knowledge',
    code: knowledgeList,
    access: 'anyone',
    title: () => 'Knowledge Base',
    read: (_id, search) => articleListRead(search),
  },
  { path: '/knowledge/new', code: articleEditor, access: 'staff', title: () => 'New Article' },
  { path: '/knowledge/:id/edit', code: articleEditor, access: 'staff', title: (id) => `Edit Article #${id}` },
  { path: '/knowledge/:id', code: articleDetail, access: 'anyone', title: (id) => `Article #${id}`, read: (id) => `/knowledge/${id}` },
  { path: '/dashboard', code: userDashboard, access: 'signed-in', title: () => 'Dashboard' },
  { path: '/tickets', code: tickets, access: 'signed-in', title: () => 'Tickets' },
  { path: '/create-ticket', code: createTicket, access: 'signed-in', title: () => 'Create New Ticket' },
  { path: '/tickets/new', code: createTicket, access: 'signed-in', title: () => 'Create New Ticket' },
  { path: '/ticket/:id', code: ticketDetail, access: 'signed-in', title: (id) => `Ticket #${id}`, read: ticketRead },
  { path: '/tickets/:id', code: ticketDetail, access: 'signed-in', title: (id) => `Ticket #${id}`, read: ticketRead },
  { path: '/edit-ticket/:id', code: editTicket, access: 'signed-in', title: (id) => `Edit Ticket #${id}` },
  { path: '/agent-dashboard', code: agentDashboard, access: 'signed-in', title: () => 'Agent Dashboard' },
  { path: '/agent/ticket/:id/update', code: agentUpdate, access: 'staff', title: (id) => `Update Ticket #${id}` },
  { path: '/agent/canned-responses', code: cannedResponses, access: 'staff', title: () => 'Canned Responses' },
  { path: '/settings', code: settings, access: 'signed-in', title: () => 'Settings' },
  { path: '/support-management', code: supportManagement, access: 'signed-in', title: () => 'Support Management' },
  { path: '/reports', code: reports, access: 'staff', title: () => 'Reports' },
  { path: '/service-levels', code: serviceLevels, access: 'staff', title: () => 'Service Levels' },
  { path: '/admin/email', code: emailAdmin, access: 'signed-in', title: () => 'Email' },
  { path: '/admin/webhooks', code: webhooksAdmin, access: 'signed-in', title: () => 'Webhooks' },
  // The survey link of a mail: whoever holds it, signed in or not (docs/product.md#satisfaction-survey).
  { path: '/rate/:token', code: rate, access: 'anyone', title: () => 'Rate Our Support' },
];

/** Route ids are positive integers (docs/api.md#conventions); anything else is not a page. */
export const parseId = (raw: string | undefined): number | null => (raw && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null);

const PATTERNS = PAGES.map((page) => ({ page, ...parse(page.path) }));

export interface PageMatch {
  page: PageRule;
  /** The address's id, for `:id` paths. */
  id?: string;
}

/** The page an address opens, as the router will match it; none for an unknown path or a malformed id. */
export function pageAt(pathname: string): PageMatch | undefined {
  for (const { page, keys, pattern } of PATTERNS) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    if (!keys.includes('id')) return { page };
    const id = match[keys.indexOf('id') + 1];
    return parseId(id) === null ? undefined : { page, id };
  }
  return undefined;
}
