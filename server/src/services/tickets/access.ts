import {
  assigneeOf,
  canSeeInternalNotes,
  canSeeTags,
  canViewTicket,
  effectiveFilters,
  isStaff,
  MESSAGES,
  visibleTicketScope,
  type TicketAssignee,
  type TicketFilters,
  type UserRef,
} from '@helpdesk/protocol';
import type { Db } from '../../db/client.js';
import { countTagged, findAccountsNamedBy, findStaffIdByEmail } from '../../db/queries/ticketFilters.js';
import { findUserRef } from '../../db/queries/staff.js';
import { rarestWordOf } from '../../db/queries/ticketWords.js';
import {
  countedTotal,
  findTicketRow,
  readTotal,
  type ConditionFilters,
  type TicketRow,
  type TicketScope,
} from '../../db/queries/tickets.js';
import type { ThreadAudience } from '../../db/queries/ticketThread.js';
import type { Actor } from '../../lib/actor.js';
import { createRecentlyUsed } from '../../lib/recentlyUsed.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../lib/errors.js';

/** Staff read internal notes and their timeline entries; an owner's reads never include them. */
export const audienceOf = (actor: Actor): ThreadAudience => ({ internal: canSeeInternalNotes(actor) });

/** What the actor may see, narrowed to one assignee when staff ask for it (`me`, `none` or an id). */
export const scopeFor = (actor: Pick<Actor, 'id' | 'role'>, filters: TicketFilters): TicketScope => {
  const assignee = assigneeOf(filters);
  if (!isStaff(actor) || assignee === undefined) return visibleTicketScope(actor);
  return { ...visibleTicketScope(actor), assignedAgentId: assignee === 'me' ? actor.id : assignee === 'none' ? null : assignee };
};

/**
 * Counts that only choose a plan: how many tickets carry a tag (db/queries/ticketFilters.ts#taggedWith,
 * db/queries/ticketTags.ts#taggedRowsOf) and how many a list's other filters hold. Each plan reads
 * the same rows, so a count is trusted for a few seconds, even with READ_MEMO=off, and a stale one
 * costs speed, never a wrong answer; it saves a round trip on every tag filter.
 */
const HINT_MS = 10_000;
const HINTS = 1_000;
const hintsOf = new WeakMap<Db, ReturnType<typeof createRecentlyUsed<string, { n: number; at: number }>>>();

async function hinted(db: Db, key: string, count: () => Promise<number>): Promise<number> {
  let hints = hintsOf.get(db);
  if (!hints) hintsOf.set(db, (hints = createRecentlyUsed(HINTS)));
  const hint = hints.get(key);
  if (hint && performance.now() - hint.at < HINT_MS) return hint.n;
  const n = await count();
  hints.set(key, { n, at: performance.now() });
  return n;
}

const taggedCount = (db: Db, tag: string) => hinted(db, JSON.stringify(['tag', tag]), () => countTagged(db, tag));

/**
 * How many tickets a staff list's status, priority and assignee hold whatever their tags, from the
 * maintained counters: a tag's rows are walked against them (db/queries/ticketTags.ts#taggedRowsOf).
 */
export const untaggedCount = (db: Db, { assignedAgentId }: TicketScope, { status, priority }: ConditionFilters): Promise<number> =>
  hinted(db, JSON.stringify(['others', assignedAgentId, status, priority]), () =>
    readTotal(db, countedTotal({ assignedAgentId, status, priority })),
  );

/** An `assignee:<email>` that names no staff member: an id no ticket is assigned to, so the list is empty. */
const NO_STAFF_MEMBER = -1;

/** A list's filters, ready for ticketConditions (db/queries/tickets.ts). */
export interface ListFilters {
  scope: TicketScope;
  conditions: ConditionFilters;
  /**
   * Only status, priority, assignee, and a tag or an SLA state and a category (not a tag with either):
   * the maintained counters (staff) or an index (owner) count it exactly.
   */
  plain: boolean;
}

/**
 * What a list, its cards or a saved view asks for: the `search=` text read with the search syntax
 * (explicit parameters win over the same key typed in it), the filters only staff may use refused to
 * anyone else (a tag filter would tell an owner their ticket's tags), `assignee:<email>` resolved.
 */
export async function listFilters(db: Db, actor: Pick<Actor, 'id' | 'role'>, filters: TicketFilters): Promise<ListFilters> {
  const wanted = effectiveFilters(filters);
  // The service level is staff's too: filtering by it would tell an owner their ticket's state.
  if (!canSeeTags(actor) && (wanted.tag !== undefined || wanted.unread || wanted.sla !== undefined))
    throw new ForbiddenError(MESSAGES.http.staffOnly);
  let assignee: TicketAssignee | undefined = wanted.assignee;
  if (wanted.assigneeEmail !== undefined) assignee = (await findStaffIdByEmail(db, wanted.assigneeEmail)) ?? NO_STAFF_MEMBER;
  const text = wanted.text?.trim() ? wanted.text : undefined;
  // Staff find a customer by typing their name or email; an owner's list holds their own tickets only.
  const searchRequesters = isStaff(actor) && text ? await findAccountsNamedBy(db, text) : undefined;
  const tagged = wanted.tag === undefined ? undefined : await taggedCount(db, wanted.tag);
  const conditions: ConditionFilters = {
    status: wanted.status,
    priority: wanted.priority,
    category: wanted.category,
    search: wanted.text,
    searchRequesters,
    // Several words are read off the tickets holding the rarest (the requesters' tickets apart).
    searchAmong: text ? await rarestWordOf(db, text) : undefined,
    tag: wanted.tag,
    tagged,
    requester: wanted.requester,
    sla: wanted.sla,
    ...(wanted.unread && { unreadFor: actor.id }),
  };
  // The tag counters know no SLA state and no category: a tag with either is counted off the index, up to the cap.
  const plain =
    !conditions.search &&
    !conditions.requester &&
    conditions.unreadFor === undefined &&
    (conditions.tag === undefined || (conditions.sla === undefined && conditions.category === undefined));
  return { scope: scopeFor(actor, { assignee }), conditions, plain };
}

/** A ticket the actor may not see answers exactly like one that does not exist. */
export const loadVisible = async (db: Db, actor: Actor, id: number): Promise<TicketRow> => {
  const row = await findTicketRow(db, id);
  if (!row || !canViewTicket(actor, { userId: row.ticket.userId })) throw new NotFoundError(MESSAGES.tickets.notFound);
  return row;
};

/** The assignee named by staff must be an active agent or admin. */
export const resolveAssignee = async (db: Db, id: number | null): Promise<UserRef | null> => {
  if (id === null) return null;
  const user = await findUserRef(db, id);
  if (!user || user.deletedAt || !isStaff(user)) {
    throw new ValidationError(MESSAGES.tickets.agentNotFound, { assignedAgentId: MESSAGES.tickets.agentNotFound });
  }
  return { id: user.id, name: user.name };
};
