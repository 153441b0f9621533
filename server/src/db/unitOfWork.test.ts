import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../test/openedDatabase.js';
import { uniqueEmail } from '../../test/factories.js';
import type { DomainEvents, EventBus, EventName } from '../events/bus.js';
import type { Database } from './client.js';
import { users } from './schema/index.js';
import { createAnnounceWrite, createUnitOfWork } from './unitOfWork.js';

type Published = { name: EventName; payload: DomainEvents[EventName]; visible: Promise<boolean> };

describe('unit of work', () => {
  const opened = useOpenedDatabase();

  /** A bus that records each event and whether the user it names can be read, outside the transaction, at that moment. */
  const recordingBus = () => {
    const published: Published[] = [];
    const bus: Pick<EventBus, 'publish'> = {
      publish(name, payload) {
        const userId = (payload as { userId?: number }).userId;
        const visible = opened.database.db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.id, userId ?? -1))
          .then((rows) => rows.length === 1);
        published.push({ name, payload, visible });
      },
    };
    return { bus, published };
  };

  const insertUser = (tx: Database['db']) =>
    tx
      .insert(users)
      .values({ name: 'Unit Of Work', email: uniqueEmail('uow'), passwordHash: 'x' })
      .returning({ id: users.id })
      .then((rows) => rows[0]!.id);

  it('publishes what was emitted once the transaction has committed, in order, and not before', async () => {
    const { bus, published } = recordingBus();
    const withTransaction = createUnitOfWork(opened.database.db, bus);
    let seenDuringWork = -1;
    const id = await withTransaction(async (tx, emit) => {
      const userId = await insertUser(tx);
      emit('user.revoked', { userId });
      emit('article.helpful', { articleId: 1, helpfulCount: 2 });
      seenDuringWork = published.length;
      return userId;
    });
    expect(seenDuringWork).toBe(0);
    expect(published.map((p) => p.name)).toEqual(['user.revoked', 'article.helpful']);
    expect(published[0]!.payload).toEqual({ userId: id });
    // Read from outside the transaction at publish time: the write was already there.
    expect(await published[0]!.visible).toBe(true);
  });

  it('never publishes what was emitted in a transaction that rolled back', async () => {
    const { bus, published } = recordingBus();
    const withTransaction = createUnitOfWork(opened.database.db, bus);
    let userId = -1;
    await expect(
      withTransaction(async (tx, emit) => {
        userId = await insertUser(tx);
        emit('user.revoked', { userId });
        throw new Error('refused after the event was emitted');
      }),
    ).rejects.toThrow('refused after the event was emitted');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(published).toEqual([]);
    expect(await opened.database.db.select().from(users).where(eq(users.id, userId))).toEqual([]);
  });

  it('announces a write outside a transaction once it is in, and nothing when it fails', async () => {
    const { bus, published } = recordingBus();
    const announceWrite = createAnnounceWrite(opened.database.db, bus);
    let seenDuringWork = -1;
    const id = await announceWrite(async (db, emit) => {
      const userId = await insertUser(db);
      emit('user.revoked', { userId });
      seenDuringWork = published.length;
      return userId;
    });
    expect(seenDuringWork).toBe(0);
    expect(published.map((p) => p.payload)).toEqual([{ userId: id }]);
    expect(await published[0]!.visible).toBe(true);

    await expect(
      announceWrite((_db, emit) => {
        emit('user.revoked', { userId: id });
        return Promise.reject(new Error('the statement failed'));
      }),
    ).rejects.toThrow('the statement failed');
    expect(published).toHaveLength(1);
  });

  it('refuses an emit after the unit of work has ended, rather than losing it silently', async () => {
    const { bus, published } = recordingBus();
    const withTransaction = createUnitOfWork(opened.database.db, bus);
    let late: (() => void) | undefined;
    await withTransaction((_tx, emit) => {
      late = () => {
        emit('user.revoked', { userId: 1 });
      };
      return Promise.resolve();
    });
    expect(late).toThrow(/after its unit of work ended/);
    expect(published).toEqual([]);
  });

  it('bumps the tables a transaction wrote when it ends, committed or rolled back', async () => {
    const withTransaction = createUnitOfWork(opened.database.db, recordingBus().bus);
    const usersVersion = async () => (await opened.database.versions().current())!.of('users');
    let before = await usersVersion();
    await withTransaction((tx) => insertUser(tx));
    expect(await usersVersion()).toBeGreaterThan(before);

    before = await usersVersion();
    await expect(
      withTransaction(async (tx) => {
        await insertUser(tx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await usersVersion()).toBeGreaterThan(before);
  });
});
