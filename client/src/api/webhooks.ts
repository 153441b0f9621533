import type {
  CreateWebhookBody,
  MessageResponse,
  UpdateWebhookBody,
  WebhookDeliveriesResponse,
  WebhookDeliveryResponse,
  WebhookResponse,
  WebhookSecretResponse,
  WebhooksResponse,
} from '@helpdesk/protocol';
import { http } from './http';

/** The Webhooks page's calls (docs/api.md#webhooks). */
export const webhooksApi = {
  list: (signal?: AbortSignal) => http.get<WebhooksResponse>('/webhooks', { signal }),
  create: (body: CreateWebhookBody) => http.post<WebhookSecretResponse>('/webhooks', body),
  update: (id: number, body: UpdateWebhookBody) => http.put<WebhookResponse>(`/webhooks/${id}`, body),
  remove: (id: number) => http.delete<MessageResponse>(`/webhooks/${id}`),
  rotateSecret: (id: number) => http.post<WebhookSecretResponse>(`/webhooks/${id}/rotate-secret`),
  test: (id: number) => http.post<WebhookDeliveryResponse>(`/webhooks/${id}/test`),
  deliveries: (id: number, before: number | undefined, signal?: AbortSignal) =>
    http.get<WebhookDeliveriesResponse>(`/webhooks/${id}/deliveries`, { query: { before }, signal }),
  retry: (deliveryId: number) => http.post<WebhookDeliveryResponse>(`/webhooks/deliveries/${deliveryId}/retry`),
};
