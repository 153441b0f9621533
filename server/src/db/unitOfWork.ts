import type { DomainEvents, EventBus, EventName } from '../events/bus.js';
import type { Db } from './client.js';

export type Emit = <K extends EventName>(name: K, payload: DomainEvents[K]) => void;

/**
 * Runs `work` in one transaction and publishes what it emitted once that transaction has committed,
 * in order; a rollback drops it. Services are given this instead of the bus, so no event can announce
 * a change that did not happen, or reach a reader before the change is there to be read.
 */
export type UnitOfWork = <T>(work: (tx: Db, emit: Emit) => Promise<T>) => Promise<T>;

export function createUnitOfWork(db: Db, bus: Pick<EventBus, 'publish'>): UnitOfWork {
  return async <T>(work: (tx: Db, emit: Emit) => Promise<T>): Promise<T> => {
    const held: Array<() => void> = [];
    let open = true;
    const emit: Emit = (name, payload) => {
      // Emitting after the end would be lost without a trace (the commit has been announced already).
      if (!open) throw new Error(`"${name}" emitted after its unit of work ended`);
      held.push(() => bus.publish(name, payload));
    };
    try {
      const result = await db.transaction((tx) => work(tx, emit));
      open = false;
      for (const publish of held) publish();
      return result;
    } finally {
      open = false;
    }
  };
}
