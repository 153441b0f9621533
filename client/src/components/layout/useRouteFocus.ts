import { useEffect, useRef, type RefObject } from 'react';

/** Pages load as chunks and then their data; give the heading this long to appear. */
const HEADING_WAIT_MS = 5_000;

/**
 * After a navigation inside the app, focus moves to the new page's main heading, as a full page
 * load would put a screen reader at the top of the new page; otherwise focus stays on a link that
 * no longer exists (or on <body>). The first page of a visit keeps the browser's own focus.
 */
export function useRouteFocus(main: RefObject<HTMLElement | null>, location: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const root = main.current;
    if (!root) return;
    const focusHeading = (): boolean => {
      const heading = root.querySelector<HTMLElement>('h1');
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: false });
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) stop();
    });
    const timer = setTimeout(() => stop(), HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    observer.observe(root, { childList: true, subtree: true });
    return stop;
  }, [main, location]);
}
