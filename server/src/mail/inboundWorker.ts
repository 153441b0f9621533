import { failureLevel, type Logger } from '../lib/logger.js';
import type { InboundService } from '../services/inbound/index.js';

/** How often an idle worker looks for due messages another process queued or a back-off released. */
const IDLE_POLL_MS = 1000;
/** After the database failed to answer, how long before trying again. */
const ERROR_PAUSE_MS = 2000;

export interface InboundWorker {
  /** A message was queued: file it now rather than at the next poll. */
  nudge(): void;
  /** Stops after the message being filed, if any. */
  stop(): Promise<void>;
}

/**
 * Files queued mail one message at a time per loop (docs/api.md#email-intake). Several loops and
 * several processes claim with FOR UPDATE SKIP LOCKED, so none files a message another holds.
 */
export function startInboundWorker(inbound: InboundService, logger: Logger, loops = 1): InboundWorker {
  let running = true;
  const sleepers = new Set<() => void>();
  let pending = false;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pending || !running) {
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });
  const wakeAll = () => {
    for (const wake of [...sleepers]) wake();
  };

  const loop = async () => {
    while (running) {
      pending = false;
      try {
        if (await inbound.fileNext()) continue;
        await sleep(IDLE_POLL_MS);
      } catch (error) {
        logger[failureLevel(error)]({ err: error }, 'inbound mail worker: the queue could not be read');
        await sleep(ERROR_PAUSE_MS);
      }
    }
  };
  const done = Promise.all(Array.from({ length: loops }, () => loop()));
  const nudge = () => {
    pending = true;
    wakeAll();
  };
  const unsubscribe = inbound.onQueued(nudge);

  return {
    nudge,
    async stop() {
      running = false;
      unsubscribe();
      wakeAll();
      await done;
    },
  };
}
