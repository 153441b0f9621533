import type { DomainEvents, EventBus, EventName, HeldEvent } from '../events/bus.js';
import type { Db } from './client.js';

export type Emit = <K extends EventName>(name: K, payload: DomainEvents[K]) => void;

/**
 * Runs `work` in one transaction and publishes what it emitted once that transaction has committed,
 * in order; a rollback drops it. Services are given this instead of the bus, so no event can announce
 * a change that did not happen, or reach a reader before the change is there to be read.
 */
export type UnitOfWork = <T>(work: (tx: Db, emit: Emit) => Promise<T>) => Promise<T>;

/**
 * Runs last inside every unit of work's transaction, with what the work emitted: what must be written
 * with the change, derived from its events (the mail it causes, mail/ticketMail.ts). It may emit too.
 */
export type BeforeCommit = (tx: Db, events: readonly HeldEvent[], emit: Emit) => Promise<void>;

/**
 * What a piece of work emits, held until it has ended and then published in order. An emit after the
 * end throws (`ended` says which end): it would be lost without a trace, the work announced already.
 */
function heldEvents(bus: Pick<EventBus, 'publish'>, ended: string) {
  const held: HeldEvent[] = [];
  let open = true;
  const emit: Emit = (name, payload) => {
    if (!open) throw new Error(`"${name}" emitted after ${ended}`);
    held.push({ name, payload } as HeldEvent);
  };
  return {
    held,
    emit,
    publish(committing: number) {
      open = false;
      for (const { name, payload } of held) bus.publish(name, payload, { committing });
    },
    close() {
      open = false;
    },
  };
}

export function createUnitOfWork(db: Db, bus: Pick<EventBus, 'publish'>, beforeCommit?: BeforeCommit): UnitOfWork {
  return async <T>(work: (tx: Db, emit: Emit) => Promise<T>): Promise<T> => {
    const events = heldEvents(bus, 'its unit of work ended');
    try {
      let committing = 0;
      const result = await db.transaction(async (tx) => {
        const value = await work(tx, events.emit);
        if (beforeCommit && events.held.length > 0) await beforeCommit(tx, [...events.held], events.emit);
        // The commit is asked for once this returns: a read that ended before now cannot hold it.
        committing = Date.now();
        return value;
      });
      events.publish(committing);
      return result;
    } finally {
      events.close();
    }
  };
}

/**
 * Announces a write made outside any transaction, each statement committed when it returned: what
 * `work` emitted is published once it has, in order, with no BEGIN and COMMIT around it (a staff
 * member opening a ticket clears its unread mark this way, on a read path). For writes that need no
 * atomicity (marks of what someone read, an article's one statement); no BeforeCommit hook runs, so
 * only events that cause no mail, delivery or figure belong here. Anything more is a UnitOfWork.
 */
export type AnnounceWrite = <T>(work: (db: Db, emit: Emit) => Promise<T>) => Promise<T>;

export function createAnnounceWrite(db: Db, bus: Pick<EventBus, 'publish'>): AnnounceWrite {
  return async <T>(work: (db: Db, emit: Emit) => Promise<T>): Promise<T> => {
    const events = heldEvents(bus, 'its write was announced');
    // Taken before the statement is sent, so no earlier than its commit is asked for.
    const committing = Date.now();
    try {
      const result = await work(db, events.emit);
      events.publish(committing);
      return result;
    } finally {
      events.close();
    }
  };
}
