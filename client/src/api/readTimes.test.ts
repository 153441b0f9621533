import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './queryClient';
import { noteReadAt, refreshReadsBefore } from './readTimes';

/** A body as the HTTP wrapper hands it over: remembered with the server's X-Read-At. */
const answeredAt = (readAt: number) => {
  const body = { success: true, readAt };
  noteReadAt(body, String(readAt));
  return body;
};

describe('refreshReadsBefore (a socket that joined after reads began)', () => {
  const stops: (() => void)[] = [];
  afterEach(() => stops.splice(0).forEach((stop) => stop()));

  /** A shown query whose answers were read at the given server times, one per read; counts its reads. */
  function shown(client: QueryClient, name: string, readTimes: number[], delayMs = 0) {
    const reads = { count: 0 };
    const observer = new QueryObserver(client, {
      queryKey: [name],
      queryFn: async () => {
        const at = readTimes[Math.min(reads.count, readTimes.length - 1)]!;
        reads.count++;
        if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return answeredAt(at);
      },
      staleTime: Infinity,
    });
    stops.push(observer.subscribe(() => undefined));
    return reads;
  }

  it('reads again what was read before the last change, and keeps what was read after it', async () => {
    const client = createQueryClient();
    const before = shown(client, 'before', [1_000, 5_000]);
    const after = shown(client, 'after', [3_000]);
    await vi.waitFor(() => expect([before.count, after.count]).toEqual([1, 1]));
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));

    refreshReadsBefore(client, 2_000);
    await vi.waitFor(() => expect(before.count).toBe(2));
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect(after.count).toBe(1);
    expect(client.getQueryData(['before'])).toMatchObject({ readAt: 5_000 });
  });

  it('judges a read still on its way when it lands', async () => {
    const client = createQueryClient();
    const early = shown(client, 'early', [1_000, 5_000], 20);
    const late = shown(client, 'late', [3_000], 20);
    expect(client.isFetching()).toBe(2);

    refreshReadsBefore(client, 2_000);
    await vi.waitFor(() => expect(early.count).toBe(2));
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect([early.count, late.count]).toEqual([2, 1]);
  });
});
