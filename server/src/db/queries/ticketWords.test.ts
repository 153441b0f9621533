import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PRIORITIES, searchWordsOf, TICKET_STATUSES } from '@helpdesk/protocol';
import { useOpenedDatabase } from '../../../test/openedDatabase.js';
import { rowDrift } from '../../../test/rowDrift.js';
import { executedRows } from '../rows.js';
import { tickets, users } from '../schema/index.js';
import { findAccountsNamedBy } from './ticketFilters.js';
import {
  findTicketRows,
  findTicketPageOfRows,
  sortsOffMatches,
  ticketConditions,
  ticketStatsCapped,
  type ConditionFilters,
  type TicketScope,
} from './tickets.js';
import { amongMatches, candidatesOf, cappedWordTotal, PREFIX_WORDS, rarestWordOf, wordMatchesOf, wordStatsCapped } from './ticketWords.js';

/**
 * ticket_words is a second copy of what a search reads (migration 0029): after every kind of write it
 * must hold exactly each ticket's words with its status, priority and assignee, and a search counted
 * off it must give the cards a count of the tickets gives, under every filter.
 */
describe('the words a search reads its matches off', () => {
  it('counts each typed word once, none that starts another, longest first, four at most', () => {
    expect(candidatesOf(['a', 'a', 'a'])).toEqual(['a']);
    expect(candidatesOf(['print', 'printer', 'jam', 'ja'])).toEqual(['printer', 'jam']);
    expect(candidatesOf('a b c d e f g h i j k l m n o p'.split(' '))).toHaveLength(4);
    expect(candidatesOf(['scanner', 'x', 'offline', 'floor', 'two', 'e42'])).toEqual(['scanner', 'offline', 'floor', 'two']);
  });
});

describe('a search counted off its words', () => {
  const opened = useOpenedDatabase();
  /** Some searches pass it, most do not. */
  const CAP = 25;

  const WORDS = ['printer', 'printers', 'printing', 'offline', 'vpn', 'ÉCRAN', 'srv-app-439', 'mail'];

  const setUp = async (who: string) => {
    const { db } = opened.database;
    const [owner, agentA, agentB] = await db
      .insert(users)
      .values([
        { name: 'Quinn Words', email: `quinn.${who}@example.test`, passwordHash: 'x', role: 'user' },
        { name: 'Agent A', email: `agent.a.${who}@example.test`, passwordHash: 'x', role: 'agent' },
        { name: 'Agent B', email: `agent.b.${who}@example.test`, passwordHash: 'x', role: 'agent' },
      ])
      .returning({ id: users.id });
    await db.insert(tickets).values(
      Array.from({ length: 60 }, (_, i) => ({
        title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]} no. ${i}`,
        description: i % 4 === 0 ? 'Printer printers both' : `Plain text ${i % 7}`,
        userId: owner!.id,
        assignedAgentId: [null, agentA!.id, agentB!.id][i % 3]!,
        status: TICKET_STATUSES[i % TICKET_STATUSES.length]!,
        priority: PRIORITIES[i % PRIORITIES.length]!,
        // Created in another order than their ids, some at the same moment.
        createdAt: new Date(Date.UTC(2026, 0, 1) + ((i * 37) % 50) * 60_000),
      })),
    );
    return { owner: owner!.id, agentA: agentA!.id, agentB: agentB!.id };
  };

  /** Rows ticket_words should hold, less those it holds, both ways: empty when it is exact. */
  const drift = () =>
    rowDrift(
      opened.database.db,
      `select w, status::text, priority::text, coalesce(assigned_agent_id, 0), id, created_at from tickets, unnest(tsvector_to_array(search_words)) w`,
      `select word, status::text, priority::text, agent_id, ticket_id, created_at from ticket_words`,
    );

  const searches = [
    'print',
    'printer',
    'PRINTERS',
    'off',
    'écran',
    'ÉCRAN',
    'srv',
    '439',
    'printer offline',
    'zzz',
    'p',
    'quinn',
    'QUINN.kept',
    'Quinn Words',
  ];

  /** Every search under every filter shape, both ways; the requester words only where staff read them. */
  const expectSameCounts = async (agents: number[]) => {
    const { db } = opened.database;
    const scopes: TicketScope[] = [{}, { assignedAgentId: null }, ...agents.map((a) => ({ assignedAgentId: a }))];
    for (const search of searches)
      for (const scope of scopes)
        for (const status of [undefined, 'open', 'closed'] as const)
          for (const priority of [undefined, 'urgent'] as const)
            for (const searchRequester of [false, true]) {
              const searchRequesters = searchRequester ? await findAccountsNamedBy(db, search) : undefined;
              const conditions: ConditionFilters = { search, status, priority, searchRequesters };
              const found = await wordMatchesOf(db, scope, conditions);
              const label = JSON.stringify({ search, scope, status, priority, searchRequester });
              // Several words are left to the word index.
              expect(found === undefined, label).toBe(searchWordsOf(search).length !== 1);
              if (!found) continue;
              const matches = found;
              const expected = await ticketStatsCapped(db, ticketConditions(scope, conditions), CAP);
              const counted = await wordStatsCapped(db, matches, CAP);
              // Past the cap the cards count some first matches, which neither way chooses alike.
              if (expected.capped) expect([counted.capped, counted.stats.total], label).toEqual([true, CAP]);
              else expect(counted, label).toEqual(expected);
              const [total] = await executedRows(db, sql`select ${cappedWordTotal(matches, CAP)} as n`);
              expect(Math.min(total!.n as number, CAP), label).toBe(expected.stats.total);
            }
  };

  it('holds every ticket’s words through inserts, edits, reassignment, deletion and a removed agent', async () => {
    const { db } = opened.database;
    const { agentA, agentB } = await setUp('kept');
    expect(await drift()).toBe(0);
    await expectSameCounts([agentA, agentB]);

    // Words, status, priority and assignee changed, each alone and together, in one statement and in several.
    await db.execute(sql`update tickets set title = 'Offline mail ' || id where id % 5 = 0`);
    await db.execute(sql`update tickets set status = 'pending' where id % 7 = 1`);
    await db.execute(sql`update tickets set priority = 'urgent', assigned_agent_id = ${agentB} where id % 4 = 2`);
    await db.execute(sql`update tickets set description = 'Printing VPN', status = 'open' where id % 6 = 3`);
    // An update that changes nothing a search reads leaves its rows alone.
    await db.execute(sql`update tickets set last_activity_at = now()`);
    // The app never moves a creation time; a hand-made fix still reaches the rows it sorts by.
    await db.execute(sql`update tickets set created_at = created_at - interval '1 day' where id % 8 = 5`);
    await db.execute(sql`delete from tickets where id % 9 = 4`);
    // The ON DELETE SET NULL of a removed agent is an update too.
    await db.execute(sql`delete from users where id = ${agentA}`);
    expect(await drift()).toBe(0);
    await expectSameCounts([agentA, agentB]);

    // A word no ticket held before enters the vocabulary, so its prefix finds it.
    await db.execute(sql`update tickets set title = 'Tachograph fault' where id = (select min(id) from tickets)`);
    expect(await drift()).toBe(0);
    const matches = (await wordMatchesOf(db, {}, { search: 'tacho' }))!;
    expect((await wordStatsCapped(db, matches, CAP)).stats.total).toBe(1);
  });

  it('reads a page off the matches’ ids alone that the walk of the order’s index reads', async () => {
    const { db } = opened.database;
    const { agentB } = await setUp('paged');
    let sorted = 0;
    for (const [scope, conditions] of [
      [{}, { search: 'print' }],
      [{ assignedAgentId: agentB }, { search: 'off', status: 'closed' }],
      [{ assignedAgentId: null }, { search: 'quinn', searchRequesters: await findAccountsNamedBy(db, 'quinn') }],
    ] as [TicketScope, ConditionFilters][])
      for (const sort of [
        { field: 'createdAt', descending: true },
        { field: 'createdAt', descending: false },
        { field: 'id', descending: true },
        { field: 'priority', descending: false },
        { field: 'status', descending: true },
        { field: 'lastActivityAt', descending: true },
      ] as const)
        for (const pageNumber of [1, 2, 3]) {
          const where = ticketConditions(scope, conditions);
          const page = { page: pageNumber, limit: 4, sort };
          const ids = (rows: { ticket: { id: number } }[]) => rows.map((row) => row.ticket.id);
          const walked = ids(await findTicketRows(db, where, page));
          const matches = (await wordMatchesOf(db, scope, conditions))!;
          // The matches are the search's exactly: its words are not checked on the tickets again.
          const unsearched = ticketConditions(scope, { ...conditions, search: undefined, searchRequesters: undefined });
          const label = JSON.stringify([conditions, sort]);
          expect(ids(await findTicketRows(db, unsearched, page, undefined, { few: amongMatches(matches) })), label).toEqual(walked);
          // Sorted off the matches' own rows, in the orders they carry.
          if (sortsOffMatches(sort)) {
            expect(ids((await findTicketPageOfRows(db, matches, page)).rows), label).toEqual(walked);
            sorted += 1;
          }
          if (pageNumber === 1) expect(walked.length).toBeGreaterThan(0);
        }
    expect(sorted).toBe(3 * 5 * 3);
  });

  it('reads a search of several words off the tickets holding its rarest word, and the requesters it names, with the same answers', async () => {
    const { db } = opened.database;
    const { owner, agentA } = await setUp('several');
    const narrowed = [];
    let found = 0;
    // "Quinn Words" names the requester of every ticket, whose text says neither word.
    for (const search of ['printer offline', 'srv app 439', 'mail vpn no', 'offline zzz', 'print off', 'Quinn Words'])
      for (const scope of [{}, { ownerId: owner }, { assignedAgentId: agentA }] as TicketScope[])
        for (const status of [undefined, 'closed'] as const) {
          const conditions: ConditionFilters = { search, status, searchRequesters: await findAccountsNamedBy(db, search) };
          const searchAmong = await rarestWordOf(db, search);
          if (searchAmong === undefined) continue;
          narrowed.push(search);
          const label = JSON.stringify({ search, scope, status, searchAmong });
          const plain = ticketConditions(scope, conditions);
          const among = ticketConditions(scope, { ...conditions, searchAmong });
          const expected = await ticketStatsCapped(db, plain, 1_000);
          expect(await ticketStatsCapped(db, among, 1_000), label).toEqual(expected);
          found += expected.stats.total;
          const page = { page: 1, limit: 5, sort: { field: 'priority', descending: true } } as const;
          const ids = (rows: { ticket: { id: number } }[]) => rows.map((row) => row.ticket.id);
          expect(ids(await findTicketRows(db, among, page)), label).toEqual(ids(await findTicketRows(db, plain, page)));
        }
    expect(narrowed.length).toBeGreaterThan(10);
    expect(found).toBeGreaterThan(10);
    expect(narrowed).toContain('Quinn Words');
    expect(await rarestWordOf(db, 'Quinn Words')).toEqual([]);
    // A word no ticket holds: nothing can match.
    expect(await rarestWordOf(db, 'offline zzz')).toEqual([]);
    expect(await rarestWordOf(db, 'printer')).toBeUndefined();
  });

  it('is emptied with the tickets', async () => {
    const { db } = opened.database;
    await setUp('truncated');
    await db.execute(sql`truncate tickets cascade`);
    const [left] = await executedRows(db, sql`select count(*)::int as n from ticket_words`);
    expect(left!.n).toBe(0);
  });

  it('answers nothing for what its rows do not hold, or a prefix naming too many words', async () => {
    const { db } = opened.database;
    const none = (scope: TicketScope, conditions: ConditionFilters) => wordMatchesOf(db, scope, conditions);
    expect(await none({ ownerId: 1 }, { search: 'printer' })).toBeUndefined();
    expect(await none({}, { search: 'printer', tag: 'vip' })).toBeUndefined();
    expect(await none({}, { search: 'printer', requester: 'quinn' })).toBeUndefined();
    expect(await none({}, { search: 'printer', sla: 'breached' })).toBeUndefined();
    expect(await none({}, { search: 'printer', unreadFor: 1 })).toBeUndefined();
    expect(await none({}, { search: '--' })).toBeUndefined();
    expect(await none({}, {})).toBeUndefined();
    await db.execute(
      sql.raw(
        `insert into ticket_vocabulary (word) select 'zq' || g from generate_series(1, ${PREFIX_WORDS + 1}) g on conflict do nothing`,
      ),
    );
    expect(await none({}, { search: 'zq' })).toBeUndefined();
    expect(await none({}, { search: 'zq1' })).toBeDefined();
  });
});
