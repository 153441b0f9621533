import type { Logger } from '../lib/logger.js';
import { DEMO_ACCOUNTS } from './demoData.js';

/**
 * What someone starting the server needs, printed once it listens and after everything else of the
 * start-up, so it is the last thing on screen before the request lines: where to open the app and,
 * on the demo, how to sign in.
 */
export function printStartupBanner(logger: Logger, { url, publicUrl, seedDemo }: { url: string; publicUrl: string; seedDemo: boolean }) {
  logger.info({ url, publicUrl }, `HelpDesk System listening on port ${new URL(url).port}: open ${publicUrl}`);
  if (!seedDemo) return;
  for (const a of DEMO_ACCOUNTS) logger.info(`Demo sign-in (${a.role}): ${a.email} / ${a.password}`);
}
