import type { ServiceContext } from '../context.js';
import type { SearchCounts } from '../searchCounts.js';
import { createBulkUpdate } from './bulk.js';
import { createAddComment } from './comments.js';
import { createMerge } from './merge.js';
import { createTicketReads } from './reads.js';
import { createTicketWrites } from './updates.js';

export type TicketService = ReturnType<typeof createTicketService>;

/**
 * Tickets, one file per job: reads (lists, cards, a ticket and its thread), the plan of a change
 * (who may change what), single writes, bulk changes and comments. Every change of a ticket's
 * fields ends in updates.ts's recordUpdates, so its history, notifications and event are made once.
 */
export function createTicketService(context: ServiceContext, searchCounts: SearchCounts) {
  return {
    ...createTicketReads(context, searchCounts),
    ...createTicketWrites(context),
    bulkUpdate: createBulkUpdate(context),
    addComment: createAddComment(context),
    merge: createMerge(context),
  };
}
