import {
  ticketQueryParams,
  type Category,
  type CommentResponse,
  type MessageResponse,
  type Priority,
  type TicketCommentsResponse,
  type TicketFilters,
  type TicketListResponse,
  type TicketMessageResponse,
  type TicketQuery,
  type TicketResponse,
  type TicketStatsResponse,
  type TicketStatus,
  type UpdateTicketBody,
} from '@helpdesk/protocol';
import { http } from './http';

/** What the staff composer adds to a comment: a note, the staff it names, the status it sets and on which version. */
export interface CommentExtras {
  internal?: boolean;
  mentions?: number[];
  status?: TicketStatus;
  expectedVersion?: number;
  /** Uploads (POST /uploads) sent with the comment. */
  attachmentIds?: number[];
}

export const ticketsApi = {
  list: (query: TicketQuery, signal?: AbortSignal) => http.get<TicketListResponse>('/tickets', { query: ticketQueryParams(query), signal }),
  stats: (filters: TicketFilters = {}, signal?: AbortSignal) =>
    http.get<TicketStatsResponse>('/tickets/stats', { query: ticketQueryParams(filters), signal }),
  get: (id: number, signal?: AbortSignal) => http.get<TicketResponse>(`/tickets/${id}`, { signal }),
  create: (body: { title: string; description: string; priority: Priority; category: Category; attachmentIds?: number[] }) =>
    http.post<TicketMessageResponse>('/tickets', body),
  update: (id: number, body: UpdateTicketBody) => http.put<TicketMessageResponse>(`/tickets/${id}`, body),
  remove: (id: number) => http.delete<MessageResponse>(`/tickets/${id}`),
  comment: (id: number, content: string, extra: CommentExtras = {}) =>
    http.post<CommentResponse>(`/tickets/${id}/comments`, { content, ...extra }),
  olderComments: (id: number, before: number) =>
    http.get<TicketCommentsResponse>(`/tickets/${id}/comments`, { query: { before: String(before) } }),
};
