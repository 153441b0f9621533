import type {
  CommentResponse,
  MessageResponse,
  Priority,
  TicketListResponse,
  TicketMessageResponse,
  TicketResponse,
  TicketStatsResponse,
  TicketStatus,
  UpdateTicketBody,
} from '@helpdesk/protocol';
import { http } from './http';

/** Filters of GET /api/tickets and /api/tickets/stats (CONTRACT §4). */
export interface TicketFilterParams {
  status?: TicketStatus | '';
  priority?: Priority | '';
  search?: string;
  mine?: boolean;
}
export interface TicketListParams extends TicketFilterParams {
  page?: number;
  limit?: number;
  sort?: string;
}

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
