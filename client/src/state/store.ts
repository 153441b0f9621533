import { createStore } from 'jotai';

/** One store for the app, so the HTTP client and socket (outside React) read the same session. */
export const store = createStore();
