import { and, sql, type SQL } from 'drizzle-orm';
import { PRIORITIES, searchWordsOf, TICKET_STATUSES } from '@helpdesk/protocol';
import type { Db } from '../client.js';
import { literalLimit } from '../plannedStatements.js';
import { executedRows, returnedRow } from '../rows.js';
import { tickets } from '../schema/index.js';
import { afterPrefix, asksBeyondCopies, requestedByAccounts } from './ticketFilters.js';
import type { ConditionFilters, TicketScope } from './tickets.js';

/**
 * A search counted off ticket_words (migration 0029, docs/decisions.md#a-search-counted-off-its-words):
 * each ticket's words one row each, keyed (word, status, priority, agent_id, ticket_id), read
 * index-only. A typed word becomes the exact words of ticket_vocabulary it starts, so every filter is
 * equality on the key's next columns: a few contiguous ranges per word, read no further than the
 * filters keep.
 */

/**
 * The distinct matching tickets (ticket_id, status, priority, created_at), as a FROM item; count,
 * group or sort it (tickets.ts#findTicketPageOfRows).
 */
export type WordMatches = SQL;

/**
 * A typed word naming more words of the vocabulary than this (a letter or two) is counted off the
 * tickets instead: each word it names is a few more descents of the index.
 */
export const PREFIX_WORDS = 100;

/**
 * The exact words of the vocabulary a typed word starts, read before the count is planned: as values
 * the planner prices them from their statistics, and one word alone needs no de-duplication, so its
 * count stops at the cap. Undefined when it names more than PREFIX_WORDS.
 */
async function vocabularyOf(db: Db, prefix: string): Promise<string[] | undefined> {
  const rows = await executedRows(db, wordsStarting(prefix));
  return rows.length > PREFIX_WORDS ? undefined : rows.map((row) => row.word as string);
}

/** The vocabulary's words that start `prefix`, in order, one more than PREFIX_WORDS at most (a `word` column). */
function wordsStarting(prefix: string): SQL {
  const end = afterPrefix(prefix);
  const below = end === undefined ? sql`` : sql` and v.word < ${end}`;
  return sql`select v.word from ticket_vocabulary v where v.word >= ${prefix}${below} order by v.word limit ${literalLimit(PREFIX_WORDS + 1)}`;
}

/** Exact words as one text[] value, each a parameter the planner sees. */
const textArray = (words: string[]): SQL =>
  sql`array[${sql.join(
    words.map((word) => sql`${word}`),
    sql`, `,
  )}]::text[]`;

const ALL_STATUSES = sql.raw(`array[${TICKET_STATUSES.map((s) => `'${s}'`).join(', ')}]::ticket_status[]`);
const ALL_PRIORITIES = sql.raw(`array[${PRIORITIES.map((p) => `'${p}'`).join(', ')}]::ticket_priority[]`);

interface WordFilters {
  status?: ConditionFilters['status'];
  priority?: ConditionFilters['priority'];
  /** 0 for the unassigned tickets, as ticket_words keeps them. */
  agentId?: number;
}

/**
 * The filters on one row of ticket_words. Every key column before the last one asked is named, all
 * values when not filtered, so the index reads only the rows asked for (PostgreSQL 15 cannot skip
 * over an unnamed column).
 */
function keyConditions(alias: string, { status, priority, agentId }: WordFilters): SQL[] {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  const conditions: SQL[] = [];
  if (status !== undefined) conditions.push(sql`${column('status')} = ${status}`);
  else if (priority !== undefined || agentId !== undefined) conditions.push(sql`${column('status')} = any(${ALL_STATUSES})`);
  if (priority !== undefined) conditions.push(sql`${column('priority')} = ${priority}`);
  else if (agentId !== undefined) conditions.push(sql`${column('priority')} = any(${ALL_PRIORITIES})`);
  if (agentId !== undefined) conditions.push(sql`${column('agent_id')} = ${agentId}`);
  return conditions;
}

/**
 * The tickets a staff list's search of one word matches, off ticket_words, or undefined when the list
 * asks what those rows do not hold (an owner's scope, a tag, a requester, an SLA state, a category,
 * unread marks),
 * the search has no word or several, or its word names too many (PREFIX_WORDS). Several words are
 * left to the word index, which intersects them inside itself: here each would be a probe per ticket
 * of the rarest, slower than the index's intersection for the few tickets that match them all
 * (docs/decisions.md#a-search-counted-off-its-words). The free words may also name requesters
 * (`searchRequesters`): their tickets are added off tickets' own indexes.
 */
export async function wordMatchesOf(db: Db, scope: TicketScope, filters: ConditionFilters): Promise<WordMatches | undefined> {
  const { search } = filters;
  if (search === undefined || scope.ownerId !== undefined) return undefined;
  if (filters.tag !== undefined || asksBeyondCopies(filters)) return undefined;
  const [typed, ...more] = searchWordsOf(search);
  if (typed === undefined || more.length > 0) return undefined;
  const words = await vocabularyOf(db, typed);
  if (words === undefined) return undefined;
  const agentId = scope.assignedAgentId === undefined ? undefined : (scope.assignedAgentId ?? 0);
  // A ticket has each word once: one word's rows are distinct tickets, read in key order up to the cap.
  const byWords =
    words.length === 0
      ? undefined
      : sql`select ${sql.raw(words.length > 1 ? 'distinct ' : '')}t.ticket_id, t.status, t.priority, t.created_at from ticket_words t where ${and(
          sql`t.word = any(${textArray(words)})`,
          ...keyConditions('t', { status: filters.status, priority: filters.priority, agentId }),
        )}`;
  const named = filters.searchRequesters ?? [];
  const requesters =
    named.length > 0
      ? sql`select ${tickets.id} as ticket_id, ${tickets.status}, ${tickets.priority}, ${tickets.createdAt} from ${tickets} where ${and(
          requestedByAccounts(named),
          filters.status ? sql`${tickets.status} = ${filters.status}` : undefined,
          filters.priority ? sql`${tickets.priority} = ${filters.priority}` : undefined,
          agentId === undefined ? undefined : sql`coalesce(${tickets.assignedAgentId}, 0) = ${agentId}`,
        )}`
      : undefined;
  if (byWords && requesters) return sql`((${byWords}) union (${requesters}))`;
  if (byWords) return sql`(${byWords})`;
  return requesters
    ? sql`(${requesters})`
    : sql`(select 0 as ticket_id, 'open'::ticket_status as status, 'low'::ticket_priority as priority, now() as created_at where false)`;
}

/**
 * At most this many matches a page reads by id and sorts; more are found walking the order's index,
 * where they are dense enough that a page is a few thousand entries away.
 */
export const FEW_WORD_MATCHES = 2_000;

/** The ids of the matches, as a condition on tickets for a page read off them (findTicketPage's `few`). */
export const amongMatches = (matches: WordMatches): SQL => sql`${tickets.id} = any(array(select m.ticket_id from ${matches} as m))`;

/**
 * For a search of several words, the exact words the rarest of them names, when at most
 * FEW_WORD_MATCHES rows of ticket_words hold them: every ticket the search matches holds one of them,
 * so its tickets are read off their ids (amongTicketsWith) and checked against the whole search.
 * The word index built the bitmap of every word first, the common ones whole ("srv-app-450": 45,000
 * tickets say "srv", 86 match, 23 ms). One statement counts each typed word's rows up to that bound.
 * Undefined when every word is common, or names more than PREFIX_WORDS words.
 */
export async function rarestWordOf(db: Db, search: string): Promise<string[] | undefined> {
  const typed = candidatesOf(searchWordsOf(search));
  if (typed.length < 2) return undefined;
  const counted = typed.map((prefix, i) => {
    const words = sql`select array(${wordsStarting(prefix)}) as words`;
    const rows = sql`select count(*)::int from (select 1 from ticket_words t where t.word = any(w.words) limit ${literalLimit(FEW_WORD_MATCHES + 1)}) c`;
    return sql`select ${literalLimit(i)} as i, w.words, (${rows}) as n from (${words}) w`;
  });
  const rows = await executedRows(db, sql.join(counted, sql` union all `));
  const named = rows
    .map((row) => ({ words: row.words as string[], n: Number(row.n) }))
    .filter(({ words, n }) => words.length <= PREFIX_WORDS && n <= FEW_WORD_MATCHES)
    .sort((a, b) => a.n - b.n);
  return named[0]?.words;
}

/** How many typed words rarestWordOf counts at most: a pasted sentence must not cost a count per word. */
const RAREST_CANDIDATES = 4;

/**
 * The typed words worth counting: each once, none that starts another typed word (that one names
 * no more tickets), longest first (likeliest rare), at most RAREST_CANDIDATES. Every ticket the
 * search matches holds each of them, so any of them is a sound one to read matches off.
 */
export function candidatesOf(typed: string[]): string[] {
  const distinct = [...new Set(typed)];
  return distinct
    .filter((word) => !distinct.some((other) => other !== word && other.startsWith(word)))
    .sort((a, b) => b.length - a.length)
    .slice(0, RAREST_CANDIDATES);
}

/** The tickets that hold one of these words (rarestWordOf's), as a condition on tickets; none for no word. */
export const amongTicketsWith = (words: string[]): SQL =>
  words.length === 0
    ? sql`false`
    : sql`${tickets.id} = any(array(select t.ticket_id from ticket_words t where t.word = any(${textArray(words)})))`;

/** How many match, up to cap + 1 (more than cap means "over the cap"), as a scalar subquery for findTicketPage. */
export const cappedWordTotal = (matches: WordMatches, cap: number): SQL<number> =>
  sql<number>`(select count(*)::int from (select 1 from ${matches} as m limit ${literalLimit(cap + 1)}) n)`;

/** The count cards of the matches, up to cap + 1 of them (ticketStatsCapped's, without reading a ticket). */
export async function wordStatsCapped(db: Db, matches: WordMatches, cap: number) {
  const count = (condition?: string) =>
    sql<number>`least(count(*) ${condition ? sql.raw(`filter (where ${condition})`) : sql``}, ${cap})::int`;
  const rows = await db
    .select({
      total: count(),
      open: count(`m.status = 'open'`),
      in_progress: count(`m.status = 'in_progress'`),
      pending: count(`m.status = 'pending'`),
      resolved: count(`m.status = 'resolved'`),
      closed: count(`m.status = 'closed'`),
      urgent: count(`m.priority = 'urgent'`),
      n: sql<number>`count(*)::int`,
    })
    .from(sql`(select * from ${matches} as m limit ${literalLimit(cap + 1)}) m`);
  const { n, ...stats } = returnedRow(rows, 'the capped word stats aggregate');
  return { stats, capped: n > cap };
}
