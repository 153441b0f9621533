import { atom, useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { dropEarlyReads } from '../api/earlyReads';
import { store } from './store';

/**
 * Set once the first page is on screen. What that page does not need (the live connection, the bell,
 * the toast host) waits for it: on a slow phone their downloads and start-up would
 * otherwise compete with the page's own. Component tests render without that wait.
 */
const pageShownAtom = atom(import.meta.env.MODE === 'test');

/** Should no page ever report (an error screen), the rest still starts after this long. */
const AT_THE_LATEST_MS = 3_000;

const markShown = () => {
  store.set(pageShownAtom, true);
  dropEarlyReads();
};
setTimeout(markShown, AT_THE_LATEST_MS);

/** Rendered with a page: once it has been painted, the rest of the app may start. */
export function PageShown() {
  useEffect(() => {
    // After the next frame has been painted (rAF runs before it, the timer after it).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(markShown, 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return null;
}

export const usePageShown = (): boolean => useAtomValue(pageShownAtom);
