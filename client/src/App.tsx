import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import { Router } from 'wouter';
import { useRealtime } from './realtime/useRealtime';
import { AppRoutes } from './routing/routes';
import { store } from './state/store';
import { useSessionCheck } from './state/useSessionCheck';
import { OverlayHosts } from './components/OverlayHosts';
import { cssVariablesResolver, theme } from './theme';

/** Under Vitest, Mantine skips transitions and portals so tests see what a user would see at once. */
const MANTINE_ENV = import.meta.env.MODE === 'test' ? 'test' : 'default';

/** Verifies the stored session once on load and keeps the live connection for it. */
function SessionAndLive({ live, children }: { live: boolean; children: ReactNode }) {
  const check = useSessionCheck();
  useEffect(() => {
    void check();
  }, [check]);
  useRealtime(live);
  return <>{children}</>;
}

export interface AppProps {
  queryClient: QueryClient;
  /** Component tests run without a server to hold a socket to. */
  live?: boolean;
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <JotaiProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env={MANTINE_ENV}>
          <OverlayHosts modals={MANTINE_ENV === 'test'} />
          {children}
        </MantineProvider>
      </QueryClientProvider>
    </JotaiProvider>
  );
}

export function App({ queryClient, live = true }: AppProps) {
  return (
    <AppProviders queryClient={queryClient}>
      <Router>
        <SessionAndLive live={live}>
          <AppRoutes />
        </SessionAndLive>
      </Router>
    </AppProviders>
  );
}
