import { useEffect, useRef } from 'react';

/** Typing in a field, or a key with a modifier, is never a shortcut. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, [role="combobox"], [role="textbox"], [contenteditable="true"]') !== null;
}

/**
 * Single-key shortcuts on the page (`j`, `k`, `Enter`, `r`, `?`), ignored while typing in a field,
 * with a modifier held, or while a dialog is open (its own keys win).
 */
export function useShortcuts(keys: Record<string, (event: KeyboardEvent) => void>, enabled = true): void {
  const latest = useRef(keys);
  useEffect(() => {
    latest.current = keys;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTypingTarget(event.target)) return;
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const handler = latest.current[event.key];
      if (!handler) return;
      handler(event);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
