import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, pgEnum, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { DEFAULT_CATEGORY, HISTORY_TYPES, PRIORITIES, SLA_STATES, TICKET_STATUSES, type SlaState } from '@helpdesk/protocol';
import { timestamps, users } from './users.js';
import { slaPolicies } from './sla.js';
import { categoryEnum } from './articles.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** A tsvector as its text form; only the database reads it. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const ticketStatusEnum = pgEnum('ticket_status', TICKET_STATUSES);
// Declared low → urgent, so ORDER BY priority sorts by urgency.
export const priorityEnum = pgEnum('ticket_priority', PRIORITIES);
export const historyTypeEnum = pgEnum('ticket_history_type', HISTORY_TYPES);

export const tickets = pgTable(
  'tickets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    priority: priorityEnum('priority').notNull().default('medium'),
    // The articles' enum: one list of categories for both, so a new one is added once (migration 0036).
    category: categoryEnum('category').notNull().default(DEFAULT_CATEGORY),
    status: ticketStatusEnum('status').notNull().default('open'),
    resolutionNotes: text('resolution_notes'),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    assignedAgentId: integer('assigned_agent_id').references(() => users.id, { onDelete: 'set null' }),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    // Bumped by every write that changes the ticket, so a client can tell an older copy from a newer one.
    version: integer('version').notNull().default(1),
    // The words of title and description, for word-prefix search (docs/decisions.md#search-by-word-prefix);
    // ticket_search_vector() is defined IMMUTABLE in migration 0010 so it can be stored and indexed.
    searchWords: tsvector('search_words')
      .notNull()
      .generatedAlwaysAs(sql`ticket_search_vector(title, description)`),
    // Public comments, kept by statement triggers on ticket_comments (migration 0010): what every reader sees.
    commentCount: integer('comment_count').notNull().default(0),
    ...timestamps,
    // Staff's labels, lower-cased and sorted; never presented to the owner (docs/decisions.md#the-agent-desk).
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    // The latest change or comment and who made it: the queue's "last activity" and unread marks.
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).defaultNow().notNull(),
    lastActivityById: integer('last_activity_by_id').references(() => users.id, { onDelete: 'set null' }),

    // Service level (migration 0016, docs/decisions.md#service-levels); staff only. The clock is
    // stored (business time used, the running stretch), deadlines are derived from it at each write.
    slaPolicyId: integer('sla_policy_id').references(() => slaPolicies.id, { onDelete: 'set null' }),
    slaUsedMs: bigint('sla_used_ms', { mode: 'number' }).notNull().default(0),
    slaRunningSince: at('sla_running_since'),
    slaFirstRespondedAt: at('sla_first_responded_at'),
    slaResponseUsedMs: bigint('sla_response_used_ms', { mode: 'number' }),
    // Deadlines and warning times. A running clock's come from it; a stopped one keeps only those that
    // already passed, so the scanner still marks a breach that happened before the stop.
    slaResponseDueAt: at('sla_response_due_at'),
    slaResolutionDueAt: at('sla_resolution_due_at'),
    slaResponseWarnAt: at('sla_response_warn_at'),
    slaResolutionWarnAt: at('sla_resolution_warn_at'),
    // Each mark is made once, by the scanner.
    slaResponseWarnedAt: at('sla_response_warned_at'),
    slaResponseBreachedAt: at('sla_response_breached_at'),
    slaResolutionWarnedAt: at('sla_resolution_warned_at'),
    slaResolutionBreachedAt: at('sla_resolution_breached_at'),
    /** The earliest warning or deadline not yet marked: what the scanner looks for (indexed, nulls left out). */
    slaNextMarkAt: at('sla_next_mark_at'),
    /** The earliest open deadline of a running clock: `sort=slaDueAt`. */
    slaDueAt: at('sla_due_at'),
    /** What staff see and `sla=` filters on; null without a policy. */
    slaState: text('sla_state', { enum: SLA_STATES }).$type<SlaState>(),
  },
  (t) => [
    // Each list order ends in id, so a page is read straight off an index, never sorted. Migrations
    // 0027 and 0028 add INCLUDE of the other orders' columns to the requester's, the assignee's, the
    // status's and the SLA state's (below), so those few tickets in any order are read off the index
    // alone and sorted, never found walking an order's index.
    index('tickets_user_created_idx').on(t.userId, t.createdAt, t.id),
    index('tickets_user_status_priority_idx').on(t.userId, t.status, t.priority),
    index('tickets_assigned_created_idx').on(t.assignedAgentId, t.createdAt, t.id),
    // "Mine + status": the page and its count off one index.
    index('tickets_assigned_status_created_idx').on(t.assignedAgentId, t.status, t.createdAt, t.id),
    index('tickets_status_created_idx').on(t.status, t.createdAt, t.id),
    index('tickets_priority_created_idx').on(t.priority, t.createdAt, t.id),
    // sort=priority is urgency ascending, newest first within it: a second direction. NULLS FIRST is
    // what ORDER BY ... DESC means; an index on DESC NULLS LAST would not serve it.
    index('tickets_priority_created_desc_idx').on(t.priority, t.createdAt.desc().nullsFirst(), t.id),
    // category=<c> in the default order, and beside an assignee (mine, the unassigned): migration 0036
    // adds INCLUDE of the other filters, so status, priority, assignee, tags and SLA state beside it
    // are checked on the index entry (docs/decisions.md#categories-counted-like-statuses).
    index('tickets_category_created_idx').on(t.category, t.createdAt, t.id),
    index('tickets_assigned_category_created_idx').on(t.assignedAgentId, t.category, t.createdAt, t.id),
    // Migration 0018 adds INCLUDE of the list filters (status, priority, assignee, tags) to the list
    // orders' indexes above and below, which drizzle cannot declare: a filtered list in that order
    // checks its filter on the index entry instead of fetching each row it drops. Migration 0019 adds
    // sla_state to the assignee's and the status's; migration 0040 takes it out of every one again.
    index('tickets_created_idx').on(t.createdAt, t.id),
    // The id order beside the primary key, for its INCLUDE of the same filters (migration 0020).
    index('tickets_id_covering_idx').on(t.id),
    index('tickets_updated_idx').on(t.updatedAt, t.id),
    index('tickets_last_activity_idx').on(t.lastActivityAt, t.id),
    index('tickets_search_words_idx').using('gin', t.searchWords),
    // The words of the active tickets alone: a search under status open or in progress (the queue's
    // usual filter) reads a bitmap of those, not every ticket with a common word (migration 0010).
    index('tickets_active_search_words_idx')
      .using('gin', t.searchWords)
      .where(sql`${t.status} in ('open', 'in_progress')`),
    // tag=<tag> is `tags @> array[<tag>]`.
    index('tickets_tags_idx').using('gin', t.tags),
    // sort=slaDueAt both ways, tickets without a deadline last either way; ties by id. Migrations 0017,
    // 0019 and 0040 leave INCLUDE (assigned_agent_id, status, priority, tags), which drizzle cannot
    // declare: a filter on those is checked off the index entry instead of fetching every row it drops.
    index('tickets_sla_due_idx').on(t.slaDueAt.asc().nullsLast(), t.id),
    index('tickets_sla_due_desc_idx').on(t.slaDueAt.desc().nullsLast(), t.id.desc()),
    // One agent's (or the unassigned) tickets by deadline, the filters in the entries (migration 0022):
    // walking the deadline order above for one of hundreds of assignees dropped thousands of entries.
    index('tickets_assigned_sla_due_idx').on(t.assignedAgentId, t.slaDueAt.asc().nullsLast(), t.id),
    index('tickets_assigned_sla_due_desc_idx').on(t.assignedAgentId, t.slaDueAt.desc().nullsLast(), t.id.desc()),
    // The SLA state and the next mark are in no index of tickets: the scanner's marks change only
    // them, so a mark is a HOT update on the page's free room (fillfactor 50, migration 0040). sla=<state>
    // and the scanner's question read ticket_sla_states below.
    index('tickets_sla_policy_idx')
      .on(t.slaPolicyId)
      .where(sql`${t.slaPolicyId} is not null`),
  ],
);

export const ticketComments = pgTable(
  'ticket_comments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    content: text('content').notNull(),
    // Staff-only notes: every read for a ticket's owner filters them out.
    internal: boolean('internal').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    index('ticket_comments_ticket_idx').on(t.ticketId, t.createdAt, t.id),
    // A staff detail counts the ticket's notes: off this, only the notes are read, not the whole thread.
    index('ticket_comments_notes_idx')
      .on(t.ticketId)
      .where(sql`${t.internal}`),
  ],
);

export const ticketHistory = pgTable(
  'ticket_history',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    type: historyTypeEnum('type').notNull(),
    fromValue: text('from_value'),
    toValue: text('to_value'),
    // Not a foreign key: see notifications.byId (docs/decisions.md#no-key-checks-on-who-acted).
    actorId: integer('actor_id').notNull(),
    // The timeline entry of an internal note is as hidden from the owner as the note.
    internal: boolean('internal').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [index('ticket_history_ticket_idx').on(t.ticketId, t.createdAt, t.id)],
);

/**
 * How many tickets each (assignee, status, priority, SLA state) holds, kept exact by statement triggers
 * on tickets (migrations 0004, 0010, 0021), so the cards and list totals never count the tickets table.
 * agent_id 0 = unassigned, -1 = every ticket whoever holds it: a question reads the few dozen rows of
 * one of them, however many staff.
 */
export const ticketCounts = pgTable(
  'ticket_counts',
  {
    agentId: integer('agent_id').notNull(),
    status: ticketStatusEnum('status').notNull(),
    priority: priorityEnum('priority').notNull(),
    /** The tickets' SLA state, '' for those under no policy (migration 0021). */
    slaState: text('sla_state').notNull().default(''),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.status, t.priority, t.slaState] })],
);

/**
 * ticket_counts by category: how many tickets of each category each (assignee, status, priority, SLA
 * state) holds, kept by the same statement trigger (migration 0036), so a list, its cards or a view
 * under `category=` count without reading tickets while every other question still reads ticket_counts'
 * few rows. agent_id 0 = unassigned, -1 every ticket whoever holds it, as there.
 */
export const ticketCategoryCounts = pgTable(
  'ticket_category_counts',
  {
    category: categoryEnum('category').notNull(),
    agentId: integer('agent_id').notNull(),
    status: ticketStatusEnum('status').notNull(),
    priority: priorityEnum('priority').notNull(),
    slaState: text('sla_state').notNull().default(''),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.category, t.agentId, t.status, t.priority, t.slaState] })],
);

/**
 * How many tickets carry each tag, kept exact by a trigger on tickets (migrations 0014, 0026), so GET /tags
 * never reads the tickets table. A tag no ticket carries any more stays with n = 0 and is not listed.
 */
export const tagCounts = pgTable('tag_counts', {
  tag: text('tag').primaryKey(),
  n: integer('n').notNull(),
});

/**
 * ticket_counts per tag: how many tickets with each tag each (assignee, status, priority) holds, kept
 * by the same trigger, so a list or its cards under `tag=` count without reading tickets. agent_id 0 =
 * unassigned, -1 every ticket whoever holds it (migration 0026), as in ticket_counts.
 */
export const ticketTagCounts = pgTable(
  'ticket_tag_counts',
  {
    tag: text('tag').notNull(),
    agentId: integer('agent_id').notNull(),
    status: ticketStatusEnum('status').notNull(),
    priority: priorityEnum('priority').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tag, t.agentId, t.status, t.priority] })],
);

/**
 * A ticket's SLA state, next mark and deadline, one row per ticket under a policy, with the filters a
 * list is asked with, kept by triggers on tickets (migration 0040): sla=<state> pages and the scanner's
 * due tickets are read off these rows' indexes, so no index of tickets holds what a mark changes
 * (docs/decisions.md#sla-states-in-rows-of-their-own). agent_id 0 = unassigned, as in ticket_counts.
 * Migration 0040 adds INCLUDE (status, priority, agent_id, and the other order's time) to the state's
 * indexes, which drizzle cannot declare.
 */
export const ticketSlaStates = pgTable(
  'ticket_sla_states',
  {
    ticketId: integer('ticket_id')
      .primaryKey()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    state: text('state', { enum: SLA_STATES }).$type<SlaState>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true }),
    nextMarkAt: timestamp('next_mark_at', { withTimezone: true }),
    status: ticketStatusEnum('status').notNull(),
    priority: priorityEnum('priority').notNull(),
    agentId: integer('agent_id').notNull(),
  },
  (t) => [
    index('ticket_sla_states_created_idx').on(t.state, t.createdAt, t.ticketId),
    index('ticket_sla_states_due_idx')
      .on(t.state, t.dueAt.asc().nullsLast(), t.ticketId)
      .where(sql`${t.state} in ('ok', 'warning', 'breached')`),
    index('ticket_sla_states_due_desc_idx')
      .on(t.state, t.dueAt.desc().nullsLast(), t.ticketId.desc())
      .where(sql`${t.state} in ('ok', 'warning', 'breached')`),
    // The scanner's question: which marks are due.
    index('ticket_sla_states_next_mark_idx')
      .on(t.nextMarkAt)
      .where(sql`${t.nextMarkAt} is not null`),
  ],
);

/**
 * A ticket's tags, one row each, in creation order per tag, with the filters a list is asked with, kept
 * by triggers on tickets (migration 0031): a tag's list in creation order walks its own rows, where the
 * tickets' indexes passed every ticket without the tag (docs/decisions.md#a-tag-walked-in-its-own-rows).
 * agent_id 0 = unassigned, as in ticket_counts. Migration 0031 adds INCLUDE (status, priority,
 * agent_id) to the index, which drizzle cannot declare.
 */
export const ticketTags = pgTable(
  'ticket_tags',
  {
    tag: text('tag').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    ticketId: integer('ticket_id').notNull(),
    status: ticketStatusEnum('status').notNull(),
    priority: priorityEnum('priority').notNull(),
    agentId: integer('agent_id').notNull(),
  },
  (t) => [index('ticket_tags_idx').on(t.tag, t.createdAt, t.ticketId)],
);

/**
 * A ticket's words, one row each, with the filters a search is asked with, kept by statement triggers
 * on tickets (migration 0029), so a search is counted off one btree without reading a ticket
 * (docs/decisions.md#a-search-counted-off-its-words). agent_id 0 = unassigned, as in ticket_counts.
 * `word` is COLLATE "C" in the migration (drizzle cannot declare a collation): byte order, which is
 * how a word prefix is a range.
 */
export const ticketWords = pgTable(
  'ticket_words',
  {
    word: text('word').notNull(),
    status: ticketStatusEnum('status').notNull(),
    priority: priorityEnum('priority').notNull(),
    agentId: integer('agent_id').notNull(),
    ticketId: integer('ticket_id').notNull(),
    /** The ticket's, in the index beside the key (INCLUDE, migration 0030): a word's matches sort off their rows. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ticket_words_idx').on(t.word, t.status, t.priority, t.agentId, t.ticketId)],
);

/** Every word a ticket has held (never shrinks), so a search's prefix becomes the words it names (migration 0029). */
export const ticketVocabulary = pgTable('ticket_vocabulary', {
  word: text('word').primaryKey(),
});
