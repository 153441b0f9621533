import type {
  CalendarBody,
  CalendarResponse,
  CalendarsResponse,
  MessageResponse,
  PoliciesResponse,
  PolicyBody,
  PolicyResponse,
} from '@helpdesk/protocol';
import { http } from './http';

/** Business calendars and SLA policies (docs/api.md#service-levels). */
export const slaApi = {
  calendars: (signal?: AbortSignal) => http.get<CalendarsResponse>('/sla/calendars', { signal }),
  createCalendar: (body: CalendarBody) => http.post<CalendarResponse>('/sla/calendars', body),
  updateCalendar: (id: number, body: CalendarBody) => http.put<CalendarResponse>(`/sla/calendars/${id}`, body),
  removeCalendar: (id: number) => http.delete<MessageResponse>(`/sla/calendars/${id}`),
  policies: (signal?: AbortSignal) => http.get<PoliciesResponse>('/sla/policies', { signal }),
  createPolicy: (body: PolicyBody) => http.post<PolicyResponse>('/sla/policies', body),
  updatePolicy: (id: number, body: PolicyBody) => http.put<PolicyResponse>(`/sla/policies/${id}`, body),
  removePolicy: (id: number) => http.delete<MessageResponse>(`/sla/policies/${id}`),
  reorderPolicies: (ids: number[]) => http.put<PoliciesResponse>('/sla/policies/order', { ids }),
};
