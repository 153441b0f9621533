import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation } from 'wouter';
import { SESSION_EXPIRED_PATH } from '../api/http';
import { clearSession } from './session';

/** Logout clears token and user and goes to /login?session_expired=true (docs/product.md#sessions). */
export function useLogout(): () => void {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  return useCallback(() => {
    clearSession('logout');
    client.clear();
    navigate(SESSION_EXPIRED_PATH);
  }, [client, navigate]);
}
