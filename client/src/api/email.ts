import type { EmailSettingsResponse, InboundMessageResponse, InboundMessagesResponse } from '@helpdesk/protocol';
import { getToken } from '../state/session';
import { ApiError } from './ApiError';
import { API_BASE, http } from './http';

/** Where a message's raw bytes are (staff may read them; the rest of these calls are admins'). */
const rawPath = (id: number) => `/email/inbound/${id}/raw`;

/** The Email admin page's calls (docs/api.md#email-admin). */
export const emailApi = {
  settings: (signal?: AbortSignal) => http.get<EmailSettingsResponse>('/email/settings', { signal }),
  inbound: (before: number | undefined, signal?: AbortSignal) =>
    http.get<InboundMessagesResponse>('/email/inbound', { query: { before }, signal }),
  retry: (id: number) => http.post<InboundMessageResponse>(`/email/inbound/${id}/retry`),
  /** The raw message's address, for a link's href (its click reads it with downloadRaw). */
  rawHref: (id: number) => API_BASE + rawPath(id),
  /** The raw message as a file: read with the bearer token (a link could not send it), then saved. */
  async downloadRaw(id: number): Promise<void> {
    const url = rawPath(id);
    const token = getToken();
    const response = await fetch(API_BASE + url, { headers: token ? { Authorization: `Bearer ${token}` } : {} }).catch(() => {
      throw new ApiError({ kind: 'no-response', url });
    });
    if (!response.ok) throw new ApiError({ kind: 'response', status: response.status, url, serverMessage: undefined });
    const href = URL.createObjectURL(await response.blob());
    const link = Object.assign(document.createElement('a'), { href, download: `message-${id}.eml` });
    link.click();
    URL.revokeObjectURL(href);
  },
};
