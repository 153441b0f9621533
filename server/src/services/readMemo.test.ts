import { describe, expect, it } from 'vitest';
import { localVersions, noteTablesRead, type TableVersions } from '../db/tableVersions.js';
import { createReadMemo } from './readMemo.js';

/** Stands in for the driver: a read names its tables as its statements would (db/writeCounter.ts). */
const reading =
  <T>(tables: string[], value: T, counter?: { reads: number }) =>
  () => {
    noteTablesRead(tables);
    if (counter) counter.reads += 1;
    return Promise.resolve(value);
  };

describe('read memo', () => {
  const setUp = (size = 10, versions: TableVersions = localVersions()) => ({
    versions,
    memo: createReadMemo<number>({ memoVersions: versions }, size),
    counter: { reads: 0 },
  });

  it('answers again from memory until a write to a table it read ends, then reads afresh', async () => {
    const { versions, memo, counter } = setUp();
    expect(await memo('k', reading(['tickets', 'users'], 1, counter))).toBe(1);
    expect(await memo('k', reading(['tickets', 'users'], 2, counter))).toBe(1);
    expect(counter.reads).toBe(1);
    await versions.bump(new Set(['users']));
    expect(await memo('k', reading(['tickets', 'users'], 3, counter))).toBe(3);
    expect(counter.reads).toBe(2);
  });

  it('keeps an answer through writes to tables it did not read', async () => {
    const { versions, memo, counter } = setUp();
    await memo('k', reading(['tickets'], 1, counter));
    await versions.bump(new Set(['articles', 'ticket_reads']));
    expect(await memo('k', reading(['tickets'], 2, counter))).toBe(1);
    expect(counter.reads).toBe(1);
  });

  it('drops every answer on a write whose tables are unknown', async () => {
    const { versions, memo, counter } = setUp();
    await memo('k', reading(['tickets'], 1, counter));
    await versions.bump(new Set(['*']));
    expect(await memo('k', reading(['tickets'], 2, counter))).toBe(2);
  });

  it('never keeps an answer read while any write ended, whatever its tables', async () => {
    const { versions, memo } = setUp();
    let finish: (n: number) => void = () => undefined;
    const slow = memo(
      'k',
      () =>
        new Promise<number>((resolve) => {
          noteTablesRead(['tickets']);
          finish = resolve;
        }),
    );
    await Promise.resolve();
    // While the read runs its tables are not known yet: a caller now must not share it after any write.
    await versions.bump(new Set(['articles']));
    const during = memo('k', reading(['tickets'], 2));
    await versions.bump(new Set(['tickets'])); // a write to what it read lands while the read is under way
    finish(1);
    expect(await slow).toBe(1);
    expect(await during).toBe(2);
    expect(await memo('k', reading(['tickets'], 3))).toBe(3);
  });

  it('passes a kept inner answer’s tables on to an outer read that used it', async () => {
    const versions = localVersions();
    const inner = createReadMemo<number>({ memoVersions: versions }, 10);
    const outer = createReadMemo<number>({ memoVersions: versions }, 10);
    const counter = { reads: 0 };
    const outerRead = async () => {
      counter.reads += 1;
      noteTablesRead(['users']);
      return (await inner('i', reading(['ticket_counts'], 7))) + 1;
    };
    await inner('i', reading(['ticket_counts'], 7)); // kept before the outer read asks for it
    expect(await outer('o', outerRead)).toBe(8);
    expect(await outer('o', outerRead)).toBe(8);
    expect(counter.reads).toBe(1);
    await versions.bump(new Set(['ticket_counts']));
    await outer('o', outerRead);
    expect(counter.reads).toBe(2);
  });

  it('shares one read among callers asking at once, and forgets a failed read', async () => {
    const { memo, counter } = setUp();
    const [a, b] = await Promise.all([memo('k', reading(['tickets'], 1, counter)), memo('k', reading(['tickets'], 1, counter))]);
    expect([a, b, counter.reads]).toEqual([1, 1, 1]);
    await expect(memo('bad', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await memo('bad', () => Promise.resolve(5))).toBe(5);
  });

  it('keeps at most `size` keys, dropping the least recently used', async () => {
    const { memo, counter } = setUp(2);
    await memo('a', reading(['t'], 1, counter));
    await memo('b', reading(['t'], 2, counter));
    await memo('a', reading(['t'], 1, counter)); // a is now the most recent
    await memo('c', reading(['t'], 3, counter)); // drops b
    expect(counter.reads).toBe(3);
    await memo('a', reading(['t'], 1, counter));
    expect(counter.reads).toBe(3);
    await memo('b', reading(['t'], 2, counter));
    expect(counter.reads).toBe(4);
  });

  it('reads every time while the versions cannot be known (the shared store is away)', async () => {
    let away = false;
    const local = localVersions();
    const { memo, counter } = setUp(10, { bump: (t) => local.bump(t), current: () => Promise.resolve(away ? undefined : local.current()) });
    await memo('k', reading(['tickets'], 1, counter));
    away = true;
    await memo('k', reading(['tickets'], 1, counter));
    await memo('k', reading(['tickets'], 1, counter));
    expect(counter.reads).toBe(3);
    away = false;
    await memo('k', reading(['tickets'], 1, counter));
    expect(counter.reads).toBe(3);
  });
});
