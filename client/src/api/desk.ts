import { LIMITS, type HistoryEntry, type RequesterAccount, type Ticket, type TicketMessageResponse } from '@helpdesk/protocol';
import { http } from './http';

/**
 * The agent desk's calls (docs/decisions.md#ticket-page-panels). Their shapes are written here until the
 * protocol carries them: `Ticket.tags` (staff only), the requester's tickets, tag suggestions,
 * merge and paging a ticket's history.
 */
export type DeskTicket = Ticket & { tags?: string[] };

export interface RequesterTicketsResponse {
  success: true;
  tickets: DeskTicket[];
  /** The requester's account: name, email and account age for the panel. */
  requester: RequesterAccount;
}
export interface TagsResponse {
  success: true;
  tags: { tag: string; count: number }[];
}
export interface TicketHistoryResponse {
  success: true;
  history: HistoryEntry[];
  hasMore: boolean;
}
export interface MergeTicketResponse {
  success: true;
  ticket: DeskTicket;
}

/** The requester panel's newest tickets: the API's default, which the live cache keeps the panel to (ticketCache.ts). */
export const REQUESTER_TICKETS_LIMIT = LIMITS.requesterTickets.default;

export const deskApi = {
  requesterTickets: (userId: number, signal?: AbortSignal) =>
    http.get<RequesterTicketsResponse>(`/users/${userId}/tickets`, { query: { limit: String(REQUESTER_TICKETS_LIMIT) }, signal }),
  tags: (signal?: AbortSignal) => http.get<TagsResponse>('/tags', { signal }),
  setTags: (id: number, tags: string[], expectedVersion: number) =>
    http.put<TicketMessageResponse>(`/tickets/${id}`, { tags, expectedVersion }),
  merge: (id: number, intoId: number) => http.post<MergeTicketResponse>(`/tickets/${id}/merge`, { intoId }),
  olderHistory: (id: number, before: number) =>
    http.get<TicketHistoryResponse>(`/tickets/${id}/history`, { query: { before: String(before) } }),
};
