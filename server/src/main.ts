import { createLogger } from './lib/logger.js';
import { createServer } from './server.js';
import { parseSettings } from './settings.js';
import { printStartupBanner } from './startup/banner.js';

const settings = parseSettings();
const logger = createLogger(settings.logLevel);

try {
  const server = await createServer(settings, { logger });
  const url = await server.listen();
  printStartupBanner(logger, { url, publicUrl: settings.publicUrl, seedDemo: settings.seedDemo });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} catch (error) {
  logger.fatal({ err: error }, 'server failed to start');
  process.exit(1);
}
