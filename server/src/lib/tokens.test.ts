import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService } from './tokens.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';

describe('token service', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the same claims for a token checked before, without trusting a tampered copy', async () => {
    const tokens = createTokenService(SECRET, 60);
    const token = await tokens.sign(7, 3);
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ userId: 7, version: 3 });
    expect(await tokens.verify(token)).toEqual(first);
    // A changed first character of the signature: all six of its bits count (the last one's low bits do
    // not, so a tampered ending can decode to the very same signature).
    const signatureAt = token.lastIndexOf('.') + 1;
    const changed = token[signatureAt] === 'A' ? 'B' : 'A';
    const tampered = `${token.slice(0, signatureAt)}${changed}${token.slice(signatureAt + 1)}`;
    expect(await tokens.verify(tampered)).toBeUndefined();
    expect(await createTokenService(`${SECRET}-other`, 60).verify(token)).toBeUndefined();
  });

  it('refuses a remembered token once it has expired', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] });
    const tokens = createTokenService(SECRET, 60);
    const token = await tokens.sign(7, 3);
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(new Date('2026-01-01T00:01:00Z'));
    expect(await tokens.verify(token)).toBeUndefined();
    expect(await tokens.verify(token)).toBeUndefined();
  });
});
