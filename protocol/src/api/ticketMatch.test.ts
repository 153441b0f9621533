import { describe, expect, it } from 'vitest';
import type { Ticket } from '../entities.js';
import type { TicketStatus } from '../enums.js';
import { LIMITS } from '../limits.js';
import { countMayMove, countMove, foldCase, searchWordsOf, ticketMatchesFilters, ticketStatesOf } from './ticketMatch.js';
import type { TicketFilters } from './ticketQuery.js';

const ticket = (fields: Partial<Ticket> = {}): Ticket => ({
  id: 1,
  title: 'Printer jams',
  description: 'On floor 3',
  priority: 'high',
  category: 'technical',
  status: 'open',
  resolutionNotes: null,
  user: { id: 9, name: 'Olive' },
  assignedAgent: { id: 5, name: 'Agent' },
  updatedBy: null,
  commentCount: 0,
  answered: false,
  version: 1,
  createdAt: '',
  updatedAt: '',
  lastActivityAt: '',
  tags: ['vip'],
  ...fields,
});

describe('ticketMatchesFilters', () => {
  it.each<[TicketFilters, boolean]>([
    [{}, true],
    [{ status: 'open' }, true],
    [{ status: 'closed' }, false],
    [{ priority: 'high' }, true],
    [{ priority: 'low' }, false],
    [{ assignee: 5 }, true],
    [{ assignee: 6 }, false],
    [{ assignee: 'me' }, true],
    [{ mine: true }, true],
    [{ assignee: 'none' }, false],
    [{ search: 'PRINTER' }, true],
    [{ search: 'print' }, true], // a word's start
    [{ search: 'rinter' }, false], // not its middle
    [{ search: 'on jams' }, true], // every word, in any order, from title or description
    [{ search: 'jamson' }, false],
    [{ search: 'floor 4' }, false],
    [{ status: 'open', priority: 'high', assignee: 'me', search: 'floor' }, true],
    [{ status: 'open', priority: 'high', assignee: 'me', search: 'cellar' }, false],
    [{ tag: 'vip' }, true],
    [{ tag: 'other' }, false],
    [{ category: 'technical' }, true],
    [{ category: 'billing' }, false],
    [{ search: 'category:technical printer' }, true],
    [{ search: 'category:billing printer' }, false],
    [{ search: 'status:open printer' }, true],
    [{ search: 'status:closed printer' }, false],
    [{ search: 'status:closed printer', status: 'open' }, true], // the explicit parameter wins
    [{ search: 'tag:vip priority:high' }, true],
    [{ search: 'tag:nope printer' }, false],
    [{ search: 'colour:red' }, false], // an unknown key is text
    [{ search: 'requester:ann printer' }, true], // not judged here: the server counts such views
  ])('%j → %s for agent 5', (filters, expected) => {
    expect(ticketMatchesFilters(ticket(), filters, 5)).toBe(expected);
  });

  it("matches no tag on a ticket without tags (an owner's copy)", () => {
    const { tags: _tags, ...owners } = ticket();
    expect(ticketMatchesFilters(owners, { tag: 'vip' }, 5)).toBe(false);
  });

  it('reads the in-progress spelling as in_progress', () => {
    const filters = { status: 'in-progress' as TicketStatus };
    expect(ticketMatchesFilters(ticket({ status: 'in_progress' }), filters, null)).toBe(true);
    expect(ticketMatchesFilters(ticket({ status: 'open' }), filters, null)).toBe(false);
  });

  it('matches me against the viewer, and nobody when there is no viewer', () => {
    expect(ticketMatchesFilters(ticket(), { assignee: 'me' }, 6)).toBe(false);
    expect(ticketMatchesFilters(ticket(), { assignee: 'me' }, null)).toBe(false);
    expect(ticketMatchesFilters(ticket({ assignedAgent: null }), { assignee: 'none' }, 5)).toBe(true);
    expect(ticketMatchesFilters(ticket({ assignedAgent: null }), { assignee: 'me' }, 5)).toBe(false);
  });

  it('splits on punctuation, symbols and spaces of every kind; a search without a word matches nothing', () => {
    expect(ticketMatchesFilters(ticket({ title: '50% off' }), { search: '50%' }, null)).toBe(true);
    expect(ticketMatchesFilters(ticket({ title: '500 off' }), { search: '50%' }, null)).toBe(true);
    expect(ticketMatchesFilters(ticket({ title: 'a_b' }), { search: 'b' }, null)).toBe(true);
    expect(ticketMatchesFilters(ticket({ title: 'axb' }), { search: 'a_b' }, null)).toBe(false);
    expect(ticketMatchesFilters(ticket({ title: 'Wi\u2011Fi\u2014down' }), { search: 'fi down' }, null)).toBe(true);
    expect(ticketMatchesFilters(ticket({ title: '\u201cQuoted\u201d' }), { search: 'quoted' }, null)).toBe(true);
    expect(ticketMatchesFilters(ticket(), { search: '%' }, null)).toBe(false);
    expect(ticketMatchesFilters(ticket(), { search: ' - ' }, null)).toBe(false);
    for (const search of ['"', '""', '"" ""', 'status:open ""'])
      expect(ticketMatchesFilters(ticket(), { search }, null), search).toBe(false);
  });

  it('reads words as the index holds them: letters of any script, a long word in 100-character pieces', () => {
    expect(searchWordsOf('Ärger: 3×4, naïve—ΟΔΟΣ')).toEqual(['ärger', '3', '4', 'naïve', 'οδοσ']);
    const long = 'x'.repeat(LIMITS.search.wordChunk * 2 + 5);
    expect(searchWordsOf(`a ${long}`)).toEqual(['a', 'x'.repeat(100), 'x'.repeat(100), 'xxxxx']);
    // Pieces count characters, not UTF-16 units.
    expect(searchWordsOf('😀'.repeat(101))).toEqual(['😀'.repeat(100), '😀']);
    expect(ticketMatchesFilters(ticket({ description: long }), { search: 'x'.repeat(150) }, null)).toBe(true);
  });

  it('folds case one character at a time, as PostgreSQL lower() does', () => {
    expect(foldCase('İSTANBUL')).toBe('istanbul');
    expect(foldCase('ΟΔΟΣ')).toBe('οδοσ');
    expect(ticketMatchesFilters(ticket({ title: 'ÄRGER' }), { search: 'ärger' }, null)).toBe(true);
  });
});

describe('countMove and ticketStatesOf', () => {
  const open = ticket();
  const resolved = ticket({ status: 'resolved', version: 2 });
  it.each([
    [undefined, open, 1],
    [open, undefined, -1],
    [open, resolved, -1],
    [resolved, open, 1],
    [open, open, 0],
    [resolved, resolved, 0],
  ] as const)('open tickets: %j → %j moves by %d', (before, after, move) => {
    expect(countMove({ status: 'open' }, null, before, after)).toBe(move);
  });

  it('may move a searched view when the words could match the requester instead of the text', () => {
    // "olive" is in no title or description: by the text alone nothing moves, but the requester is Olive.
    const words = { search: 'olive status:open' };
    expect(countMove(words, null, undefined, open)).toBe(0);
    expect(countMayMove(words, null, undefined, open)).toBe(true);
    expect(countMayMove(words, null, open, resolved)).toBe(true);
    expect(countMove(words, null, open, resolved, true)).toBe(-1);
    // A change the other filters do not see moves nothing either way.
    expect(countMayMove(words, null, open, ticket({ version: 2, priority: 'low' }))).toBe(false);
    expect(countMayMove({ search: 'printer' }, null, open, resolved)).toBe(false);
    // Words that do not start the requester's name cannot name them; an email might be theirs.
    expect(countMayMove({ search: 'bob status:open' }, null, undefined, open)).toBe(false);
    expect(countMayMove({ search: 'OL' }, null, undefined, open)).toBe(true);
    expect(countMayMove({ search: 'olive@example.com' }, null, undefined, open)).toBe(true);
    expect(countMayMove({ status: 'open' }, null, open, resolved)).toBe(true);
    expect(ticketMatchesFilters(open, words, null, true)).toBe(true);
    expect(ticketMatchesFilters(open, words, null)).toBe(false);
  });

  it('rebuilds the ticket before an update from its previous fields', () => {
    expect(ticketStatesOf({ action: 'updated', ticket: resolved, previous: { status: 'open' } })).toEqual({
      before: { ...resolved, status: 'open' },
      after: resolved,
    });
    expect(ticketStatesOf({ action: 'created', ticket: open })).toEqual({ after: open });
    expect(ticketStatesOf({ action: 'deleted', previous: open })).toEqual({ before: open });
  });
});

describe('the sla filter', () => {
  const sla = (state: NonNullable<Ticket['sla']>['state']): Ticket['sla'] => ({
    policyId: 1,
    firstResponseDueAt: null,
    resolutionDueAt: null,
    firstRespondedAt: null,
    state,
  });
  it('matches the state staff see, and no ticket without a service level', () => {
    expect(ticketMatchesFilters(ticket({ sla: sla('warning') }), { sla: 'warning' }, 5)).toBe(true);
    expect(ticketMatchesFilters(ticket({ sla: sla('ok') }), { sla: 'warning' }, 5)).toBe(false);
    expect(ticketMatchesFilters(ticket({ sla: null }), { sla: 'ok' }, 5)).toBe(false);
    // An owner's copy carries no `sla` at all.
    expect(ticketMatchesFilters(ticket(), { sla: 'ok' }, 5)).toBe(false);
  });
  it('moves a view count when the scanner marks a warning', () => {
    expect(countMove({ sla: 'warning' }, 5, ticket({ sla: sla('ok') }), ticket({ sla: sla('warning') }))).toBe(1);
  });
});
