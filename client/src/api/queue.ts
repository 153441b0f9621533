import type {
  BulkChanges,
  BulkUpdateResponse,
  CannedResponseResponse,
  CannedResponsesResponse,
  CreateCannedResponseBody,
  CreateViewBody,
  MessageResponse,
  UpdateCannedResponseBody,
  UpdateViewBody,
  ViewCountsResponse,
  ViewResponse,
  ViewsResponse,
} from '@helpdesk/protocol';
import { http } from './http';

/** The agent workspace's calls (docs/api.md#running-the-queue). */
export const queueApi = {
  bulk: (ids: number[], changes: BulkChanges) => http.post<BulkUpdateResponse>('/tickets/bulk', { ids, changes }),
  views: (signal?: AbortSignal) => http.get<ViewsResponse>('/views', { signal }),
  viewCounts: (signal?: AbortSignal) => http.get<ViewCountsResponse>('/views/counts', { signal }),
  createView: (body: Partial<CreateViewBody> & { name: string }) => http.post<ViewResponse>('/views', body),
  updateView: (id: number, body: UpdateViewBody) => http.put<ViewResponse>(`/views/${id}`, body),
  removeView: (id: number) => http.delete<MessageResponse>(`/views/${id}`),
  cannedResponses: (signal?: AbortSignal) => http.get<CannedResponsesResponse>('/canned-responses', { signal }),
  createCanned: (body: Partial<CreateCannedResponseBody> & { title: string; content: string }) =>
    http.post<CannedResponseResponse>('/canned-responses', body),
  updateCanned: (id: number, body: UpdateCannedResponseBody) => http.put<CannedResponseResponse>(`/canned-responses/${id}`, body),
  removeCanned: (id: number) => http.delete<MessageResponse>(`/canned-responses/${id}`),
};
