import type { ApiTokensResponse, CreateApiTokenBody, CreatedApiTokenResponse, MessageResponse } from '@helpdesk/protocol';
import { http } from './http';

/** docs/api.md#api-tokens: the signed-in staff member's tokens (an admin's list holds everyone's). */
export const apiTokensApi = {
  list: (signal?: AbortSignal) => http.get<ApiTokensResponse>('/tokens', { signal }),
  create: (body: CreateApiTokenBody) => http.post<CreatedApiTokenResponse>('/tokens', body),
  revoke: (id: number) => http.delete<MessageResponse>(`/tokens/${id}`),
};
