import { describe, expect, it } from 'vitest';
import { pageTitle } from './pageTitle';

describe('tab titles', () => {
  it.each([
    ['/login', 'Login · HelpDesk System'],
    ['/ticket/12', 'Ticket #12 · HelpDesk System'],
    ['/tickets/7', 'Ticket #7 · HelpDesk System'],
    ['/agent/ticket/3/update', 'Update Ticket #3 · HelpDesk System'],
    ['/agent-dashboard', 'Agent Dashboard · HelpDesk System'],
    ['/knowledge/4', 'Article #4 · HelpDesk System'],
    ['/knowledge/new', 'New Article · HelpDesk System'],
    ['/agent/canned-responses', 'Canned Responses · HelpDesk System'],
    ['/reports', 'Reports · HelpDesk System'],
    ['/nowhere', 'Page Not Found · HelpDesk System'],
    ['/ticket/abc', 'Page Not Found · HelpDesk System'],
    ['/knowledge/0', 'Page Not Found · HelpDesk System'],
  ])('names %s', (path, title) => {
    expect(pageTitle(path)).toBe(title);
  });

  it('counts live changes not yet seen', () => {
    expect(pageTitle('/agent-dashboard', 3)).toBe('(3) Agent Dashboard · HelpDesk System');
    expect(pageTitle('/agent-dashboard', 0)).toBe('Agent Dashboard · HelpDesk System');
  });
});
