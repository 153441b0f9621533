import { and, desc, eq, gt, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { foldCase } from '@helpdesk/protocol';
import type { ConditionFilters } from './tickets.js';
import type { Db } from '../client.js';
import { executedRows } from '../rows.js';
import { tagCounts, tickets, users } from '../schema/index.js';
import { isStaffRole } from './staff.js';

/** LIKE wildcards escaped, so a name typed with `%` or `_` means those characters. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** At most this many tickets carry a tag the list reads through the GIN index (see taggedWith). */
export const RARE_TAG_TICKETS = 1_000;
/**
 * More than this many tickets carry a tag the GIN index is never asked for. Its bitmap costs ~0.1 µs
 * per ticket tagged whatever else is asked: at a million tickets a tag on 200,000 took 22-34 ms
 * ANDed with 2,000-3,000 pending or assigned tickets, which their own index entries (carrying the
 * tags) check in 1-11 ms.
 */
export const WIDESPREAD_TAG_TICKETS = 100_000;

/** How many tickets carry a tag, as far as choosing its plan goes (taggedWith). */
export type TagSpread = 'rare' | 'common' | 'widespread';

export const tagSpreadOf = (tagged: number): TagSpread =>
  tagged <= RARE_TAG_TICKETS ? 'rare' : tagged > WIDESPREAD_TAG_TICKETS ? 'widespread' : 'common';

/** The spread of a list's tag from its count (ConditionFilters' `tagged`); undefined without one, which taggedWith reads as common. */
export const tagSpreadIn = ({ tagged }: { tagged?: number }): TagSpread | undefined =>
  tagged === undefined ? undefined : tagSpreadOf(tagged);

/**
 * `tag=<tag>`: `@>` on the GIN-indexed array (docs/decisions.md#the-agent-desk). A common tag is
 * found walking the list's order index, a few rows per match, or ANDed with another filter's index.
 * A rare one must never be walked for (that could read the whole index: the planner's estimate for an
 * element missing from its statistics is a guess): counted, it is read as its ids off the GIN index
 * first (an InitPlan the planner cannot turn into that walk); a page of it is read plain, planned
 * apart from its order (findTicketPage's `few`). A widespread one is asked as `= any`, which the
 * planner prices from the same element statistics but no index answers, so the other filters' index
 * entries check it (see WIDESPREAD_TAG_TICKETS).
 */
export const taggedWith = (tag: string, spread: TagSpread = 'common'): SQL => {
  const has = (column: SQL) => sql`${column} @> array[${tag}]::text[]`;
  if (spread === 'widespread') return sql`${tag}::text = any(${tickets.tags})`;
  if (spread === 'common') return has(sql`${tickets.tags}`);
  return sql`${tickets.id} = any(array(select r.id from ${tickets} r where ${has(sql`r.tags`)}))`;
};

/**
 * Whether a list asks what the trigger-kept copies of the tickets (ticket_tags, ticket_words) do not
 * carry: a requester, an SLA state, a category or unread marks. Such a list is read off the tickets.
 */
export const asksBeyondCopies = (filters: ConditionFilters): boolean =>
  filters.requester !== undefined || filters.sla !== undefined || filters.category !== undefined || filters.unreadFor !== undefined;

/** How many tickets carry the tag, from the maintained counts. */
export const countTagged = (db: Db, tag: string): Promise<number> =>
  db
    .select({ n: tagCounts.n })
    .from(tagCounts)
    .where(eq(tagCounts.tag, tag))
    .then((rows) => rows[0]?.n ?? 0);

/**
 * The least text after every text that starts with `prefix`, in code point order (which is UTF-8's
 * byte order, text_pattern_ops' order): the prefix with its last code point stepped up. Undefined
 * when that is the last code point there is.
 */
export function afterPrefix(prefix: string): string | undefined {
  const points = Array.from(prefix);
  const last = points.pop()?.codePointAt(0);
  if (last === undefined || last === 0x10ffff) return undefined;
  // Surrogates are not characters: PostgreSQL's text cannot hold them.
  return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
}

/**
 * The accounts a requester text names: an email (it has an `@`) whole, a name whole or by its start,
 * case ignored. A name's start is a range of the lower(name) text_pattern_ops index rather than `like
 * 'start%'`: a generic plan reads a range given as values off the index, a pattern only when it sees
 * it, so the list stays planned once (`plannable` in services/tickets/reads.ts).
 */
const accountsNamed = (requester: string): SQL => {
  if (requester.includes('@')) return sql`u.email = ${requester.toLowerCase()}`;
  const start = foldCase(requester);
  const end = afterPrefix(start);
  return end === undefined
    ? sql`lower(u.name) like ${`${escapeLike(start)}%`}`
    : sql`lower(u.name) ~>=~ ${start} and lower(u.name) ~<~ ${end}`;
};

/**
 * `requester=<email or name>`: the tickets of the accounts the text names. The few matching accounts
 * come off users' indexes (email; lower(name) text_pattern_ops) into an array, read once (an
 * InitPlan), and their tickets off (user_id, ...). As `in (select ...)`, the planner guessed a whole
 * name at ~190 accounts and walked the list's order joining users per ticket (188 ms at 1M for 12
 * accounts with 500 tickets); an array of unknown length is planned as a few accounts, which is what
 * a requester filter names. Deleted accounts count, their tickets stay.
 */
export const requestedBy = (requester: string): SQL =>
  sql`${tickets.userId} = any(array(select u.id from ${users} u where ${accountsNamed(requester)}))`;

/** At most this many accounts the free words of a search may name (see findAccountsNamedBy). */
export const REQUESTER_WORD_ACCOUNTS = 100;

/**
 * The accounts the free words of a search name as a requester (docs/api.md#ticket-search), as
 * `requester=` reads them, when they name at most REQUESTER_WORD_ACCOUNTS; words that name more (`a`,
 * a common first name) name no one in particular: none. Read before the list's statements, off the
 * same indexes, so those hold the ids as values: with the accounts read inside them (an InitPlan) every
 * search was an OR the planner had to weigh as a bitmap of both indexes, and in the usual case, no
 * account named, it priced a plan around an empty branch (docs/decisions.md#a-search-counted-off-its-words).
 */
export async function findAccountsNamedBy(db: Db, words: string): Promise<number[]> {
  const rows = await executedRows(
    db,
    sql`select u.id from ${users} u where ${accountsNamed(words)} limit ${sql.raw(String(REQUESTER_WORD_ACCOUNTS + 1))}`,
  );
  return rows.length > REQUESTER_WORD_ACCOUNTS ? [] : rows.map((row) => Number(row.id));
}

/** The tickets of these accounts (findAccountsNamedBy's). */
export const requestedByAccounts = (ids: number[]): SQL => inArray(tickets.userId, ids);

/** The active staff member with this email, for `assignee:<email>`. */
export const findStaffIdByEmail = (db: Db, email: string): Promise<number | undefined> =>
  db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), isNull(users.deletedAt), isStaffRole(users.role)))
    .then((rows) => rows[0]?.id);

/** The tags in use, most used first (the maintained counts of migration 0014, never the tickets). */
export const findTagCounts = (db: Db, limit: number): Promise<{ tag: string; count: number }[]> =>
  db
    .select({ tag: tagCounts.tag, count: tagCounts.n })
    .from(tagCounts)
    .where(gt(tagCounts.n, 0))
    .orderBy(desc(tagCounts.n), tagCounts.tag)
    .limit(limit);
