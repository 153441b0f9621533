import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { queryKeys } from '../../api/queryKeys';
import { socketAtom } from '../../realtime/collaboration';
import { trailingThrottle } from './throttle';

/** At most one refetch of the reports this often, however many tickets change (docs/product.md#reports). */
export const LIVE_REFETCH_MS = 10_000;

/**
 * The staff events that can move a report's figures: a ticket made, changed or deleted; a reply (first
 * response); an SLA mark; a survey answer.
 */
const REPORT_EVENTS = ['ticket-changed', 'comment-added', 'sla-changed', 'csat-received'] as const;

/**
 * While the page is mounted, ticket changes refetch the reports on screen: the figures are the
 * server's sums, so they are read again rather than moved in the browser, once per burst of events.
 */
export function useLiveReports(): void {
  const client = useQueryClient();
  const socket = useAtomValue(socketAtom);
  useEffect(() => {
    if (!socket) return;
    const refetch = trailingThrottle(() => void client.invalidateQueries({ queryKey: queryKeys.reports.all }), LIVE_REFETCH_MS);
    for (const event of REPORT_EVENTS) socket.on(event, refetch.call);
    return () => {
      for (const event of REPORT_EVENTS) socket.off(event, refetch.call);
      refetch.cancel();
    };
  }, [client, socket]);
}
