import { describe, expect, it } from 'vitest';
import { heldBackLog } from './heldBack.js';

describe('the held-back log', () => {
  it('gives back what it held, oldest first, once', () => {
    const log = heldBackLog<string>(3);
    log.add('created');
    log.add('updated');
    expect(log.drain()).toEqual({ items: ['created', 'updated'], overflowed: false });
    expect(log.drain()).toEqual({ items: [], overflowed: false });
  });

  it('past its bound keeps nothing but that it overflowed, until drained', () => {
    const log = heldBackLog<number>(2);
    for (const n of [1, 2, 3, 4]) log.add(n);
    expect(log.drain()).toEqual({ items: [], overflowed: true });
    log.add(5);
    expect(log.drain().items).toEqual([5]);
  });
});
