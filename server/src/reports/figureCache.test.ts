import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/database.js';
import { openDatabase, type Database } from '../db/client.js';
import { moveFigureGeneration, writeFigures } from '../db/queries/reportFigures.js';
import { createFigureCache, heldBytes, landsInSettled, SETTLED_AFTER_MS } from './figureCache.js';
import { DURATION_KIND } from './reconcile.js';
import { figureRows } from './figureRows.js';
import { pointStarts, segmentsOf } from './timeRange.js';

const keys = { assigneeId: 7, priority: 'high', category: 'billing' };
const group = { assigneeId: 7, priority: 'high', category: 'billing' };

/** Figures of settled hours kept in memory: no database read for them, dropped when a past hour changes. */
describe('createFigureCache', () => {
  let testDb: TestDatabase;
  let database: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await openDatabase(testDb.target);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const addResponse = (at: Date, bucket: number) =>
    database.db.transaction((tx) =>
      writeFigures(
        tx,
        [],
        figureRows({ totals: [], durations: [{ keys, at, kind: DURATION_KIND.firstResponse, bucket, delta: 1 }], backlog: [] }),
      ),
    );
  /** The first responses of each day from `from` to `to` in Berlin, as bucket → count. */
  const daily = async (cache: ReturnType<typeof createFigureCache>, from: string, to: string, now: number) => {
    const starts = pointStarts(from, to, 'day');
    const { histogram } = await cache.read(database.db, group, segmentsOf(to, starts, 'Europe/Berlin'), now);
    // Each point's buckets that counted anything, as bucket → count.
    return starts.map((_, point) =>
      Object.fromEntries(Array.from(histogram(point, DURATION_KIND.firstResponse), (n, bucket) => [bucket, n]).filter(([, n]) => n !== 0)),
    );
  };
  const addCreated = (at: Date, delta = 1) =>
    database.db.transaction((tx) =>
      writeFigures(tx, [], figureRows({ totals: [{ keys, at, counter: 'created', delta }], durations: [], backlog: [] })),
    );
  /** Tickets created each day from `from` to `to` in Berlin, and the keys with figures. */
  const created = async (cache: ReturnType<typeof createFigureCache>, from: string, to: string, now = Date.now()) => {
    const starts = pointStarts(from, to, 'day');
    const { totals, keys: withFigures } = await cache.read(database.db, group, segmentsOf(to, starts, 'Europe/Berlin'), now);
    return { days: starts.map((_, point) => totals(point).created), keys: withFigures };
  };

  it('sums the hours of a zone’s days from whole UTC days of hour rows', async () => {
    // Berlin's 2025-06-02 runs from 22:00 UTC on June 1 to 22:00 UTC on June 2.
    await addResponse(new Date('2025-06-01T21:30:00Z'), 10);
    await addResponse(new Date('2025-06-01T22:30:00Z'), 11);
    await addResponse(new Date('2025-06-02T21:30:00Z'), 12);
    const cache = createFigureCache();
    expect(await daily(cache, '2025-06-01', '2025-06-02', Date.now())).toEqual([{ 10: 1 }, { 11: 1, 12: 1 }]);
  });

  it('answers settled stretches from memory and reads unsettled ones each time', async () => {
    const cache = createFigureCache();
    const now = Date.UTC(2025, 6, 10, 12);
    await addResponse(new Date('2025-07-08T10:00:00Z'), 20);
    await addResponse(new Date(now - SETTLED_AFTER_MS / 2), 21);
    expect(await daily(cache, '2025-07-08', '2025-07-10', now)).toEqual([{ 20: 1 }, {}, { 21: 1 }]);
    // Written straight to settled hours, as no change can: the kept answer stands, the recent day moves.
    await addResponse(new Date('2025-07-08T11:00:00Z'), 20);
    await addResponse(new Date(now - SETTLED_AFTER_MS / 2), 21);
    expect(await daily(cache, '2025-07-08', '2025-07-10', now)).toEqual([{ 20: 1 }, {}, { 21: 2 }]);
    // A fresh cache reads what the table holds.
    expect(await daily(createFigureCache(), '2025-07-08', '2025-07-10', now)).toEqual([{ 20: 2 }, {}, { 21: 2 }]);
  });

  it('drops what it kept when report_rebuild() ran since', async () => {
    const cache = createFigureCache();
    await addResponse(new Date('2025-08-04T10:00:00Z'), 30);
    expect(await daily(cache, '2025-08-04', '2025-08-04', Date.now())).toEqual([{ 30: 1 }]);
    // The rebuild counts from tickets, of which this database has none: the hand-written figures go.
    await database.db.execute(sql`select report_rebuild()`);
    expect(await daily(cache, '2025-08-04', '2025-08-04', Date.now())).toEqual([{}]);
  });

  it('keeps at most what it is given room for', async () => {
    // Room for one stretch of one row: each day read pushes the one before out.
    const cache = createFigureCache(heldBytes(new Map([['', new Int32Array(2)]])));
    await addResponse(new Date('2025-09-01T10:00:00Z'), 40);
    await addResponse(new Date('2025-09-02T10:00:00Z'), 41);
    expect(await daily(cache, '2025-09-01', '2025-09-02', Date.now())).toEqual([{ 40: 1 }, { 41: 1 }]);
    await addResponse(new Date('2025-09-01T11:00:00Z'), 40);
    // September 2 pushed September 1 out, so it is read again.
    expect(await daily(cache, '2025-09-01', '2025-09-01', Date.now())).toEqual([{ 40: 2 }]);
  });

  it('sums the totals with the histograms, a zone’s day from its own hours, keys only where counted', async () => {
    await addCreated(new Date('2025-10-01T21:30:00Z'));
    await addCreated(new Date('2025-10-01T22:30:00Z'), 2);
    const cache = createFigureCache();
    // Berlin's October 2 begins at 22:00 UTC on October 1.
    expect(await created(cache, '2025-10-01', '2025-10-02')).toEqual({ days: [1, 2], keys: [''] });
    expect(await created(cache, '2025-10-03', '2025-10-03')).toEqual({ days: [0], keys: [] });
  });

  it('splits a UTC day of hour rows at a zone’s midnight, totals and histograms in any hour', async () => {
    // Written late hours first; each hour's totals pack below its histograms.
    await addResponse(new Date('2025-12-01T23:30:00Z'), 50);
    await addCreated(new Date('2025-12-01T23:10:00Z'));
    await addResponse(new Date('2025-12-01T22:40:00Z'), 52);
    await addCreated(new Date('2025-12-01T05:00:00Z'), 3);
    await addResponse(new Date('2025-12-01T05:20:00Z'), 51);
    const cache = createFigureCache();
    // Berlin's December 2 begins at 23:00 UTC on December 1 (winter time).
    expect(await created(cache, '2025-12-01', '2025-12-02')).toEqual({ days: [3, 1], keys: [''] });
    expect(await daily(cache, '2025-12-01', '2025-12-02', Date.now())).toEqual([{ 51: 1, 52: 1 }, { 50: 1 }]);
  });

  it('takes away the hours a zone’s month leaves of the UTC one, and the keys counted only there', async () => {
    // Berlin's June begins at 22:00 UTC on May 31: that hour is May's in UTC, June's in Berlin.
    await addCreated(new Date('2025-05-31T22:30:00Z'));
    const cache = createFigureCache();
    const may = await cache.read(database.db, group, segmentsOf('2025-05-31', ['2025-05-01'], 'Europe/Berlin'), Date.now());
    expect(may.totals(0).created).toBe(0);
    expect(may.keys).toEqual([]);
    const june = await cache.read(database.db, group, segmentsOf('2025-06-30', ['2025-06-01'], 'Europe/Berlin'), Date.now());
    expect([june.totals(0).created, june.keys]).toEqual([1, ['']]);
  });

  it('reads a kept total again once a change moved a count of a past hour', async () => {
    const cache = createFigureCache();
    await addCreated(new Date('2025-11-03T10:00:00Z'));
    expect((await created(cache, '2025-11-03', '2025-11-03')).days).toEqual([1]);
    // Written behind the cache's back, as no change can: the kept day stands.
    await addCreated(new Date('2025-11-03T10:00:00Z'));
    expect((await created(cache, '2025-11-03', '2025-11-03')).days).toEqual([1]);
    // A change that counts at a past hour moves the generation in its transaction: the day is read again.
    await database.db.transaction((tx) => moveFigureGeneration(tx));
    expect((await created(cache, '2025-11-03', '2025-11-03')).days).toEqual([2]);
  });

  it('moves the generation only for a figure counted where a process may keep it', () => {
    const now = Date.UTC(2025, 11, 1, 12);
    expect(landsInSettled(new Date(now), now)).toBe(false);
    expect(landsInSettled(new Date(now - 60_000), now)).toBe(false);
    expect(landsInSettled(new Date(now - SETTLED_AFTER_MS / 2), now)).toBe(true);
    expect(landsInSettled(new Date('2025-11-03T10:00:00Z'), now)).toBe(true);
  });
});
