import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { trailingThrottle } from './throttle';

/** At most one refetch of the reports this often, however many tickets change (docs/product.md#reports). */
export const LIVE_REFETCH_MS = 10_000;

/**
 * The staff events that can move a report's figures: a ticket made, changed or deleted; a reply (first
 * response); an SLA mark; a survey answer.
 */
export const REPORT_EVENTS = ['ticket-changed', 'comment-added', 'sla-changed', 'csat-received'] as const;

/** The part of a socket this needs: the page's and the fan-out bench's clients both fit. */
interface EventSource {
  on(event: (typeof REPORT_EVENTS)[number], listener: () => void): unknown;
  off(event: (typeof REPORT_EVENTS)[number], listener: () => void): unknown;
}

/**
 * Ticket changes refetch the reports in `client`: the figures are the server's sums, so they are read
 * again rather than moved in the browser, once per burst of events. Returns the way to stop.
 */
export function refetchReportsOn(socket: EventSource, client: Pick<QueryClient, 'invalidateQueries'>): () => void {
  const refetch = trailingThrottle(() => void client.invalidateQueries({ queryKey: queryKeys.reports.all }), LIVE_REFETCH_MS);
  for (const event of REPORT_EVENTS) socket.on(event, refetch.call);
  return () => {
    for (const event of REPORT_EVENTS) socket.off(event, refetch.call);
    refetch.cancel();
  };
}
