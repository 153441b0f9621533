import { and, eq, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { LIMITS, type TicketStats } from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { estimateTicketRows, ticketConditions, ticketStatsCapped, type ConditionFilters, type TicketScope } from '../db/queries/tickets.js';
import { wordMatchesOf, wordStatsCapped } from '../db/queries/ticketWords.js';
import { tickets } from '../db/schema/index.js';
import type { ServiceContext } from './context.js';
import { createReadMemo } from './readMemo.js';

/** Distinct recent searches kept; each entry is a handful of numbers. */
const SEARCH_MEMO_ENTRIES = 500;
/**
 * A search the statistics put at this many times the cap or more is past the cap whatever the
 * estimate's error (a tracked word's share is sampled from 30,000 tickets), so it is not counted.
 */
const CLEARLY_PAST_CAP = 1.5;
const dialect = new PgDialect();

export interface SearchCount {
  stats: TicketStats;
  capped: boolean;
}
export interface SearchTotal {
  total: number;
  capped: boolean;
}

/** The cards of a search far past the cap: total is the cap, each other card the planner's estimate, at most the cap. */
async function estimatedStats(db: Db, where: SQL | undefined, cap: number): Promise<TicketStats> {
  const estimate = async (condition: SQL) => Math.min(cap, Math.round(await estimateTicketRows(db, and(where, condition))));
  // One after another: six plannings take a millisecond, and one request holds one connection.
  return {
    total: cap,
    open: await estimate(eq(tickets.status, 'open')),
    in_progress: await estimate(eq(tickets.status, 'in_progress')),
    pending: await estimate(eq(tickets.status, 'pending')),
    resolved: await estimate(eq(tickets.status, 'resolved')),
    closed: await estimate(eq(tickets.status, 'closed')),
    urgent: await estimate(eq(tickets.priority, 'urgent')),
  };
}

/** A list's scope and filters, as listFilters reads them (services/tickets/access.ts). */
export interface SearchQuestion {
  scope: TicketScope;
  conditions: ConditionFilters;
}

/**
 * The counts of a search (docs/decisions.md#counting-a-search). A search the statistics put far past
 * the cap answers the cap without reading a ticket; any other counts its matches up to the cap,
 * exactly: off ticket_words when the list asks nothing those rows do not hold (index-only,
 * docs/decisions.md#a-search-counted-off-its-words), else off the tickets. A list's total, its stats
 * call and a saved view's count ask the same question, so the answers are kept until a write to a
 * table they read, keyed by the exact SQL and parameters of the conditions. `cap` is the list's, but
 * for tests.
 */
export function createSearchCounts(context: Pick<ServiceContext, 'db' | 'memoVersions'>, cap: number = LIMITS.ticketList.countCap) {
  const { db } = context;
  const keptTotals = createReadMemo<SearchTotal>(context, SEARCH_MEMO_ENTRIES);
  const keptStats = createReadMemo<SearchCount>(context, SEARCH_MEMO_ENTRIES);
  const keyOf = (where: SQL | undefined) => {
    const { sql: text, params } = where ? dialect.sqlToQuery(where) : { sql: '', params: [] };
    return JSON.stringify([text, params]);
  };
  const farPastCap = async (where: SQL | undefined) => (await estimateTicketRows(db, where)) >= cap * CLEARLY_PAST_CAP;

  /** The cards counted, the search known not to be far past the cap. */
  const counted = async ({ scope, conditions }: SearchQuestion, where: SQL | undefined): Promise<SearchCount> => {
    const matches = await wordMatchesOf(db, scope, conditions);
    return matches ? wordStatsCapped(db, matches, cap) : ticketStatsCapped(db, where, cap);
  };

  const stats = (question: SearchQuestion): Promise<SearchCount> => {
    const where = ticketConditions(question.scope, question.conditions);
    return keptStats(keyOf(where), async () =>
      (await farPastCap(where)) ? { stats: await estimatedStats(db, where, cap), capped: true } : counted(question, where),
    );
  };

  return {
    /** Whether the statistics put the search far past the cap (one planning, no row read). */
    farPastCap,
    /** The count cards, for GET /tickets/stats. */
    stats,
    /** The total alone, for a list and a saved view: far past the cap, one planning and no card estimates. */
    total: (question: SearchQuestion): Promise<SearchTotal> => {
      const where = ticketConditions(question.scope, question.conditions);
      const key = keyOf(where);
      return keptTotals(key, async () => {
        if (await farPastCap(where)) return { total: cap, capped: true };
        // The cards' kept answer when there is one; else counted without asking the planner again.
        const { stats: cards, capped } = await keptStats(key, () => counted(question, where));
        return { total: cards.total, capped };
      });
    },
  };
}

export type SearchCounts = ReturnType<typeof createSearchCounts>;
