import { useEffect, useRef, type RefObject } from 'react';

// Safari before 17.4 has no checkVisibility.
const isShown = (el: HTMLElement) => (typeof el.checkVisibility === 'function' ? el.checkVisibility() : true);

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
      // The page being left can still be in the DOM, hidden by Suspense while the next one loads.
      const heading = Array.from(root.querySelectorAll<HTMLElement>('h1')).find(isShown);
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: false });
      return document.activeElement === heading;
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
    observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['style'] });
    return stop;
  }, [main, location]);
}
