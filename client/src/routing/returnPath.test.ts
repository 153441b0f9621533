import { describe, expect, it } from 'vitest';
import { returnPathOf, safeReturnPath, withReturnPath } from './returnPath';

describe('the return path kept through sign-in', () => {
  it.each(['/ticket/1', '/agent-dashboard?status=open', '/knowledge/3#helpful', '/tickets?search=a%20b'])('keeps the page %s', (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([
    'https://evil.test/ticket/1',
    '//evil.test/ticket/1',
    '/\\evil.test',
    '\\\\evil.test',
    'javascript:alert(1)',
    '/%0d%0a//evil.test',
    '/\t/evil.test',
    'ticket/1',
    '',
    null,
    undefined,
  ])('refuses %s, which could lead off the site', (path) => {
    const kept = safeReturnPath(path);
    if (kept !== null) expect(new URL(kept, 'http://here.test').origin).toBe('http://here.test');
    else expect(kept).toBeNull();
  });

  it('does not return to the sign-in pages themselves', () => {
    expect(safeReturnPath('/login')).toBeNull();
    expect(safeReturnPath('/signup?next=/ticket/1')).toBeNull();
    expect(safeReturnPath('/reset-password')).toBeNull();
  });

  it('round-trips through the login URL', () => {
    const login = withReturnPath('/login', '/ticket/12?tab=history');
    expect(login).toBe('/login?next=%2Fticket%2F12%3Ftab%3Dhistory');
    expect(returnPathOf(login.slice(login.indexOf('?')))).toBe('/ticket/12?tab=history');
    expect(withReturnPath('/signup', '//evil.test')).toBe('/signup');
    expect(withReturnPath('/login', null)).toBe('/login');
  });
});
