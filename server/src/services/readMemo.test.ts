import { describe, expect, it } from 'vitest';
import { createReadMemo } from './readMemo.js';

describe('read memo', () => {
  const counting = () => {
    let reads = 0;
    return { read: (value: number) => () => Promise.resolve(((reads += 1), value)), reads: () => reads };
  };

  it('answers again from memory until a write ends, then reads afresh', async () => {
    let writes = 0;
    const memo = createReadMemo<number>({ writesEnded: () => writes, settings: { redisUrl: undefined } }, 10);
    const { read, reads } = counting();
    expect(await memo('k', read(1))).toBe(1);
    expect(await memo('k', read(2))).toBe(1);
    expect(reads()).toBe(1);
    writes += 1;
    expect(await memo('k', read(3))).toBe(3);
    expect(reads()).toBe(2);
  });

  it('never keeps an answer read while a write ended', async () => {
    let writes = 0;
    const memo = createReadMemo<number>({ writesEnded: () => writes, settings: { redisUrl: undefined } }, 10);
    let finish: (n: number) => void = () => undefined;
    const slow = memo('k', () => new Promise<number>((resolve) => (finish = resolve)));
    writes += 1; // a write lands while the read is under way
    finish(1);
    expect(await slow).toBe(1);
    expect(await memo('k', () => Promise.resolve(2))).toBe(2);
  });

  it('shares one read among callers asking at once, and forgets a failed read', async () => {
    const memo = createReadMemo<number>({ writesEnded: () => 0, settings: { redisUrl: undefined } }, 10);
    const { read, reads } = counting();
    const [a, b] = await Promise.all([memo('k', read(1)), memo('k', read(1))]);
    expect([a, b, reads()]).toEqual([1, 1, 1]);
    await expect(memo('bad', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await memo('bad', () => Promise.resolve(5))).toBe(5);
  });

  it('keeps at most `size` keys, dropping the least recently used', async () => {
    const memo = createReadMemo<number>({ writesEnded: () => 0, settings: { redisUrl: undefined } }, 2);
    const { read, reads } = counting();
    await memo('a', read(1));
    await memo('b', read(2));
    await memo('a', read(1)); // a is now the most recent
    await memo('c', read(3)); // drops b
    expect(reads()).toBe(3);
    await memo('a', read(1));
    expect(reads()).toBe(3);
    await memo('b', read(2));
    expect(reads()).toBe(4);
  });

  it('reads every time when turned off (several processes)', async () => {
    const memo = createReadMemo<number>({ writesEnded: () => 0, settings: { redisUrl: 'redis://x' } }, 10);
    const { read, reads } = counting();
    await memo('k', read(1));
    await memo('k', read(1));
    expect(reads()).toBe(2);
  });
});
