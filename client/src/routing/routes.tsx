import { canManageUsers, isStaff, type User } from '@helpdesk/protocol';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Redirect, Route, Switch, useSearch } from 'wouter';
import { readEarly } from '../api/queryClient';
import { ticketQueries } from '../api/ticketQueries';
import { AppLayout } from '../components/layout/AppLayout';
import { PageLoader } from '../components/PageLoader';
import NotFoundPage from '../features/errors/NotFoundPage';
import { agentQueryAtom } from '../features/queue/filters';
import { readKnowledgeList } from '../features/knowledge/knowledgeReads';
import { readAgentDashboard } from '../features/queue/agentDashboardReads';
import { readUserDashboard } from '../features/tickets/userDashboardReads';
import { userAtom } from '../state/session';
import { store } from '../state/store';
import { PublicOnly, RequireAuth, RequireStaff } from './guards';

/**
 * A lazy page whose chunk can be asked for before it renders: the route starts it at once, so it
 * downloads alongside the session check instead of after it (guards render the page only then).
 */
function lazyPage<P>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const start = () => (loading ??= load());
  return Object.assign(lazy(start), { preload: start });
}

// Pages load on demand, so /login loads nothing of the dashboards (vite.config.ts: the login page
// itself ships with the boot code).
const LoginPage = lazyPage(() => import('../features/auth/LoginPage'));
const SignupPage = lazyPage(() => import('../features/auth/SignupPage'));
const ResetPasswordPage = lazyPage(() => import('../features/auth/ResetPasswordPage'));
const ApiTestPage = lazyPage(() => import('../features/auth/ApiTestPage'));
const UserDashboardPage = lazyPage(() => import('../features/tickets/UserDashboardPage'));
const TicketsPage = lazyPage(() => import('../features/tickets/TicketsPage'));
const CreateTicketPage = lazyPage(() => import('../features/tickets/CreateTicketPage'));
const TicketDetailPage = lazyPage(() => import('../features/tickets/TicketDetailPage'));
const EditTicketPage = lazyPage(() => import('../features/tickets/EditTicketPage'));
const AgentDashboardPage = lazyPage(() => import('../features/queue/AgentDashboardPage'));
const AgentUpdatePage = lazyPage(() => import('../features/queue/AgentUpdatePage'));
const CannedResponsesPage = lazyPage(() => import('../features/queue/CannedResponsesPage'));
const KnowledgeListPage = lazyPage(() => import('../features/knowledge/KnowledgeListPage'));
const ArticleDetailPage = lazyPage(() => import('../features/knowledge/ArticleDetailPage'));
const ArticleEditorPage = lazyPage(() => import('../features/knowledge/ArticleEditorPage'));
const SettingsPage = lazyPage(() => import('../features/account/SettingsPage'));
const SupportManagementPage = lazyPage(() => import('../features/staff/SupportManagementPage'));

type Page = (LazyExoticComponent<ComponentType<{ id: number }>> | LazyExoticComponent<ComponentType>) & { preload: () => Promise<unknown> };
type Access = 'anyone' | 'signed-out' | 'signed-in' | 'staff';

interface ReadContext {
  client: QueryClient;
  /** Null only on pages open to anyone. */
  user: User | null;
  id?: number;
  /** The address's query string. */
  search: string;
}

interface PageRoute {
  path: string;
  page: Page;
  access: Access;
  /** Lets a signed-in visitor through a signed-out route (an admin at /signup, docs/product.md#routes). */
  allow?: (user: User) => boolean;
  /** The page's first reads, started with its chunk (see useFirstReads). */
  reads?: (context: ReadContext) => void;
}

function ticketReads({ client, id }: ReadContext) {
  if (id !== undefined) readEarly(client, ticketQueries.detail(client, id));
}

/** Every path of docs/product.md#routes; `:id` pages get a numeric id. */
const ROUTES: PageRoute[] = [
  { path: '/login', page: LoginPage, access: 'signed-out' },
  { path: '/signup', page: SignupPage, access: 'signed-out', allow: canManageUsers },
  { path: '/reset-password', page: ResetPasswordPage, access: 'signed-out' },
  { path: '/api-test', page: ApiTestPage, access: 'anyone' },
  { path: '/knowledge', page: KnowledgeListPage, access: 'anyone', reads: readKnowledgeList },
  { path: '/knowledge/new', page: ArticleEditorPage, access: 'staff' },
  { path: '/knowledge/:id/edit', page: ArticleEditorPage, access: 'staff' },
  { path: '/knowledge/:id', page: ArticleDetailPage, access: 'anyone' },
  { path: '/dashboard', page: UserDashboardPage, access: 'signed-in', reads: readUserDashboard },
  { path: '/tickets', page: TicketsPage, access: 'signed-in' },
  { path: '/create-ticket', page: CreateTicketPage, access: 'signed-in' },
  { path: '/tickets/new', page: CreateTicketPage, access: 'signed-in' },
  { path: '/ticket/:id', page: TicketDetailPage, access: 'signed-in', reads: ticketReads },
  { path: '/tickets/:id', page: TicketDetailPage, access: 'signed-in', reads: ticketReads },
  { path: '/edit-ticket/:id', page: EditTicketPage, access: 'signed-in' },
  {
    path: '/agent-dashboard',
    page: AgentDashboardPage,
    access: 'signed-in',
    // The table's query as the page will first render it (the address is applied after).
    reads: ({ client, user }) => {
      if (user && isStaff(user)) readAgentDashboard(client, store.get(agentQueryAtom));
    },
  },
  { path: '/agent/ticket/:id/update', page: AgentUpdatePage, access: 'staff' },
  { path: '/agent/canned-responses', page: CannedResponsesPage, access: 'staff' },
  { path: '/settings', page: SettingsPage, access: 'signed-in' },
  { path: '/support-management', page: SupportManagementPage, access: 'signed-in' },
];

/** Route ids are positive integers (docs/api.md#conventions); anything else is not a page. */
const parseId = (raw: string | undefined): number | null => (raw && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null);

function Guarded({ route, children }: { route: PageRoute; children: ReactNode }) {
  switch (route.access) {
    case 'anyone':
      return <>{children}</>;
    case 'signed-out':
      return <PublicOnly allow={route.allow}>{children}</PublicOnly>;
    case 'signed-in':
      return <RequireAuth>{children}</RequireAuth>;
    case 'staff':
      return <RequireStaff>{children}</RequireStaff>;
  }
}

/**
 * Render-as-you-fetch: the page's first reads go out with its chunk, under the keys the page will
 * use, instead of after the chunk has loaded and rendered (and the session check has settled). A
 * stored token the server refuses ends the session just as its check would.
 */
function useFirstReads(route: PageRoute, id: number | null | undefined) {
  const client = useQueryClient();
  const user = useAtomValue(userAtom);
  const search = useSearch();
  // A signed-in page reads nothing without a stored session: its guard is about to send the visitor away.
  if (id === null || (!user && route.access !== 'anyone')) return;
  route.reads?.({ client, user, id, search });
}

function RoutePage({ route, params }: { route: PageRoute; params: Record<string, string | undefined> }) {
  const Page = route.page as ComponentType<{ id?: number }>;
  const id = route.path.includes(':id') ? parseId(params.id) : undefined;
  useFirstReads(route, id);
  // Guards render the page only once the session check settles; its download need not wait for that.
  // A failed download is reported when the page renders.
  route.page.preload().catch(() => undefined);
  return <Guarded route={route}>{id === null ? <NotFoundPage /> : <Page id={id} />}</Guarded>;
}

export function AppRoutes() {
  return (
    <AppLayout>
      <Suspense fallback={<PageLoader />}>
        <Switch>
          <Route path="/">
            <Redirect to="/login" replace />
          </Route>
          <Route path="/admin-dashboard">
            <Redirect to="/agent-dashboard" replace />
          </Route>
          {ROUTES.map((route) => (
            <Route key={route.path} path={route.path}>
              {(params) => <RoutePage route={route} params={params} />}
            </Route>
          ))}
          <Route component={NotFoundPage} />
        </Switch>
      </Suspense>
    </AppLayout>
  );
}
