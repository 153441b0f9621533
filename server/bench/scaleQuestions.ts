/**
 * The questions of the scale bench: for every call a screen makes, a generator of distinct requests,
 * each a new combination of what agents and users do (filters, sorts, pages, assignee, search words
 * from the vocabulary's long tail, letter case), asked by one of many accounts. A call never asks
 * the same URL with the same token twice in a row.
 */
import { CATEGORIES, PRIORITIES, SLA_FILTERS, TICKET_SORT_FIELDS, TICKET_STATUSES } from '@helpdesk/protocol';
import { AGENT_IDS, TAGS, USER_IDS, emailOf, nameOf, type DatasetFacts } from './scaleDataset.js';
import { ADMINS, STAFF, TICKETS } from './scaleSettings.js';
import { CODES, FUNCTION_WORD_COUNT, RARE_WORD, VOCABULARY, zipfRank } from './scaleVocabulary.js';
import { BENCH_METRICS_TOKEN } from './servers.js';

export interface Question {
  path: string;
  /** The account asking (undefined: signed out). */
  userId?: number;
  /** A bearer token that is no account's (the metrics scrape's). */
  bearer?: string;
}

export interface Call {
  name: string;
  /** What the call reads, for the report's groups: the limits differ for searches. */
  kind: 'search' | 'other';
  next(): Question;
}

type Random = () => number;

const oneOf = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const chance = (random: Random, p: number) => random() < p;

/** A word an agent searches for: not a function word, drawn with the text's long tail, in the case they typed it. */
function searchWord(random: Random): string {
  const content = VOCABULARY.length - FUNCTION_WORD_COUNT;
  const word = VOCABULARY[FUNCTION_WORD_COUNT + zipfRank(content, random()) - 1]!;
  return typed(random, word);
}

/** How an agent names a customer: their email (any case) mostly, else their whole name as typed. */
const requesterText = (random: Random, id: number) => (chance(random, 0.7) ? typed(random, emailOf(id)) : typed(random, nameOf(id)));

/** "printer", "Printer" or "PRINTER": people type all three, and each is a question of its own. */
const typed = (random: Random, word: string) => {
  const r = random();
  return r < 0.75 ? word : r < 0.95 ? word[0]!.toUpperCase() + word.slice(1) : word.toUpperCase();
};

const query = (params: Record<string, string | number | undefined>) => {
  const entries = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined);
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
};

/** Whose tickets a staff list shows: everyone's mostly, then mine, the unassigned, or a colleague's. */
function assignee(random: Random): string | undefined {
  const r = random();
  if (r < 0.55) return undefined;
  if (r < 0.75) return 'me';
  if (r < 0.85) return 'none';
  return String(ADMINS + 1 + Math.floor(random() * (STAFF - ADMINS)));
}

/** The filters of an agent's list: each present or not, so every combination turns up. */
const filters = (random: Random) => ({
  status: chance(random, 0.4) ? oneOf(random, TICKET_STATUSES) : undefined,
  priority: chance(random, 0.25) ? oneOf(random, PRIORITIES) : undefined,
  assignee: assignee(random),
});

/** Zones a report is read in: whole-hour offsets either side of UTC, DST or not, and a half-hour one. */
const REPORT_ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Asia/Kolkata'] as const;

/** A report's range of `days` ending on a recent day, in a zone, under filters an agent picks. */
function reportFilters(random: Random, days: number) {
  const end = new Date(Date.now() - Math.floor(random() * 60) * 86_400_000);
  const start = new Date(end.getTime() - (days - 1) * 86_400_000);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  return {
    from: day(start),
    to: day(end),
    tz: oneOf(random, REPORT_ZONES),
    assignee: chance(random, 0.3) ? assignee(random) : undefined,
    priority: chance(random, 0.25) ? oneOf(random, PRIORITIES) : undefined,
    category: chance(random, 0.25) ? oneOf(random, CATEGORIES) : undefined,
  };
}

const sortOf = (random: Random, field: string = oneOf(random, TICKET_SORT_FIELDS)) => (chance(random, 0.5) ? `-${field}` : field);
/** Mostly the first page, sometimes the next few. */
const shallowPage = (random: Random) => (chance(random, 0.7) ? undefined : 2 + Math.floor(random() * 4));

export interface Options {
  facts: DatasetFacts;
  random: Random;
  /** The list accepts ?requester=<email or name> (else a requester's own list stands in for it). */
  requesterFilter: boolean;
  /** Agents' API tokens (tickets:read) for the token call; none in a build without tokens. */
  tokenSecrets: string[];
}

/** Every call, each with its question generator. */
export function calls({ facts, random, requesterFilter, tokenSecrets }: Options): Call[] {
  const agent = () => oneOf(random, AGENT_IDS);
  const user = () => oneOf(random, USER_IDS);
  const tickets = (params: Record<string, string | number | undefined>) => `/api/tickets${query(params)}`;
  const stats = (params: Record<string, string | number | undefined>) => `/api/tickets/stats${query(params)}`;
  const staffCall = (name: string, kind: Call['kind'], path: () => string): Call => ({
    name,
    kind,
    next: () => ({ path: path(), userId: agent() }),
  });
  const usersWithTickets = USER_IDS.filter((id) => facts.ownTicket.has(id));
  const heavy = facts.heavy.slice(0, 3);

  const list: Call[] = [
    staffCall('list: filters, page 1–5', 'other', () => tickets({ ...filters(random), page: shallowPage(random) })),
    ...TICKET_SORT_FIELDS.map((field) =>
      staffCall(`list: sort=±${field}`, 'other', () =>
        tickets({ ...(chance(random, 0.5) ? filters(random) : {}), sort: sortOf(random, field), page: shallowPage(random) }),
      ),
    ),
    staffCall('list: deep page 100–1000', 'other', () =>
      tickets({ sort: chance(random, 0.5) ? sortOf(random) : undefined, page: 100 + Math.floor(random() * 901) }),
    ),
    staffCall('stats: filters', 'other', () => stats(filters(random))),
    // The service-level filter reads its state's rows (ticket_sla_states, counted off the counters); the
    // deadline order either way (the state's rows keep both orders, migration 0040).
    staffCall('list: sla=<state> ± sort=slaDueAt', 'other', () =>
      tickets({
        sla: oneOf(random, SLA_FILTERS),
        sort: chance(random, 0.5) ? sortOf(random, 'slaDueAt') : undefined,
        page: shallowPage(random),
      }),
    ),
    staffCall('stats: sla=<state>', 'other', () =>
      stats({ sla: oneOf(random, SLA_FILTERS), ...(chance(random, 0.3) ? filters(random) : {}) }),
    ),
    // A category reads its own counters and indexes (migration 0036): alone, beside the other filters,
    // and its cards; dataset version 5 spreads the tickets over the categories.
    staffCall('list: category=<c> ± filters', 'other', () =>
      tickets({
        category: oneOf(random, CATEGORIES),
        ...(chance(random, 0.6) ? filters(random) : {}),
        sort: chance(random, 0.2) ? sortOf(random) : undefined,
        page: shallowPage(random),
      }),
    ),
    staffCall('stats: category=<c> ± filters', 'other', () =>
      stats({ category: oneOf(random, CATEGORIES), ...(chance(random, 0.5) ? filters(random) : {}) }),
    ),
    staffCall('mine + status', 'other', () =>
      tickets({ assignee: 'me', status: oneOf(random, TICKET_STATUSES), sort: chance(random, 0.3) ? sortOf(random) : undefined }),
    ),
    staffCall('search: a word', 'search', () => tickets({ search: searchWord(random), page: shallowPage(random) })),
    staffCall('search: a word + filters, sort', 'search', () =>
      tickets({
        search: searchWord(random),
        ...filters(random),
        status: oneOf(random, [undefined, ...TICKET_STATUSES]),
        sort: chance(random, 0.4) ? sortOf(random) : undefined,
      }),
    ),
    staffCall('search: "printer" (~12 %) ± filters', 'search', () =>
      tickets({ search: typed(random, 'printer'), ...(chance(random, 0.6) ? filters(random) : {}), page: shallowPage(random) }),
    ),
    staffCall(`search: a code or "${RARE_WORD}"`, 'search', () =>
      tickets({
        search: chance(random, 0.2) ? typed(random, RARE_WORD) : oneOf(random, CODES),
        ...(chance(random, 0.3) ? filters(random) : {}),
      }),
    ),
    staffCall('stats: a search ± filters', 'search', () =>
      stats({ search: searchWord(random), ...(chance(random, 0.5) ? filters(random) : {}) }),
    ),
    staffCall('view counts (8 views, 2 searched)', 'search', () => '/api/views/counts'),
    // Reports read the figures kept with each change (docs/api.md#reports), never the tickets: a year's
    // summary and series in one of a few zones, under any filter, must stay under 50 ms.
    staffCall('reports: summary, a year ± filters', 'other', () => `/api/reports/summary${query(reportFilters(random, 365))}`),
    staffCall(
      'reports: timeseries, a year by week or month ± filters',
      'other',
      () => `/api/reports/timeseries${query({ ...reportFilters(random, 365), interval: chance(random, 0.5) ? 'week' : 'month' })}`,
    ),
    staffCall(
      'reports: timeseries, 92 days by day ± filters',
      'other',
      () => `/api/reports/timeseries${query({ ...reportFilters(random, 92), interval: 'day' })}`,
    ),
    staffCall('reports: backlog by age ± filters', 'other', () => `/api/reports/backlog${query(reportFilters(random, 30))}`),
    staffCall(
      `detail: long thread (${heavy.map((h) => h.comments).join('/')} comments)`,
      'other',
      () => `/api/tickets/${oneOf(random, heavy).id}`,
    ),
    staffCall('detail: any ticket', 'other', () => `/api/tickets/${1 + Math.floor(random() * TICKETS)}`),
    {
      name: 'notifications (agents and users)',
      kind: 'other',
      next: () => ({ path: `/api/notifications${chance(random, 0.3) ? '?unread=1' : ''}`, userId: chance(random, 0.5) ? agent() : user() }),
    },
    requesterFilter
      ? staffCall('requester filter: an email or a whole name', 'other', () =>
          tickets({
            requester: requesterText(random, user()),
            ...(chance(random, 0.3) ? { status: oneOf(random, TICKET_STATUSES) } : {}),
            sort: chance(random, 0.3) ? sortOf(random) : undefined,
          }),
        )
      : {
          name: 'user: own list (stands in for the requester filter)',
          kind: 'other',
          next: () => ({
            path: tickets({ status: chance(random, 0.3) ? oneOf(random, TICKET_STATUSES) : undefined, page: shallowPage(random) }),
            userId: user(),
          }),
        },
    staffCall('search: a requester typed as free words', 'search', () =>
      tickets({ search: requesterText(random, user()), ...(chance(random, 0.3) ? filters(random) : {}) }),
    ),
    staffCall(`tag filter: ${TAGS.map((t) => t.tag).join(', ')} ± filters, sort`, 'other', () =>
      tickets({
        tag: oneOf(random, TAGS).tag,
        ...(chance(random, 0.5) ? filters(random) : {}),
        sort: chance(random, 0.4) ? sortOf(random) : undefined,
        page: shallowPage(random),
      }),
    ),
    staffCall('stats: a tag ± filters', 'other', () =>
      stats({ tag: oneOf(random, TAGS).tag, ...(chance(random, 0.5) ? filters(random) : {}) }),
    ),
    staffCall('requester panel: a person’s newest tickets', 'other', () => `/api/users/${user()}/tickets?limit=10`),
    { name: 'user: own stats', kind: 'other', next: () => ({ path: stats({}), userId: user() }) },
    {
      name: 'user: own ticket detail',
      kind: 'other',
      next: () => {
        const id = oneOf(random, usersWithTickets);
        return { path: `/api/tickets/${facts.ownTicket.get(id)!}`, userId: id };
      },
    },
    // The list as a script asks it: the token found by its hash with its owner, checked for its scope and budget.
    ...(tokenSecrets.length > 0
      ? [
          {
            name: 'API token: list, filters, page 1–5',
            kind: 'other' as const,
            next: () => ({ path: tickets({ ...filters(random), page: shallowPage(random) }), bearer: oneOf(random, tokenSecrets) }),
          },
        ]
      : []),
    // Prometheus every 15 s per process is nothing; asked back to back it shows what a scrape costs (the counters read).
    { name: 'metrics: a scrape', kind: 'other', next: () => ({ path: '/metrics', bearer: BENCH_METRICS_TOKEN }) },
    {
      name: 'knowledge: search a word (signed out)',
      kind: 'search',
      next: () => ({ path: `/api/knowledge${query({ search: searchWord(random) })}` }),
    },
  ];
  return list.map(distinctInARow);
}

/** Asks again when a question repeats the one before it (same path, same account). */
function distinctInARow(call: Call): Call {
  let last = '';
  return {
    ...call,
    next() {
      for (let i = 0; ; i++) {
        const q = call.next();
        const key = `${q.userId ?? '-'} ${q.path}`;
        if (key !== last || i >= 20) {
          last = key;
          return q;
        }
      }
    },
  };
}
