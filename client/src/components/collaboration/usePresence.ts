import { LIMITS, type PresenceViewer } from '@helpdesk/protocol';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { presenceAtom, socketAtom } from '../../realtime/collaboration';
import { userAtom } from '../../state/session';

const NO_VIEWERS: PresenceViewer[] = [];

/** Everyone the server says is on the ticket, this user included. */
export function useViewers(ticketId: number): PresenceViewer[] {
  return useAtomValue(presenceAtom).get(ticketId) ?? NO_VIEWERS;
}

/** The other staff on the ticket: this user's own tabs are not "someone else". */
export function useOtherViewers(ticketId: number): PresenceViewer[] {
  const viewers = useViewers(ticketId);
  const me = useAtomValue(userAtom)?.id;
  return useMemo(() => viewers.filter((v) => v.id !== me), [viewers, me]);
}

/**
 * Says "I am on this ticket" while the component is mounted, again after every reconnect (the
 * server forgets a socket's presence when it drops), and "I left" when it unmounts.
 */
export function useAnnouncePresence(ticketId: number, enabled: boolean): void {
  const socket = useAtomValue(socketAtom);
  useEffect(() => {
    if (!socket || !enabled) return;
    const view = () => socket.emit('ticket:view', { ticketId });
    if (socket.connected) view();
    socket.on('connect', view);
    return () => {
      socket.off('connect', view);
      socket.emit('ticket:leave', { ticketId });
    };
  }, [socket, ticketId, enabled]);
}

/** Idle this long after the last keystroke and the user has stopped typing. */
const TYPING_IDLE_MS = 3_000;
/** While typing goes on, "still typing" is repeated this often, inside the server's typing TTL. */
const TYPING_REFRESH_MS = LIMITS.presence.typingTtlMs / 2;

/**
 * Typing signals for a reply box: `typed()` on each keystroke sends "typing" at most every few
 * seconds (the server takes one a second at most), and "stopped" after a pause or on `stopped()`.
 */
export function useTypingSignal(ticketId: number) {
  const socket = useAtomValue(socketAtom);
  const state = useRef({ typing: false, sentAt: 0, idle: undefined as ReturnType<typeof setTimeout> | undefined });

  const stopped = useCallback(() => {
    const s = state.current;
    clearTimeout(s.idle);
    if (s.typing) socket?.emit('ticket:typing', { ticketId, typing: false });
    s.typing = false;
  }, [socket, ticketId]);

  const typed = useCallback(() => {
    const s = state.current;
    const now = Date.now();
    if (!s.typing || now - s.sentAt >= TYPING_REFRESH_MS) {
      socket?.emit('ticket:typing', { ticketId, typing: true });
      s.sentAt = now;
      s.typing = true;
    }
    clearTimeout(s.idle);
    s.idle = setTimeout(stopped, TYPING_IDLE_MS);
  }, [socket, ticketId, stopped]);

  useEffect(() => stopped, [stopped]);
  return { typed, stopped };
}
