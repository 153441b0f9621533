import { LIMITS } from '@helpdesk/protocol';
import type { Db } from '../../db/client.js';
import { activeTicketsAfter, loadPolicies, writeSlaColumns, type LoadedPolicy } from '../../db/queries/slaTickets.js';
import { shrinkingBatch, warnOnShrink } from '../../db/shrinkingBatch.js';
import type { UnitOfWork } from '../../db/unitOfWork.js';
import { failureLevel, type Logger } from '../../lib/logger.js';
import { nextSlaColumns, presentSla, slaColumnsOf } from '../../sla/ticketSla.js';
import { choosePolicy } from './choosePolicy.js';

export interface SlaReapply {
  /** Asks for a pass over the open tickets; one asked for while a pass runs starts once it ends. */
  request(): void;
  /** Resolves once no pass runs or waits (tests, shutdown). */
  idle(): Promise<void>;
}

/**
 * After an edit of the SLA settings, every ticket still being worked gets the policy it now falls
 * under and deadlines from it, in the background: batches of LIMITS.sla.reapplyBatch in id order
 * (fewer once one runs past the statement timeout: shrinkingBatch), one short transaction each, so
 * requests are never held up behind it (on PGlite, which runs one query at a time, a rest as long
 * as each batch between them). Staff hear each ticket whose `sla` changed (sla-changed). Two passes
 * at once (two admins on two processes) agree: each computes from the settings as committed.
 */
export function createSlaReapply(
  db: Db,
  withTransaction: UnitOfWork,
  logger: Logger,
  { singleConnection = false }: { singleConnection?: boolean } = {},
): SlaReapply {
  let running: Promise<void> | undefined;
  let again = false;

  /** The next `size` tickets still being worked after `afterId`, re-applied in one transaction: the last id read. */
  const applyBatch = (policies: LoadedPolicy[], afterId: number, size: number) =>
    withTransaction(async (tx, emit) => {
      const rows = await activeTicketsAfter(tx, afterId, size);
      const now = new Date();
      const changed = rows.flatMap(({ ticket, email }) => {
        const policy = choosePolicy(policies, email) ?? null;
        const columns = nextSlaColumns(slaColumnsOf(ticket), ticket, policy, {}, now);
        const before = JSON.stringify(presentSla(ticket));
        const after = presentSla(columns);
        return before === JSON.stringify(after) && ticket.slaNextMarkAt?.getTime() === columns.slaNextMarkAt?.getTime()
          ? []
          : [{ ticket, columns, after }];
      });
      await writeSlaColumns(
        tx,
        changed.map(({ ticket, columns }) => ({ id: ticket.id, columns })),
      );
      for (const { ticket, after } of changed) {
        emit('sla.changed', { ticketId: ticket.id, ownerId: ticket.userId, sla: after, version: ticket.version });
      }
      return rows.at(-1)?.ticket.id;
    });

  async function pass(): Promise<void> {
    const policies = await loadPolicies(db);
    const batches = shrinkingBatch(LIMITS.sla.reapplyBatch, {
      onShrink: warnOnShrink(logger, 'SLA policy re-apply'),
    });
    let afterId = 0;
    for (;;) {
      const started = performance.now();
      const last = await batches.run((size) => applyBatch(policies, afterId, size));
      if (last === undefined) return;
      afterId = last;
      // Let the requests waiting on this process go first. On one connection (PGlite) a request's
      // queries each queue behind the next batch, so there the pass rests as long as its batch took:
      // half the database's time is left to requests (bench:sla measures the list meanwhile).
      const rest = singleConnection ? performance.now() - started : 0;
      await new Promise((resolve) => (rest > 0 ? setTimeout(resolve, rest) : setImmediate(resolve)));
    }
  }

  // `again` is set by request() while a pass awaits; read through a call so the loop sees it.
  const askedAgain = () => again;
  const run = async () => {
    do {
      again = false;
      await pass().catch((error: unknown) => logger[failureLevel(error)]({ err: error }, 'SLA policies could not be re-applied'));
    } while (askedAgain());
  };

  return {
    request() {
      if (running) {
        again = true;
        return;
      }
      running = run().finally(() => (running = undefined));
    },
    idle: async () => {
      while (running) await running;
    },
  };
}
