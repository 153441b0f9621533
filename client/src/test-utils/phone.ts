import { vi } from 'vitest';

/**
 * The screen is a phone's until the test ends: every `max-width` media query matches (setup.ts
 * answers as a desktop and unstubs globals after each test).
 */
export function asPhone(): void {
  const desktop = window.matchMedia.bind(window);
  vi.stubGlobal('matchMedia', (query: string) => Object.assign(desktop(query), { matches: query.includes('max-width') }));
}
