import { RateLimiterRes } from 'rate-limiter-flexible';
import { assigneeOf, countMayMove, ROOMS, ticketStatesOf, type Ticket, type TicketChange } from '@helpdesk/protocol';
import type { EventBus } from '../events/bus.js';
import type { Logger } from '../lib/logger.js';
import type { LimiterStore } from '../middleware/rateLimit.js';
import type { Fanout } from '../scaleout/fanout.js';
import type { SearchedView, ViewService } from '../services/views.js';
import type { RealtimeServer } from './server.js';

/** At most one `view-counts` message per person in this time, over every process. */
export const VIEW_COUNTS_INTERVAL_MS = 1_000;

interface Change {
  before?: Ticket;
  after?: Ticket;
}

/** A room and whom `assignee: me` means there: nobody in `staff`, the person in their own room. */
interface Audience {
  room: string;
  viewerId: number | null;
}

const dependsOnViewer = (view: SearchedView) => assigneeOf(view.filters) === 'me';
const personal = (id: number): Audience => ({ room: ROOMS.user(id), viewerId: id });

/** Who is shown the view's count: a shared view that says `me` differs per person, so goes to each assignee a change touched. */
function audiencesOf(view: SearchedView, changes: Change[]): Audience[] {
  if (!view.shared) return [personal(view.ownerId)];
  if (!dependsOnViewer(view)) return [{ room: ROOMS.staff, viewerId: null }];
  const assignees = new Set(changes.flatMap(({ before, after }) => [before?.assignedAgent?.id, after?.assignedAgent?.id]));
  return [...assignees].filter((id): id is number => id !== undefined).map(personal);
}

/** The view is still shown in that room: a private one to its owner while staff, a shared `me` one to staff only. */
function showsIn(view: SearchedView, { room, viewerId }: Audience, staff: Set<number>): boolean {
  if (!view.shared) return view.ownerIsStaff && viewerId === view.ownerId;
  if (!dependsOnViewer(view)) return room === ROOMS.staff;
  return viewerId !== null && staff.has(viewerId);
}

/**
 * Pushes the counts of saved views with a text search (`view-counts`, docs/api.md#real-time-events);
 * clients move filter-only views themselves. After ticket changes, a view is counted again only if
 * the change can have moved it: the shared predicate says the ticket matched it before and not after,
 * or the other way round. Counts go to `staff` for a shared view and to `user:<id>` for a private one
 * (its owner) or a shared one that says `me` (each assignee the change touched), never elsewhere.
 *
 * Changes are gathered and handled at most once a second per process. A run that has counts to send
 * takes the one-second slot `view-counts` in `slots` (Redis with several processes) and sends every
 * marked room at once; a staff member is in `staff` and in their own room, so one who gets a message
 * of their own gets staff's counts in it and not staff's message. Whichever processes made the
 * changes, a person gets at most one message a second. The process where a change happened counts
 * and emits, through the Socket.IO adapter to every process (docs/decisions.md#live-view-counts).
 */
export function pushViewCounts(
  io: RealtimeServer,
  bus: EventBus,
  fanout: Fanout,
  views: Pick<ViewService, 'searched' | 'countFor' | 'staffAmong'>,
  slots: LimiterStore,
  logger: Logger,
) {
  const log = logger.child({ component: 'view-counts' });
  const slot = slots('view-counts', { points: 1, durationSeconds: VIEW_COUNTS_INTERVAL_MS / 1000 });
  const out = () => (fanout.crossProcess() ? io : io.local);
  const pending: Change[] = [];
  /** Views to count again, by the room that shows them. */
  const dirty = new Map<string, Audience & { viewIds: Set<number> }>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let stopped = false;
  let lastRun = Number.NEGATIVE_INFINITY;

  const schedule = (delayMs: number) => {
    if (timer || running || stopped) return;
    timer = setTimeout(() => void run(), Math.max(0, delayMs, lastRun + VIEW_COUNTS_INTERVAL_MS - Date.now()));
  };
  const changed = (change: TicketChange) => {
    pending.push(ticketStatesOf(change));
    schedule(0);
  };

  /** Each view whose count a change moved, in each room that shows it; the predicate decides, no query. */
  function mark(searched: SearchedView[], changes: Change[]): void {
    for (const view of searched)
      for (const audience of audiencesOf(view, changes))
        if (changes.some(({ before, after }) => countMayMove(view.filters, audience.viewerId, before, after))) {
          const target = dirty.get(audience.room) ?? { ...audience, viewIds: new Set<number>() };
          target.viewIds.add(view.id);
          dirty.set(audience.room, target);
        }
  }

  /** Milliseconds until counts may be sent again; 0 once the slot is taken. One slot for every room. */
  const takeSlot = (): Promise<number> =>
    slot.consume('view-counts').then(
      () => 0,
      (refusal: unknown) => {
        if (refusal instanceof RateLimiterRes) return Math.max(1, refusal.msBeforeNext);
        throw refusal;
      },
    );

  /** Counts and sends every marked room once the slot is free; returns how soon it frees up when busy. */
  async function send(searched: SearchedView[]): Promise<number | undefined> {
    const byId = new Map(searched.map((view) => [view.id, view]));
    const targets = [...dirty.values()];
    // A shared view reaches a person's room only while they are staff; private ones carry their owner's role.
    const sharedTo = targets.flatMap((t) => (t.viewerId !== null && [...t.viewIds].some((id) => byId.get(id)?.shared) ? [t.viewerId] : []));
    const staff = await views.staffAmong(sharedTo);
    const due = targets.flatMap((target) => {
      const shown = [...target.viewIds].flatMap((id) => {
        const view = byId.get(id);
        return view && showsIn(view, target, staff) ? [view] : [];
      });
      if (shown.length === 0) dirty.delete(target.room);
      return shown.length > 0 ? [{ ...target, shown }] : [];
    });
    if (due.length === 0) return undefined;
    const wait = await takeSlot();
    if (wait > 0) return wait;
    const messages: { room: string; counts: Record<string, number> }[] = [];
    for (const target of due) {
      const totals = await Promise.all(target.shown.map((view) => views.countFor(view.filters, target.viewerId)));
      messages.push({ room: target.room, counts: Object.fromEntries(target.shown.map((view, i) => [view.id, totals[i] ?? 0])) });
    }
    if (stopped) return undefined;
    // A personal room shown a view is a staff member's (showsIn), so it may carry staff's counts: their
    // sockets get one message, and staff's goes to everyone else in `staff`.
    const shared = messages.find(({ room }) => room === ROOMS.staff);
    const own = messages.filter((message) => message !== shared);
    const ownRooms = own.map(({ room }) => room);
    const rooms = messages.map(({ room }) => room);
    fanout.lastSent.note(rooms, Date.now());
    const to = out();
    for (const { room, counts } of own) to.to(room).emit('view-counts', { counts: { ...shared?.counts, ...counts } });
    if (shared) to.to(ROOMS.staff).except(ownRooms).emit('view-counts', { counts: shared.counts });
    due.forEach(({ room }) => dirty.delete(room));
    return undefined;
  }

  async function run(): Promise<void> {
    timer = undefined;
    running = true;
    const changes = pending.splice(0);
    let retryMs: number | undefined;
    try {
      const searched = await views.searched().catch((error: unknown) => {
        // Not marked yet: the changes wait for the next run.
        pending.unshift(...changes);
        throw error;
      });
      mark(searched, changes);
      if (dirty.size > 0) retryMs = await send(searched);
    } catch (error) {
      // The database or Redis is away: what was marked stays marked and is tried again.
      if (!stopped) log.warn({ err: error }, 'view counts not pushed; trying again');
    } finally {
      running = false;
      lastRun = Date.now();
    }
    if (pending.length > 0) schedule(0);
    else if (dirty.size > 0) schedule(retryMs ?? VIEW_COUNTS_INTERVAL_MS);
  }

  const offs = [
    bus.subscribe('ticket.created', ({ ticket }) => changed({ action: 'created', ticket })),
    bus.subscribe('ticket.updated', ({ ticket, previous }) => changed({ action: 'updated', ticket, previous })),
    bus.subscribe('ticket.deleted', ({ previous }) => changed({ action: 'deleted', previous })),
  ];
  return () => {
    stopped = true;
    clearTimeout(timer);
    offs.forEach((off) => off());
  };
}
