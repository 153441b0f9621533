import { describe, expect, it } from 'vitest';
import { isPrivateHost, isPublicAddress, resolvePinned } from './publicAddress.js';

describe('isPublicAddress', () => {
  it.each([
    ['93.184.215.14', true],
    ['8.8.8.8', true],
    ['2606:4700::1111', true],
    ['127.0.0.1', false],
    ['127.255.0.9', false],
    ['10.20.30.40', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['100.127.255.254', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::', false],
    ['::1', false],
    ['fd12:3456::1', false],
    ['fc00::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:93.184.215.14', true],
    ['64:ff9b::a00:1', false],
    ['not an address', false],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('isPrivateHost and resolvePinned', () => {
  it('refuses localhost and private literals as written, and names only once resolved', async () => {
    for (const url of ['https://localhost/x', 'https://LOCALHOST./x', 'https://a.localhost/x', 'https://[::1]/x', 'https://10.0.0.1/x']) {
      expect(isPrivateHost(new URL(url))).toBe(true);
      await expect(resolvePinned(new URL(url), false)).resolves.toBeUndefined();
    }
    expect(isPrivateHost(new URL('https://hooks.example.com/x'))).toBe(false);
    // With private addresses allowed, a literal is used as it is, a name as it resolves.
    await expect(resolvePinned(new URL('https://[::1]/x'), true)).resolves.toEqual({ address: '::1', family: 6 });
    await expect(resolvePinned(new URL('https://93.184.215.14/x'), false)).resolves.toEqual({ address: '93.184.215.14', family: 4 });
    await expect(resolvePinned(new URL('http://localhost:1/x'), true)).resolves.toMatchObject({ address: expect.any(String) });
  });
});
