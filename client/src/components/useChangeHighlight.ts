import { useEffect, useRef, useState } from 'react';

/** How long a value that just changed stays marked. */
export const HIGHLIGHT_MS = 4_000;

/**
 * True for a few seconds after `value` changes while on screen (a live update from someone else, or
 * one's own), so the eye finds the badge that changed; never on first render.
 */
export function useChangeHighlight(value: unknown): boolean {
  const previous = useRef(value);
  const [changed, setChanged] = useState(false);
  useEffect(() => {
    if (Object.is(previous.current, value)) return;
    previous.current = value;
    setChanged(true);
    const timer = setTimeout(() => setChanged(false), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return changed;
}
