import { describe, expect, it } from 'vitest';
import { MIN_BATCH, shrinkingBatch, warnOnShrink } from './shrinkingBatch.js';

/** What node-postgres and PGlite raise when the statement timeout cancels a statement, wrapped as drizzle does. */
const cancelled = () =>
  new Error('Failed query', { cause: Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }) });

describe('shrinkingBatch', () => {
  it('asks a cancelled batch again at half the size, and keeps that size for the next batches', async () => {
    const shrunk: number[] = [];
    const batches = shrinkingBatch(500, { onShrink: (size) => shrunk.push(size) });
    const asked: number[] = [];
    // Runs past the timeout above 100 rows.
    const work = (size: number) => {
      asked.push(size);
      return size > 100 ? Promise.reject(cancelled()) : Promise.resolve(size);
    };
    expect(await batches.run(work)).toBe(62);
    expect(asked).toEqual([500, 250, 125, 62]);
    expect(shrunk).toEqual([250, 125, 62]);
    expect(batches.size).toBe(62);
    expect(await batches.run(work)).toBe(62);
    expect(asked).toEqual([500, 250, 125, 62, 62]);
  });

  it('gives up at the smallest size, and at once on any other error', async () => {
    const asked: number[] = [];
    const always = shrinkingBatch(100);
    await expect(
      always.run((size) => {
        asked.push(size);
        return Promise.reject(cancelled());
      }),
    ).rejects.toThrow('Failed query');
    expect(asked).toEqual([100, 50, MIN_BATCH]);

    let calls = 0;
    const broken = shrinkingBatch(100);
    await expect(
      broken.run(() => {
        calls += 1;
        return Promise.reject(Object.assign(new Error('duplicate key'), { code: '23505' }));
      }),
    ).rejects.toThrow('duplicate key');
    expect(calls).toBe(1);
    expect(broken.size).toBe(100);
  });

  it('logs each shrink as a warning naming the work and the size it goes on with', async () => {
    const warned: unknown[][] = [];
    const batches = shrinkingBatch(100, { onShrink: warnOnShrink({ warn: (...args: unknown[]) => void warned.push(args) }, 'SLA scan') });
    await batches.run((size) => (size > 50 ? Promise.reject(cancelled()) : Promise.resolve(size)));
    expect(warned).toEqual([[{ work: 'SLA scan', size: 50 }, 'a batch ran past the statement timeout: going on in smaller ones']]);
  });
});
