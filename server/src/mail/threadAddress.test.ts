import { describe, expect, it } from 'vitest';
import { parseThreadAddress, threadAddress, threadKeys } from './threadAddress.js';

const keys = threadKeys('Support@Example.COM', 'a thread secret of some length', 'x'.repeat(32));

describe('threadAddress', () => {
  it('is the support address plus the ticket id and a 10-character signature', () => {
    expect(threadAddress(42, keys)).toMatch(/^support\+t42-[0-9a-f]{10}@example\.com$/);
  });

  it('parses back to the ticket id, whatever the case and with angle brackets', () => {
    const address = threadAddress(42, keys);
    expect(parseThreadAddress(address, keys)).toBe(42);
    expect(parseThreadAddress(`<${address.toUpperCase()}>`, keys)).toBe(42);
  });

  it('rejects a forged or altered signature, another ticket id, or another mailbox', () => {
    const address = threadAddress(42, keys);
    const sig = /-([0-9a-f]{10})@/.exec(address)![1]!;
    const flipped = sig.slice(0, 9) + (sig[9] === '0' ? '1' : '0');
    expect(parseThreadAddress(address.replace(sig, flipped), keys)).toBeNull();
    expect(parseThreadAddress(address.replace('+t42-', '+t43-'), keys)).toBeNull();
    expect(parseThreadAddress(address.replace('+t42-', '+t042-'), keys)).toBeNull();
    expect(parseThreadAddress(address.replace('support+', 'sales+'), keys)).toBeNull();
    expect(parseThreadAddress(address.replace('@example.com', '@example.org'), keys)).toBeNull();
    expect(parseThreadAddress('support@example.com', keys)).toBeNull();
    expect(parseThreadAddress('support+t0-0000000000@example.com', keys)).toBeNull();
    expect(parseThreadAddress('support+t99999999999-0000000000@example.com', keys)).toBeNull();
  });

  it('does not accept an address signed with another secret', () => {
    const other = threadKeys('support@example.com', 'another thread secret, also long', 'x'.repeat(32));
    expect(parseThreadAddress(threadAddress(42, other), keys)).toBeNull();
  });

  it('derives the secret from the JWT secret when none is set, the same in every process', () => {
    const a = threadKeys('support@example.com', undefined, 'j'.repeat(32));
    const b = threadKeys('support@example.com', undefined, 'j'.repeat(32));
    const c = threadKeys('support@example.com', undefined, 'k'.repeat(32));
    expect(threadAddress(7, a)).toBe(threadAddress(7, b));
    expect(threadAddress(7, a)).not.toBe(threadAddress(7, c));
    expect(a.secret).not.toContain('j');
  });
});
