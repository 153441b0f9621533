import { describe, expect, it } from 'vitest';
import { lastQueueOrder, rememberQueueOrder, stepInQueue } from './queueOrder';

describe('queue order for j/k', () => {
  it('is kept for the tab and steps from the open ticket', () => {
    rememberQueueOrder([12, 7, 30]);
    const order = lastQueueOrder();
    expect(order).toEqual([12, 7, 30]);
    expect(stepInQueue(order, 7, 1)).toBe(30);
    expect(stepInQueue(order, 7, -1)).toBe(12);
    expect(stepInQueue(order, 30, 1)).toBeUndefined();
    expect(stepInQueue(order, 99, 1)).toBeUndefined();
    sessionStorage.setItem('queue-order', 'not json');
    expect(lastQueueOrder()).toEqual([]);
  });
});
