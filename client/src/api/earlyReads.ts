import { LIMITS, STORAGE_KEYS } from '@helpdesk/protocol';

/**
 * GETs the entry script starts before the app's code has arrived: the session check and the page's
 * main read, which would otherwise wait for the boot code to download and run (on a slow phone, over
 * a second). The HTTP client takes each answer over once, under the same path and token (none for a
 * visitor); whatever is still untaken when the first page is up is dropped, so no later read gets an
 * old answer.
 */
const early = new Map<string, Promise<Response>>();

const keyOf = (path: string, token: string | null) => `${token ?? ''} ${path}`;

/** `anyone`: the page is open to visitors, so its read starts without a stored session too (the knowledge base). */
export function startEarlyReads(paths: readonly string[], { anyone = false } = {}): void {
  let token: string | null;
  try {
    token = localStorage.getItem(STORAGE_KEYS.token);
  } catch {
    return; // storage refused: the app reads as usual
  }
  if (!token && !anyone) return;
  for (const path of token ? ['/auth/verify', ...paths] : paths) {
    const answer = fetch(`/api${path}`, {
      headers: { Accept: 'application/json', ...(token && { Authorization: `Bearer ${token}` }) },
      credentials: 'include',
      signal: AbortSignal.timeout(LIMITS.requestTimeoutMs),
    });
    answer.catch(() => undefined); // a failure is the taker's to report
    early.set(keyOf(path, token), answer);
  }
}

/** The early answer for this GET, if one was started and not yet taken. */
export function takeEarlyRead(path: string, token: string | null): Promise<Response> | undefined {
  const key = keyOf(path, token);
  const answer = early.get(key);
  early.delete(key);
  return answer;
}

export function dropEarlyReads(): void {
  early.clear();
}
