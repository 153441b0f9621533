import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trailingThrottle } from './throttle';

describe('trailingThrottle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('folds a burst of calls into one run at the end of the wait', () => {
    const run = vi.fn();
    const throttled = trailingThrottle(run, 10_000);
    throttled.call();
    vi.advanceTimersByTime(4_000);
    throttled.call();
    throttled.call();
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5_999);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs at most once per wait while calls keep coming, and never loses the last', () => {
    const run = vi.fn();
    const throttled = trailingThrottle(run, 10_000);
    for (let second = 0; second < 35; second++) {
      throttled.call();
      vi.advanceTimersByTime(1_000);
    }
    expect(run).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(10_000);
    expect(run).toHaveBeenCalledTimes(4);
    vi.advanceTimersByTime(60_000);
    expect(run).toHaveBeenCalledTimes(4);
  });

  it('drops a pending run when cancelled', () => {
    const run = vi.fn();
    const throttled = trailingThrottle(run, 10_000);
    throttled.call();
    throttled.cancel();
    vi.advanceTimersByTime(20_000);
    expect(run).not.toHaveBeenCalled();
  });
});
