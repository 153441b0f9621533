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
import { agentQueryAtom } from '../state/agentQuery';
import { readKnowledgeList } from '../features/knowledge/knowledgeReads';
import { readAgentDashboard } from '../features/queue/agentDashboardReads';
import { readUserDashboard } from '../features/tickets/userDashboardReads';
import { userAtom } from '../state/session';
import { PageShown } from '../state/pageShown';
import { store } from '../state/store';
import { PublicOnly, RequireAuth, RequireStaff } from './guards';
import { PAGES, parseId, type PageCode } from './pages';

type PageComponent = LazyExoticComponent<ComponentType<{ id?: number }>>;

/** The page rules with their lazy components: one per page's code, as two paths may share a page. */
const ROUTES = (() => {
  const components = new Map<PageCode, PageComponent>();
  const componentOf = (code: PageCode) => {
    const component = components.get(code) ?? lazy(code.load as () => Promise<{ default: ComponentType<{ id?: number }> }>);
    components.set(code, component);
    return component;
  };
  return PAGES.map((rule) => ({ ...rule, Page: componentOf(rule.code) }));
})();
type PageRoute = (typeof ROUTES)[number];

interface ReadContext {
  client: QueryClient;
  /** Null only on pages open to anyone. */
  user: User | null;
  id?: number;
  /** The address's query string. */
  search: string;
}

function ticketReads({ client, id }: ReadContext) {
  if (id !== undefined) readEarly(client, ticketQueries.detail(client, id));
}

/** The pages' first reads, started with their code (see useFirstReads). */
const READS: Record<string, (context: ReadContext) => void> = {
  '/knowledge': readKnowledgeList,
  '/dashboard': readUserDashboard,
  '/ticket/:id': ticketReads,
  '/tickets/:id': ticketReads,
  // The table's query as the page will first render it (the address is applied after).
  '/agent-dashboard': ({ client, user }) => {
    if (user && isStaff(user)) readAgentDashboard(client, store.get(agentQueryAtom));
  },
};

/** Signed-out routes a signed-in visitor may open anyway: an admin creating accounts for others. */
const ALLOW_SIGNED_IN: Record<string, (user: User) => boolean> = { '/signup': canManageUsers };

function Guarded({ route, children }: { route: PageRoute; children: ReactNode }) {
  switch (route.access) {
    case 'anyone':
      return <>{children}</>;
    case 'signed-out':
      return <PublicOnly allow={ALLOW_SIGNED_IN[route.path]}>{children}</PublicOnly>;
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
  READS[route.path]?.({ client, user, id, search });
}

function RoutePage({ route, params }: { route: PageRoute; params: Record<string, string | undefined> }) {
  const { Page } = route;
  const id = route.path.includes(':id') ? parseId(params.id) : undefined;
  useFirstReads(route, id);
  // Guards render the page only once the session check settles; its download need not wait for that.
  // A failed download is reported when the page renders.
  route.code.load().catch(() => undefined);
  return (
    <Guarded route={route}>
      {id === null ? <NotFoundPage /> : <Page id={id} />}
      <PageShown />
    </Guarded>
  );
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
          <Route>
            <NotFoundPage />
            <PageShown />
          </Route>
        </Switch>
      </Suspense>
    </AppLayout>
  );
}
