import { isStaff, type User } from '@helpdesk/protocol';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { PageLoader } from '../components/PageLoader';
import { homePath } from '../state/home';
import { authStatusAtom, userAtom } from '../state/session';
import { returnPathOf, withReturnPath } from './returnPath';

export const CHECKING_TEXT = 'Checking authentication...';

function useSettledUser(): { checking: boolean; user: User | null } {
  const status = useAtomValue(authStatusAtom);
  const user = useAtomValue(userAtom);
  return { checking: status === 'checking', user };
}

/** /login remembering the page the visitor asked for, so a link from an email survives signing in. */
function ToLogin() {
  const [path] = useLocation();
  const search = useSearch();
  return <Redirect to={withReturnPath('/login', search ? `${path}?${search}` : path)} replace />;
}

/** Sign-in routes wait for the stored token's check, then send strangers to /login (docs/product.md#routes). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { checking, user } = useSettledUser();
  if (checking) return <PageLoader label={CHECKING_TEXT} />;
  if (!user) return <ToLogin />;
  return <>{children}</>;
}

/** Staff pages send a signed-out visitor to /login and a user to /dashboard (docs/product.md#routes). */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { checking, user } = useSettledUser();
  if (checking) return <PageLoader label={CHECKING_TEXT} />;
  if (!user) return <ToLogin />;
  if (!isStaff(user)) return <Redirect to="/dashboard" replace />;
  return <>{children}</>;
}

/**
 * Public routes send a signed-in visitor home (docs/product.md#routes). `allow` lets a signed-in user through
 * anyway (an admin opening /signup to create accounts for others).
 */
export function PublicOnly({ children, allow }: { children: ReactNode; allow?: (user: User) => boolean }) {
  const { checking, user } = useSettledUser();
  const returnTo = returnPathOf(useSearch());
  if (checking) return <PageLoader label={CHECKING_TEXT} />;
  if (user && !allow?.(user)) return <Redirect to={returnTo ?? homePath(user.role)} replace />;
  return <>{children}</>;
}
