import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// There is no server: each test answers at fetch (fakeServer). A read a test leaves running, such as a
// retry due after it ended, is refused here instead of going to happy-dom's default origin.
globalThis.fetch = () => Promise.reject(new TypeError('No network in component tests: answer this read with fakeServer'));

// Mantine reads media queries and sizes; a fixed desktop answer keeps the tests independent of the test DOM's window size.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
window.ResizeObserver = class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.scrollIntoView = () => {};
window.HTMLElement.prototype.scrollTo = () => {};

// A shared 2-core CI machine can take longer than the default second to render a lazily loaded page
// or settle a mutation; a wait still fails, only later.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  notifications.clean(); // the snackbar store outlives a test's render
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
