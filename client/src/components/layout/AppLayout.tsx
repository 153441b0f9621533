import { Anchor, AppShell, Burger, Button, Container, Divider, Group, NavLink, Stack, Text, ThemeIcon } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconHeadset } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { canManageUsers, isStaff } from '@helpdesk/protocol';
import { usePageShown } from '../../state/pageShown';
import { userAtom } from '../../state/session';
import { useLogout } from '../../state/useLogout';
import { LiveAnnouncer } from './LiveAnnouncer';
import { LiveIndicator } from './LiveIndicator';
import { OfflineBanner } from './OfflineBanner';
import { useDocumentTitle } from './useDocumentTitle';
import { useRouteFocus } from './useRouteFocus';
import { navItems, type NavItem } from './navigation';
import classes from './AppLayout.module.css';
import { MAIN_CONTENT_ID } from '../../theme';

// Signed-in only, and its menu pulls in the popover code: kept out of the first visit to /login.
const AccountMenu = lazy(() => import('./AccountMenu'));
// Loaded apart: only staff have a bell, and the sign-in page need not download it.
const NotificationBell = lazy(() => import('../collaboration/NotificationBell').then((m) => ({ default: m.NotificationBell })));

const isActive = (location: string, item: NavItem) => location === item.href || location.startsWith(`${item.href}/`);

/** The frame of every page: title, role navigation, account menu; a drawer below the sm breakpoint. */
export function AppLayout({ children }: { children: ReactNode }) {
  const user = useAtomValue(userAtom);
  const [location] = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const items = navItems(user);
  const main = useRef<HTMLElement>(null);
  const pageShown = usePageShown();
  const logout = useLogout();
  useDocumentTitle(location);
  useRouteFocus(main, location);

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 260, breakpoint: 'sm', collapsed: { desktop: true, mobile: !opened } }} padding="md">
      <a href={`#${MAIN_CONTENT_ID}`} className={classes.skipLink}>
        Skip to main content
      </a>
      <AppShell.Header className={classes.header}>
        <Container size="xl" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label="Toggle navigation"
                aria-expanded={opened}
                aria-controls="mobile-navigation"
              />
              <Anchor component={Link} href="/" underline="never" c="inherit" className={classes.brand} aria-label="HelpDesk System home">
                <Group gap={8} wrap="nowrap">
                  <ThemeIcon size={32} radius="md" variant="gradient" gradient={{ from: 'blue', to: 'cyan' }}>
                    <IconHeadset size={20} />
                  </ThemeIcon>
                  <Text fw={700} size="lg" visibleFrom="xs">
                    HelpDesk System
                  </Text>
                </Group>
              </Anchor>
              <Group gap={4} visibleFrom="sm" ml="md" component="nav" aria-label="Main">
                {items.map((item) => (
                  <Anchor
                    key={item.href}
                    component={Link}
                    href={item.href}
                    className={classes.link}
                    data-active={isActive(location, item) || undefined}
                  >
                    {item.label}
                  </Anchor>
                ))}
              </Group>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <LiveIndicator />
              {user && isStaff(user) && pageShown && (
                <Suspense fallback={null}>
                  <NotificationBell />
                </Suspense>
              )}
              {user ? (
                <Suspense fallback={null}>
                  <AccountMenu user={user} />
                </Suspense>
              ) : (
                <Group gap="xs" wrap="nowrap">
                  <Button component={Link} href="/login" variant="subtle" size="sm">
                    Login
                  </Button>
                  <Button component={Link} href="/signup" size="sm" visibleFrom="xs">
                    Sign up
                  </Button>
                </Group>
              )}
            </Group>
          </Group>
        </Container>
      </AppShell.Header>

      <AppShell.Navbar p="md" aria-label="Mobile navigation" id="mobile-navigation">
        {/* Rendered only while open: links of a drawer slid off-screen must not sit in the Tab order. */}
        {opened && (
          <Stack gap={4}>
            {items.map((item) => (
              <NavLink
                key={item.href}
                component={Link}
                href={item.href}
                label={item.label}
                active={isActive(location, item)}
                onClick={close}
              />
            ))}
            {/* The account menu's links as well, so a phone reaches them from the drawer too. */}
            {user && (
              <>
                <Divider my={4} />
                <NavLink component={Link} href="/settings" label="Settings" active={location === '/settings'} onClick={close} />
                {canManageUsers(user) && (
                  <NavLink
                    component={Link}
                    href="/service-levels"
                    label="Service Levels"
                    active={location === '/service-levels'}
                    onClick={close}
                  />
                )}
                <NavLink
                  component="button"
                  type="button"
                  label="Logout"
                  onClick={() => {
                    close();
                    logout();
                  }}
                />
              </>
            )}
            {/* Signed out: the header's Sign up button is hidden on the narrowest screens. */}
            {!user && (
              <>
                <Divider my={4} />
                <NavLink component={Link} href="/login" label="Login" active={location === '/login'} onClick={close} />
                <NavLink component={Link} href="/signup" label="Sign up" active={location === '/signup'} onClick={close} />
              </>
            )}
          </Stack>
        )}
      </AppShell.Navbar>

      <AppShell.Main className={classes.main} id={MAIN_CONTENT_ID} ref={main} tabIndex={-1}>
        <Container size="xl" py="md">
          <OfflineBanner />
          {children}
        </Container>
        <LiveAnnouncer />
      </AppShell.Main>
    </AppShell>
  );
}
