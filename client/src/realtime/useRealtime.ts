import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { isStaff, MESSAGES } from '@helpdesk/protocol';
import { useLocation } from 'wouter';
import { usePageShown } from '../state/pageShown';
import { store } from '../state/store';
import { tokenAtom, userAtom } from '../state/session';
import { announceLive } from './announceLive';
import { commentNotice, ticketNotice } from './liveNotices';
import { useSessionCheck } from '../state/useSessionCheck';
import {
  applyCommentAdded,
  applyCsatReceived,
  applyEmailStatus,
  applySlaChanged,
  applyTicketChanged,
  heldTicket,
  setLiveEchoes,
  setUnreadReader,
  ticketOpened,
} from '../api/ticketCache';
import { applyPushedViewCounts, moveSlaViewCounts, moveViewCounts } from '../api/viewCountCache';
import { applyArticleChanged, applyHelpfulCount, applyItemsChanged, applyStaffChanged } from './applyEvents';
import { applyNotification, applyNotificationsRead } from '../api/notificationCache';
import { refreshReadsBefore } from '../api/readTimes';
import { presenceAtom, socketAtom, withPresence } from './collaboration';
import { liveRefusalAtom, liveRetryAtom, liveStatusAtom } from './liveStatus';
import type { HelpdeskSocket } from './socket';

/** How long to wait before asking again when the server could not check the session (database away). */
export const UNAVAILABLE_RETRY_MS = 5_000;

/** Signed-out visitors only have live data in the knowledge base (helpful counts). */
export const wantsLiveUpdates = (token: string | null, path: string): boolean =>
  token !== null || path === '/knowledge' || path.startsWith('/knowledge/');

/**
 * Keeps one socket open for the current session and reopens it when the session changes (login,
 * logout). Missed events are not replayed, so a reconnect re-fetches what is on screen. The socket
 * code loads on demand, so the login page does not download it.
 */
export function useRealtime(enabled = true): void {
  const token = useAtomValue(tokenAtom);
  const [path] = useLocation();
  const wanted = enabled && wantsLiveUpdates(token, path);
  // The page comes first: the socket code and its handshake wait until it is on screen.
  const pageShown = usePageShown();
  const client = useQueryClient();
  const setStatus = useSetAtom(liveStatusAtom);
  const setSocket = useSetAtom(socketAtom);
  const setPresence = useSetAtom(presenceAtom);
  const setRefusal = useSetAtom(liveRefusalAtom);
  const setRetry = useSetAtom(liveRetryAtom);
  const checkSession = useSessionCheck();
  // Read when an event arrives, so moving between pages does not reopen the socket.
  const pathRef = useRef(path);
  useEffect(() => {
    pathRef.current = path;
  }, [path]);
  const user = useAtomValue(userAtom);
  const readerId = user && isStaff(user) ? user.id : null;

  // Events mark rows unread for the staff member signed in here (api/ticketCache.ts).
  useEffect(() => setUnreadReader(client, readerId), [client, readerId]);

  useEffect(() => {
    if (!wanted) {
      setStatus('connected'); // nothing on screen is live, so nothing is missing
      setRefusal(null);
      return;
    }
    if (!pageShown) return;
    let socket: HelpdeskSocket | undefined;
    let closed = false;
    // Set once the socket was down (dropped, or refused while the server was unavailable): events
    // may have been missed, and queries may have failed meanwhile.
    let missedEvents = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    setStatus('connecting');

    void import('./socket').then(({ openSocket }) => {
      if (closed) return;
      socket = openSocket(token);
      setSocket(socket);
      const live = socket;
      // Asks again now instead of after the socket's back-off (up to 5 s between tries).
      setRetry({
        retry: () => {
          clearTimeout(retry);
          live.disconnect().connect();
        },
      });
      socket.on('connect', () => {
        setStatus('connected');
        setRefusal(null);
        setLiveEchoes(client, true);
        if (missedEvents) void client.invalidateQueries({ refetchType: 'active' });
        missedEvents = false;
      });
      socket.on('disconnect', (reason) => {
        setStatus('disconnected');
        // What others were doing is unknown until the server sends it again after the reconnect.
        setPresence(new Map());
        setLiveEchoes(client, false);
        missedEvents = true;
        // The server drops a revoked session's socket; asking the server ends the session properly.
        if (reason === 'io server disconnect' && token) void checkSession();
      });
      socket.on('connect_error', (error) => {
        setStatus('disconnected');
        // A refusal from the server carries its reason (a network failure is only "websocket error").
        setRefusal(socket?.active ? null : error.message);
        setLiveEchoes(client, false);
        missedEvents = true;
        if (socket?.active) return; // a network error: Socket.IO retries by itself
        // A refused handshake is final for Socket.IO; an outage is not, so that one is retried here.
        if (error.message === MESSAGES.http.unavailable) retry = setTimeout(() => socket?.connect(), UNAVAILABLE_RETRY_MS);
        else if (token) void checkSession();
      });
      const me = () => store.get(userAtom)?.id;
      socket.on('ticket-changed', (event) => {
        applyTicketChanged(client, event);
        moveViewCounts(client, event, me() ?? null);
        announceLive(ticketNotice(event, me()), pathRef.current);
      });
      socket.on('comment-added', (event) => {
        applyCommentAdded(client, event);
        announceLive(commentNotice(event, me()), pathRef.current);
      });
      socket.on('email-status', (event) => applyEmailStatus(client, event));
      socket.on('csat-received', (event) => applyCsatReceived(client, event));
      socket.on('sla-changed', (event) => {
        // The copy before the event says which SLA-filtered views the ticket leaves.
        const held = heldTicket(client, event.ticketId);
        applySlaChanged(client, event);
        moveSlaViewCounts(client, event, me() ?? null, held);
      });
      socket.on('helpful-count', (event) => applyHelpfulCount(client, event));
      socket.on('article-changed', (event) => applyArticleChanged(client, event));
      socket.on('items-changed', (event) => applyItemsChanged(client, event));
      socket.on('staff-changed', (event) => applyStaffChanged(client, event));
      socket.on('view-counts', (event) => applyPushedViewCounts(client, event));
      socket.on('last-change', ({ at }) => {
        if (at !== null) refreshReadsBefore(client, at);
      });
      socket.on('presence', (event) => setPresence((current) => withPresence(current, event)));
      socket.on('notification', (event) => applyNotification(client, event));
      // What this person read in another tab or on another device is read here too.
      socket.on('notifications-read', (event) => applyNotificationsRead(client, event));
      socket.on('ticket-read', ({ ticketId }) => ticketOpened(client, ticketId));
    });

    return () => {
      closed = true;
      setRetry(null);
      setRefusal(null);
      setLiveEchoes(client, false);
      setSocket(null);
      setPresence(new Map());
      clearTimeout(retry);
      socket?.removeAllListeners();
      socket?.disconnect();
    };
  }, [wanted, pageShown, token, client, setStatus, setRefusal, setRetry, checkSession, setSocket, setPresence]);
}
