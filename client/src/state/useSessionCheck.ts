import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { authApi } from '../api/auth';
import { statusOf } from '../api/ApiError';
import { authStatusAtom, clearSession, getToken, sessionRotation, updateSessionUser } from './session';

/**
 * Verifies the stored token with the server (docs/product.md#sessions) and refreshes the stored user. A token the
 * server refuses ends the session; when the server cannot be reached the session is kept, so a
 * restart or a network blip does not sign everyone out.
 */
export function useSessionCheck(): () => Promise<void> {
  const setStatus = useSetAtom(authStatusAtom);
  return useCallback(async () => {
    // A password change under way is about to hand this tab a new token: check that one instead.
    await sessionRotation()?.catch(() => undefined);
    const token = getToken();
    if (!token) {
      setStatus('settled');
      return;
    }
    try {
      const { user } = await authApi.verify();
      updateSessionUser(user);
    } catch (error) {
      const status = statusOf(error);
      // Only the token that was checked ends; a newer one (signed in again meanwhile) stays.
      if (status !== undefined && status < 500 && getToken() === token) clearSession(status === 401 ? 'expired' : null);
    } finally {
      setStatus('settled');
    }
  }, [setStatus]);
}
