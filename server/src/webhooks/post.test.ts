import { describe, expect, it } from 'vitest';
import { attemptDelivery } from './post.js';

describe('attemptDelivery', () => {
  it('counts a name lookup that never answers against the attempt timeout', async () => {
    const started = performance.now();
    const outcome = await attemptDelivery(new URL('http://hooks.stalled.test/in'), {}, '{}', {
      rules: { allowHttp: true, allowPrivate: true },
      timeoutMs: 100,
      // The resolver of a host whose DNS server never answers: the one part of an attempt outside the socket's own timeout.
      resolve: () => new Promise(() => undefined),
    });
    expect(outcome).toMatchObject({ kind: 'failed', statusCode: null, error: 'No answer within 0.1 s' });
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
