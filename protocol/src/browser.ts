import { config } from 'zod';

/**
 * For pages served under a CSP without 'unsafe-eval': zod otherwise probes `new Function` on its
 * first parse to compile fast paths, and the browser reports the blocked probe as a CSP issue.
 */
export function parseWithoutEval(): void {
  config({ jitless: true });
}
