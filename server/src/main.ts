import { createLogger } from './lib/logger.js';
import { createServer } from './server.js';
import { parseSettings } from './settings.js';
import { printStartupBanner } from './startup/banner.js';
import { startupProblem } from './startup/startupProblem.js';

const settings = readSettings();
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
  const problem = startupProblem(error, settings);
  if (problem) logger.fatal(problem);
  else logger.fatal({ err: error }, 'server failed to start');
  process.exit(1);
}

/**
 * A setting the operator got wrong stops the process with one fatal line saying what is wrong and
 * how to fix it, not a stack trace of where the code noticed.
 */
function readSettings(): ReturnType<typeof parseSettings> {
  try {
    return parseSettings();
  } catch (error) {
    createLogger('info').fatal(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
