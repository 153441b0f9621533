import { describe, expect, it } from 'vitest';
import { heldBackLog } from './heldBack.js';

describe('the held-back log', () => {
  it('gives back what it held, oldest first with when, once', () => {
    let now = 1_000;
    const log = heldBackLog<string>(3, () => now);
    log.add('created');
    now = 1_500;
    log.add('updated');
    expect(log.drain()).toEqual({
      items: [
        { at: 1_000, item: 'created' },
        { at: 1_500, item: 'updated' },
      ],
      overflowed: false,
    });
    expect(log.drain()).toEqual({ items: [], overflowed: false });
  });

  it('past its bound keeps nothing but that it overflowed, until drained', () => {
    const log = heldBackLog<number>(2);
    for (const n of [1, 2, 3, 4]) log.add(n);
    expect(log.drain()).toEqual({ items: [], overflowed: true });
    log.add(5);
    expect(log.drain().items.map((i) => i.item)).toEqual([5]);
  });
});
