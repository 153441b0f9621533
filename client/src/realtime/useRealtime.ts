import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { tokenAtom } from '../state/session';
import { useSessionCheck } from '../state/useSessionCheck';
import { applyCommentAdded, applyHelpfulCount, applyTicketChanged } from './applyEvents';
import { liveStatusAtom } from './liveStatus';
import type { HelpdeskSocket } from './socket';

/** Signed-out visitors only have live data in the knowledge base (helpful counts). */
export const wantsLiveUpdates = (token: string | null, path: string): boolean => token !== null || path === '/knowledge' || path.startsWith('/knowledge/');

/**
 * Keeps one socket open for the current session and reopens it when the session changes (login,
 * logout). Missed events are not replayed, so a reconnect re-fetches what is on screen. The socket
 * code loads on demand, so the login page does not download it.
 */
export function useRealtime(enabled = true): void {
  const token = useAtomValue(tokenAtom);
  const [path] = useLocation();
  const wanted = enabled && wantsLiveUpdates(token, path);
  const client = useQueryClient();
  const setStatus = useSetAtom(liveStatusAtom);
  const checkSession = useSessionCheck();

  useEffect(() => {
    if (!wanted) {
      setStatus('connected'); // nothing on screen is live, so nothing is missing
      return;
    }
    let socket: HelpdeskSocket | undefined;
    let closed = false;
    let connectedBefore = false;
    setStatus('connecting');

    void import('./socket').then(({ openSocket }) => {
      if (closed) return;
      socket = openSocket(token);
      socket.on('connect', () => {
        setStatus('connected');
        if (connectedBefore) void client.invalidateQueries({ refetchType: 'active' });
        connectedBefore = true;
      });
      socket.on('disconnect', (reason) => {
        setStatus('disconnected');
        // The server drops a revoked session's socket; asking the server ends the session properly.
        if (reason === 'io server disconnect' && token) void checkSession();
      });
      socket.on('connect_error', () => {
        setStatus('disconnected');
        if (token && !socket?.active) void checkSession();
      });
      socket.on('ticket-changed', (event) => applyTicketChanged(client, event));
      socket.on('comment-added', (event) => applyCommentAdded(client, event));
      socket.on('helpful-count', (event) => applyHelpfulCount(client, event));
    });

    return () => {
      closed = true;
      socket?.removeAllListeners();
      socket?.disconnect();
    };
  }, [wanted, token, client, setStatus, checkSession]);
}
