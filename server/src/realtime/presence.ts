import { LIMITS, ROOMS, canSeePresence, ticketTypingSignal, ticketViewSignal, type PresenceEvent } from '@helpdesk/protocol';
import type { Logger } from '../lib/logger.js';
import type { Fanout } from '../scaleout/fanout.js';
import type { Actor } from '../lib/actor.js';
import { viewersOf, type PresenceEntry, type PresenceStore } from './presenceStore.js';
import type { RealtimeServer } from './server.js';

export interface PresenceOptions {
  ttlMs: number;
  batchMs?: number;
  typingThrottleMs?: number;
  typingTtlMs?: number;
  maxTicketsPerSocket?: number;
}

interface SocketPresence {
  actor: Actor;
  tickets: Map<number, PresenceEntry>;
  /** Views still being checked: they hold their place under the cap, and a leave meanwhile cancels them. */
  pending: Set<number>;
  /** Views are decided one after another, in the order they came, whatever each read check takes. */
  views: Promise<void>;
  lastTypingAt: number;
  /** A typing signal that came inside the throttle window: applied when the window ends, the latest wins. */
  pendingTyping?: { ticketId: number; typing: boolean };
  pendingTimer?: NodeJS.Timeout;
}

/**
 * Who is on which ticket page, for staff (docs/api.md#presence). Sockets say `ticket:view`, `ticket:leave`
 * and `ticket:typing`; each is validated and checked against what the user may read, otherwise
 * ignored. Changes are coalesced per ticket for `batchMs` and then sent as one `presence` event to
 * the `staff` room, so a hundred typists cost a bounded number of events whatever the audience.
 * Entries are refreshed every quarter TTL, and every process sweeps stale ones (a killed process's),
 * so a ghost viewer is gone within 1.25 × TTL.
 */
export function attachPresence(
  io: RealtimeServer,
  store: PresenceStore,
  canRead: (actor: Actor, ticketId: number) => Promise<boolean>,
  fanout: Fanout,
  logger: Logger,
  options: PresenceOptions,
) {
  const log = logger.child({ component: 'presence' });
  const batchMs = options.batchMs ?? LIMITS.presence.batchMs;
  const throttleMs = options.typingThrottleMs ?? LIMITS.presence.typingThrottleMs;
  const typingTtlMs = options.typingTtlMs ?? LIMITS.presence.typingTtlMs;
  const maxTickets = options.maxTicketsPerSocket ?? LIMITS.presence.maxTicketsPerSocket;
  const sockets = new Map<string, SocketPresence>();
  const dirty = new Set<number>();
  let flushTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  // Presence is best-effort: a Redis hiccup loses an update, never a request or a socket.
  const safely = (what: string, work: () => Promise<unknown>) => {
    work().catch((error: unknown) => log.debug({ err: error }, `presence ${what} failed`));
  };
  const out = () => (fanout.crossProcess() ? io : io.local);

  const eventFor = async (ticketId: number, now = Date.now()): Promise<PresenceEvent> => {
    const { entries } = await store.read(ticketId, now);
    return { ticketId, viewers: viewersOf(entries, now, typingTtlMs) };
  };

  const flush = async () => {
    flushTimer = undefined;
    const ids = [...dirty];
    dirty.clear();
    for (const ticketId of ids)
      out()
        .to(ROOMS.staff)
        .emit('presence', await eventFor(ticketId));
  };
  const changed = (ticketId: number) => {
    dirty.add(ticketId);
    if (!flushTimer && !stopped) flushTimer = setTimeout(() => safely('flush', flush), batchMs);
  };

  const write = async (socketId: string, ticketId: number, entry: PresenceEntry) => {
    await store.put(ticketId, socketId, entry);
    changed(ticketId);
  };
  const put = (socketId: string, ticketId: number, entry: PresenceEntry) => safely('write', () => write(socketId, ticketId, entry));
  const drop = (socketId: string, ticketId: number) =>
    safely('remove', async () => {
      await store.remove(ticketId, socketId);
      changed(ticketId);
    });

  const applyTyping = (socketId: string, state: SocketPresence, ticketId: number, typing: boolean) => {
    const entry = state.tickets.get(ticketId);
    // Typing is only heard from a page the socket is on (and so was allowed to open).
    if (!entry) return;
    const now = Date.now();
    state.lastTypingAt = now;
    if (entry.typing === typing) {
      // Still typing: only the flag's age is renewed, which nobody needs to be told about.
      if (typing) {
        entry.typingAt = now;
        safely('refresh', () => store.put(ticketId, socketId, { ...entry, seenAt: now }));
      }
      return;
    }
    entry.typing = typing;
    entry.typingAt = now;
    put(socketId, ticketId, { ...entry, seenAt: now });
  };

  io.on('connection', (socket) => {
    const actor = socket.data.actor;
    if (!actor || !canSeePresence(actor)) return;
    const state: SocketPresence = { actor, tickets: new Map(), pending: new Set(), views: Promise.resolve(), lastTypingAt: 0 };
    sockets.set(socket.id, state);

    // A fresh staff socket learns who is already where (the queue shows it on every row).
    safely('snapshot', async () => {
      const now = Date.now();
      for (const ticketId of await store.tickets()) {
        const event = await eventFor(ticketId, now);
        if (event.viewers.length > 0) socket.emit('presence', event);
      }
    });

    socket.on('ticket:view', (signal: unknown) => {
      const parsed = ticketViewSignal.safeParse(signal);
      if (!parsed.success) return;
      const { ticketId } = parsed.data;
      // Checked and taken in one step, before the read check awaits: a burst cannot pass the cap.
      if (state.tickets.has(ticketId) || state.pending.has(ticketId) || state.tickets.size + state.pending.size >= maxTickets) return;
      state.pending.add(ticketId);
      const decide = async () => {
        const allowed = await canRead(actor, ticketId).catch((error: unknown) => {
          state.pending.delete(ticketId);
          throw error;
        });
        // A leave (or the disconnect) that came meanwhile has taken the place back.
        if (!state.pending.delete(ticketId) || !allowed || !socket.connected) return;
        const entry: PresenceEntry = { id: actor.id, name: actor.name, typing: false, typingAt: 0, seenAt: Date.now() };
        state.tickets.set(ticketId, entry);
        await write(socket.id, ticketId, entry);
      };
      // In order, so a viewer shown on a later ticket was already decided on every earlier one.
      state.views = state.views.then(decide).catch((error: unknown) => log.debug({ err: error }, 'presence view failed'));
    });

    socket.on('ticket:leave', (signal: unknown) => {
      const parsed = ticketViewSignal.safeParse(signal);
      if (!parsed.success || state.pending.delete(parsed.data.ticketId) || !state.tickets.delete(parsed.data.ticketId)) return;
      drop(socket.id, parsed.data.ticketId);
    });

    socket.on('ticket:typing', (signal: unknown) => {
      const parsed = ticketTypingSignal.safeParse(signal);
      if (!parsed.success) return;
      const { ticketId, typing } = parsed.data;
      const wait = state.lastTypingAt + throttleMs - Date.now();
      if (wait <= 0) {
        applyTyping(socket.id, state, ticketId, typing);
        return;
      }
      // Inside the window: keep only the latest, so "stopped typing" is never lost, just delayed.
      state.pendingTyping = { ticketId, typing };
      state.pendingTimer ??= setTimeout(() => {
        state.pendingTimer = undefined;
        const pending = state.pendingTyping;
        state.pendingTyping = undefined;
        if (pending && socket.connected) applyTyping(socket.id, state, pending.ticketId, pending.typing);
      }, wait);
    });

    socket.on('disconnect', () => {
      sockets.delete(socket.id);
      clearTimeout(state.pendingTimer);
      for (const ticketId of state.tickets.keys()) drop(socket.id, ticketId);
      state.tickets.clear();
      state.pending.clear();
    });
  });

  const heartbeat = setInterval(
    () =>
      safely('heartbeat', async () => {
        const now = Date.now();
        const refreshed: { ticketId: number; socketId: string; entry: PresenceEntry }[] = [];
        for (const [socketId, state] of sockets) {
          for (const [ticketId, entry] of state.tickets) {
            entry.seenAt = now;
            // A typing flag nobody refreshed is a lost "stopped typing": it ends here for everyone.
            if (entry.typing && now - entry.typingAt >= typingTtlMs) {
              entry.typing = false;
              changed(ticketId);
            }
            refreshed.push({ ticketId, socketId, entry: { ...entry } });
          }
        }
        await store.touch(refreshed);
        // Every process sweeps, so the viewers of one that died are cleared by the others.
        for (const ticketId of await store.tickets()) {
          const { pruned } = await store.read(ticketId, now);
          if (pruned) changed(ticketId);
        }
      }),
    Math.max(250, Math.floor(options.ttlMs / 4)),
  );
  heartbeat.unref();

  return {
    stop() {
      stopped = true;
      clearInterval(heartbeat);
      clearTimeout(flushTimer);
      for (const state of sockets.values()) clearTimeout(state.pendingTimer);
    },
  };
}
