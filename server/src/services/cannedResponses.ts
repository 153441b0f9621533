import { LIMITS, MESSAGES, type CreateCannedResponseBody, type UpdateCannedResponseBody } from '@helpdesk/protocol';
import { cannedResponseQueries } from '../db/queries/cannedResponses.js';
import { presentCannedResponse } from '../presenters/cannedResponses.js';
import type { ServiceContext } from './context.js';
import { sharedItemService } from './sharedItems.js';

export type CannedResponseService = ReturnType<typeof createCannedResponseService>;

export function createCannedResponseService({ db, announceWrite }: ServiceContext) {
  return sharedItemService(db, announceWrite, {
    texts: MESSAGES.cannedResponses,
    announcedAs: 'canned-responses',
    maxPerOwner: LIMITS.perOwner.cannedResponses,
    queries: cannedResponseQueries,
    present: presentCannedResponse,
    toInsert: (actor, input: CreateCannedResponseBody) => ({ ownerId: actor.id, ...input }),
    toSet: (input: UpdateCannedResponseBody) => ({
      ...(input.title !== undefined && { title: input.title }),
      ...(input.content !== undefined && { content: input.content }),
      ...(input.shared !== undefined && { shared: input.shared }),
    }),
  });
}
