import { isStaff, type User } from '@helpdesk/protocol';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { PageLoader } from '../components/PageLoader';
import { homePath } from '../state/home';
import { authStatusAtom, userAtom } from '../state/session';

export const CHECKING_TEXT = 'Checking authentication...';

function useSettledUser(): { checking: boolean; user: User | null } {
  const status = useAtomValue(authStatusAtom);
  const user = useAtomValue(userAtom);
  return { checking: status === 'checking', user };
}

/** Sign-in routes wait for the stored token's check, then send strangers to /login (docs/product.md#routes). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { checking, user } = useSettledUser();
  if (checking) return <PageLoader label={CHECKING_TEXT} />;
  if (!user) return <Redirect to="/login" replace />;
  return <>{children}</>;
}

/** Staff pages send a signed-out visitor to /login and a user to /dashboard (docs/product.md#routes). */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { checking, user } = useSettledUser();
  if (checking) return <PageLoader label={CHECKING_TEXT} />;
  if (!user) return <Redirect to="/login" replace />;
  if (!isStaff(user)) return <Redirect to="/dashboard" replace />;
  return <>{children}</>;
}

/**
 * Public routes send a signed-in visitor home (docs/product.md#routes). `allow` lets a signed-in user through
 * anyway (an admin opening /signup to create accounts for others).
 */
export function PublicOnly({ children, allow }: { children: ReactNode; allow?: (user: User) => boolean }) {
  const { checking, user } = useSettledUser();
  if (checking) return <PageLoader label={CHECKING_TEXT} />;
  if (user && !allow?.(user)) return <Redirect to={homePath(user.role)} replace />;
  return <>{children}</>;
}
