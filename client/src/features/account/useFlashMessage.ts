import { useCallback, useEffect, useState } from 'react';

/** A message that hides itself after `ms`; showing it again restarts the wait. */
export function useFlashMessage(ms: number) {
  const [flash, setFlash] = useState<{ text: string; at: number } | null>(null);
  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), ms);
    return () => clearTimeout(timer);
  }, [flash, ms]);
  const show = useCallback((text: string) => setFlash({ text, at: Date.now() }), []);
  const clear = useCallback(() => setFlash(null), []);
  return { message: flash?.text ?? null, show, clear };
}
