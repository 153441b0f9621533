import { useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'wouter';

/**
 * Navigates after a pause (docs/product.md#limits: ticket create and edit redirect after 2 s, a password reset
 * after 3 s), so the success message can be read first. Leaving the page earlier cancels it.
 */
export function useDelayedNavigate(): (to: string, delayMs: number, options?: { replace?: boolean }) => void {
  const [, navigate] = useLocation();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(
    (to: string, delayMs: number, options?: { replace?: boolean }) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => navigate(to, options), delayMs);
    },
    [navigate],
  );
}
