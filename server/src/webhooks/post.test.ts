import { describe, expect, it, vi } from 'vitest';
import { attemptDelivery } from './post.js';

// A resolver that never answers: the one part of an attempt outside the socket's own timeout.
vi.mock('node:dns/promises', () => ({ lookup: () => new Promise(() => undefined) }));

describe('attemptDelivery', () => {
  it('counts a name lookup that never answers against the attempt timeout', async () => {
    const started = performance.now();
    const outcome = await attemptDelivery(new URL('http://hooks.stalled.test/in'), {}, '{}', {
      rules: { allowHttp: true, allowPrivate: true },
      timeoutMs: 100,
    });
    expect(outcome).toMatchObject({ kind: 'failed', statusCode: null, error: 'No answer within 0.1 s' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
