import type { EmailSettingsResponse, InboundMessageResponse, InboundMessagesResponse } from '@helpdesk/protocol';
import { saveBlob } from '../lib/saveBlob';
import { API_BASE, fetchFile, http } from './http';

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
    const { blob } = await fetchFile(rawPath(id));
    saveBlob(blob, `message-${id}.eml`);
  },
};
