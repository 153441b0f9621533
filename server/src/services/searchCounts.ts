import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { LIMITS, type TicketStats } from '@helpdesk/protocol';
import { ticketStatsCapped } from '../db/queries/tickets.js';
import type { ServiceContext } from './context.js';
import { createReadMemo } from './readMemo.js';

/** Distinct recent searches kept; each entry is a handful of numbers. */
const SEARCH_MEMO_ENTRIES = 500;
const dialect = new PgDialect();

export interface SearchCount {
  stats: TicketStats;
  capped: boolean;
}

/**
 * The count cards of a search, over at most the cap's worth of matches (docs/decisions.md#scale).
 * A list's total, its stats call and a saved view's count ask the same question, so the answer is
 * kept until a write to a table it read, keyed by the exact SQL and parameters of the conditions.
 */
export function createSearchCounts(context: Pick<ServiceContext, 'db' | 'memoVersions'>) {
  const { db } = context;
  const memo = createReadMemo<SearchCount>(context, SEARCH_MEMO_ENTRIES);
  return (where: SQL | undefined): Promise<SearchCount> => {
    const { sql: text, params } = where ? dialect.sqlToQuery(where) : { sql: '', params: [] };
    return memo(JSON.stringify([text, params]), () => ticketStatsCapped(db, where, LIMITS.ticketList.countCap));
  };
}

export type SearchCounts = ReturnType<typeof createSearchCounts>;
