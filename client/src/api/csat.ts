import type { CsatAnswerBody, CsatSurveyResponse, MessageResponse, TicketCsatSurveyResponse } from '@helpdesk/protocol';
import { http } from './http';

/**
 * docs/api.md#satisfaction-surveys. The link's calls go without the session: the link is the key,
 * and whoever opens it may be signed in as someone else, or not at all.
 */
export const csatApi = {
  read: (token: string, signal?: AbortSignal) =>
    http.get<CsatSurveyResponse>(`/csat/${encodeURIComponent(token)}`, { signal, anonymous: true }),
  answer: (token: string, body: CsatAnswerBody) =>
    http.post<MessageResponse>(`/csat/${encodeURIComponent(token)}`, body, { anonymous: true }),
  /** The signed-in owner's survey of their ticket, and their answer to it. */
  ofTicket: (ticketId: number, signal?: AbortSignal) => http.get<TicketCsatSurveyResponse>(`/tickets/${ticketId}/csat`, { signal }),
  answerTicket: (ticketId: number, body: CsatAnswerBody) => http.post<MessageResponse>(`/tickets/${ticketId}/csat`, body),
};
