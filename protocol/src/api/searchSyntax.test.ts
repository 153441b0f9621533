import { describe, expect, it } from 'vitest';
import { effectiveFilters, parseSearch, searchWithout } from './searchSyntax.js';

describe('parseSearch', () => {
  it('reads every key and keeps free words as text', () => {
    const parsed = parseSearch(
      'status:open printer priority:URGENT assignee:me requester:ann@example.com tag:VIP category:billing is:unread jammed',
    );
    expect(parsed.filters).toEqual({
      status: 'open',
      priority: 'urgent',
      assignee: 'me',
      requester: 'ann@example.com',
      tag: 'vip',
      category: 'billing',
      unread: true,
    });
    expect(parsed.text).toBe('printer jammed');
  });

  it('takes quoted values and phrases', () => {
    const parsed = parseSearch('requester:"Ann Lee" "paper tray"');
    expect(parsed.filters.requester).toBe('ann lee');
    expect(parsed.text).toBe('paper tray');
  });

  it('reads the status aliases and assignee none or an email', () => {
    expect(parseSearch('status:in-progress').filters.status).toBe('in_progress');
    expect(parseSearch('assignee:none').filters.assignee).toBe('none');
    expect(parseSearch('assignee:Bo@Example.com').filters.assignee).toBe('bo@example.com');
  });

  it.each([
    ['an unknown key', 'colour:red', 'unknown-key'],
    ['an unknown status', 'status:sleeping', 'unknown-value'],
    ['an assignee that is neither me, none nor an email', 'assignee:bob', 'unknown-value'],
    ['a tag with a space-free but invalid character', 'tag:a+b', 'unknown-value'],
    ['a tag over 40 characters', `tag:${'x'.repeat(41)}`, 'unknown-value'],
    ['is: other than unread', 'is:starred', 'unknown-value'],
  ])('searches %s as text and says why', (_name, input, reason) => {
    const parsed = parseSearch(input);
    expect(parsed.filters).toEqual({});
    expect(parsed.text).toBe(input);
    expect(parsed.terms).toEqual([{ kind: 'text', value: input, raw: input, reason }]);
  });

  it('keeps the first of a repeated key and searches the second as text', () => {
    const parsed = parseSearch('status:open status:closed');
    expect(parsed.filters).toEqual({ status: 'open' });
    expect(parsed.terms[1]).toMatchObject({ kind: 'text', reason: 'repeated' });
    expect(parsed.text).toBe('status:closed');
  });

  it('treats a key without a value and a URL-like word as text', () => {
    expect(parseSearch('status:').text).toBe('status:');
    expect(parseSearch('http://example.com').terms[0]).toMatchObject({ kind: 'text', reason: 'unknown-key' });
  });

  it('is empty for blank input', () => {
    expect(parseSearch('   ')).toEqual({ terms: [], filters: {}, text: '' });
  });
});

describe('searchWithout', () => {
  it('removes one chip and keeps the rest as typed', () => {
    const parsed = parseSearch('status:open  printer tag:vip');
    expect(searchWithout(parsed, 0)).toBe('printer tag:vip');
    expect(parseSearch(searchWithout(parsed, 2)).filters).toEqual({ status: 'open' });
  });
});

describe('effectiveFilters', () => {
  it('merges typed filters with explicit parameters, the explicit ones winning, and keeps only free words as text', () => {
    expect(
      effectiveFilters({ search: 'status:open priority:high tag:VIP requester:"Ann Lee" is:unread printer jam', status: 'closed' }),
    ).toEqual({
      status: 'closed',
      priority: 'high',
      tag: 'vip',
      requester: 'ann lee',
      unread: true,
      text: 'printer jam',
    });
  });

  it('resolves assignee me/none itself and leaves an email to the server; an explicit assignee wins', () => {
    expect(effectiveFilters({ search: 'assignee:none' })).toEqual({ assignee: 'none' });
    expect(effectiveFilters({ search: 'assignee:Agent@Example.com' })).toEqual({ assigneeEmail: 'agent@example.com' });
    expect(effectiveFilters({ search: 'assignee:agent@example.com', assignee: 7 })).toEqual({ assignee: 7 });
    expect(effectiveFilters({ mine: true })).toEqual({ assignee: 'me' });
  });

  it('reads a category as a filter (an explicit one wins) and an unknown key as typed text', () => {
    expect(effectiveFilters({ search: 'category:billing refund' })).toEqual({ category: 'billing', text: 'refund' });
    expect(effectiveFilters({ search: 'category:billing', category: 'account' })).toEqual({ category: 'account' });
    expect(effectiveFilters({ search: 'colour:red' })).toEqual({ text: 'colour:red' });
    expect(effectiveFilters({})).toEqual({});
  });
});
