import { afterEach, describe, expect, it } from 'vitest';
import { lastQueueOrder, rememberQueueOrder, stepInQueue, stepsOffPage } from './queueOrder';

describe('queue order for j/k', () => {
  afterEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('is kept for the tab with its query and steps from the open ticket', () => {
    rememberQueueOrder([12, 7, 30], 'status=open&page=2');
    const order = lastQueueOrder();
    expect(order).toEqual({ ids: [12, 7, 30], query: 'status=open&page=2' });
    expect(stepInQueue(order.ids, 7, 1)).toBe(30);
    expect(stepInQueue(order.ids, 7, -1)).toBe(12);
    expect(stepInQueue(order.ids, 30, 1)).toBeUndefined();
    expect(stepInQueue(order.ids, 99, 1)).toBeUndefined();
    expect(stepsOffPage(order.ids, 30, 1)).toBe(true);
    expect(stepsOffPage(order.ids, 12, -1)).toBe(true);
    expect(stepsOffPage(order.ids, 7, 1)).toBe(false);
    expect(stepsOffPage(order.ids, 99, 1)).toBe(false);
  });

  it("falls back to this browser's last order in a tab that has none (a deep link), and reads what older builds kept", () => {
    rememberQueueOrder([3, 2, 1], 'tag=vip');
    sessionStorage.clear();
    expect(lastQueueOrder()).toEqual({ ids: [3, 2, 1], query: 'tag=vip' });
    sessionStorage.setItem('queue-order', '[5,4]');
    expect(lastQueueOrder()).toEqual({ ids: [5, 4] });
    sessionStorage.setItem('queue-order', 'not json');
    localStorage.clear();
    expect(lastQueueOrder()).toEqual({ ids: [] });
  });
});
