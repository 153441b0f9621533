import type { Logger } from '../lib/logger.js';
import { isStatementCancelled } from './errors.js';

/** The smallest batch work shrinks to before it gives up (see shrinkingBatch). */
export const MIN_BATCH = 25;

export interface ShrinkingBatch {
  /** The size the next batch is asked with. */
  readonly size: number;
  /** Runs one batch, asking again at half the size each time the statement timeout cancels it. */
  run<T>(work: (size: number) => Promise<T>): Promise<T>;
}

/**
 * The batch size of work over many tickets in batches: the SLA scanner, a re-applied policy, a
 * removed agent's tickets released. Each batch (a transaction, or a savepoint within one) is sized
 * to stay well under the server's statement timeout; on a slower or busier machine one can run past
 * it all the same (a scanner batch of 500 did at a million tickets on a 2-core machine three times
 * slower than the one it was sized on), and then every try failed on that batch. A cancelled batch
 * left nothing behind, so it is asked again at half the size, which holds for the rest of the work;
 * below `min` the error stands, and the work fails as before.
 */
export function shrinkingBatch(
  start: number,
  { min = MIN_BATCH, onShrink }: { min?: number; onShrink?: (size: number) => void } = {},
): ShrinkingBatch {
  let size = start;
  return {
    get size() {
      return size;
    },
    async run<T>(work: (size: number) => Promise<T>): Promise<T> {
      for (;;) {
        try {
          return await work(size);
        } catch (error) {
          if (!isStatementCancelled(error) || size <= min) throw error;
          size = Math.max(min, Math.floor(size / 2));
          onShrink?.(size);
        }
      }
    },
  };
}

/** What a shrink logs (an `onShrink`): which work went on in smaller batches, and their size now. */
export const warnOnShrink =
  (logger: Pick<Logger, 'warn'>, work: string) =>
  (size: number): void =>
    logger.warn({ work, size }, 'a batch ran past the statement timeout: going on in smaller ones');
