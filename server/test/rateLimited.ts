import { expect } from 'vitest';
import type { ApiResponse } from './http.js';

/** A 429 saying what was limited, with a `Retry-After` of at least a second (and at most the window, when given). */
export function expectRateLimited(res: ApiResponse, message: string, windowSeconds?: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ success: false, message });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  if (windowSeconds !== undefined) expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}
