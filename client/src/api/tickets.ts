import type {
  CommentResponse,
  MessageResponse,
  Priority,
  TicketListResponse,
  TicketMessageResponse,
  TicketResponse,
  TicketStatsResponse,
  UpdateTicketBody,
} from '@helpdesk/protocol';
import { http } from './http';
import type { TicketFilterParams, TicketListParams } from './ticketCache';

export type { TicketFilterParams, TicketListParams };

const filterQuery = ({ mine, ...rest }: TicketListParams) => ({ ...rest, mine: mine ? 1 : undefined });

export const ticketsApi = {
  list: (params: TicketListParams, signal?: AbortSignal) => http.get<TicketListResponse>('/tickets', { query: filterQuery(params), signal }),
  stats: (params: TicketFilterParams = {}, signal?: AbortSignal) => http.get<TicketStatsResponse>('/tickets/stats', { query: filterQuery(params), signal }),
  get: (id: number, signal?: AbortSignal) => http.get<TicketResponse>(`/tickets/${id}`, { signal }),
  create: (body: { title: string; description: string; priority: Priority }) => http.post<TicketMessageResponse>('/tickets', body),
  update: (id: number, body: UpdateTicketBody) => http.put<TicketMessageResponse>(`/tickets/${id}`, body),
  remove: (id: number) => http.delete<MessageResponse>(`/tickets/${id}`),
  comment: (id: number, content: string) => http.post<CommentResponse>(`/tickets/${id}/comments`, { content }),
};
