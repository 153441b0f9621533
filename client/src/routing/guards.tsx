import { isStaffRole, type User } from '@helpdesk/protocol';
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

/** SPEC §2: sign-in routes wait for the stored token's check, then send strangers to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { checking, user } = useSettledUser();
  if (checking) return <PageLoader label={CHECKING_TEXT} />;
  if (!user) return <Redirect to="/login" replace />;
  return <>{children}</>;
}

/** SPEC §2: the update screen sends non-agents to /dashboard. */
export function RequireStaff({ children }: { children: ReactNode }) {
  const { checking, user } = useSettledUser();
  if (checking) return <PageLoader label={CHECKING_TEXT} />;
  if (!user) return <Redirect to="/login" replace />;
  if (!isStaffRole(user.role)) return <Redirect to="/dashboard" replace />;
  return <>{children}</>;
}

/**
 * SPEC §2: public routes send a signed-in visitor home. `allow` lets a signed-in user through
 * anyway (an admin opening /signup to create an admin account, SPEC §5).
 */
export function PublicOnly({ children, allow }: { children: ReactNode; allow?: (user: User) => boolean }) {
  const { checking, user } = useSettledUser();
  if (checking) return <PageLoader label={CHECKING_TEXT} />;
  if (user && !allow?.(user)) return <Redirect to={homePath(user.role)} replace />;
  return <>{children}</>;
}
