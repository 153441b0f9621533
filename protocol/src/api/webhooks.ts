import { z } from '../zod.js';
import { idParam, isStorableText, limitQuery, optionalQuery, storableString } from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';

const M = MESSAGES.webhooks;

/** What an endpoint may subscribe to (docs/api.md#webhooks); `csat.received` is sent once surveys answer. */
export const WEBHOOK_EVENTS = [
  'ticket.created',
  'ticket.updated',
  'ticket.deleted',
  'comment.created',
  'sla.warning',
  'sla.breached',
  'csat.received',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** Sent only when an admin asks for it, to the one endpoint, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookEventType = WebhookEvent | typeof WEBHOOK_TEST_EVENT;

/** Standard Webhooks' secret format: the prefix, then the key in base64. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** `pending` waits for its first or next attempt; `delivered` got a 2xx; `failed` will not be tried again. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** After a failed attempt the next one comes this much later; after the last, the delivery is `failed`. */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
/** An endpoint whose deliveries have failed this long without a success in between is turned off. */
export const WEBHOOK_FAILING_DAYS = 5;
/** An attempt without a whole answer by then is a failure. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** What every delivery's body is, as JSON. `data` has the shape of the matching socket event. */
export interface WebhookPayload<T = unknown> {
  type: WebhookEventType;
  timestamp: string;
  data: T;
}

/** Syntax only: whether http and private hosts are allowed is the server's settings' to say. */
const url = z
  .string({ error: M.urlInvalid })
  .trim()
  .max(LIMITS.webhooks.url.max, M.urlInvalid)
  .refine(isStorableText, MESSAGES.validation.invalidCharacter('URL'))
  .refine((value) => {
    const parsed = URL.canParse(value) ? new URL(value) : undefined;
    return parsed !== undefined && (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '';
  }, M.urlInvalid);
const description = storableString('Description').trim().max(LIMITS.webhooks.description.max, M.descriptionTooLong);
const events = z
  .array(z.string({ error: M.eventsInvalid(WEBHOOK_EVENTS) }), { error: M.eventsRequired })
  .min(1, M.eventsRequired)
  .refine((list) => list.every((event) => (WEBHOOK_EVENTS as readonly string[]).includes(event)), M.eventsInvalid(WEBHOOK_EVENTS))
  .transform((list) => WEBHOOK_EVENTS.filter((event) => list.includes(event)));
const includeInternal = z.boolean({ error: M.includeInternalInvalid });
const active = z.boolean({ error: M.activeInvalid });

export const createWebhookBody = z.object({
  url,
  description: description.default(''),
  events,
  includeInternal: includeInternal.default(false),
  active: active.default(true),
});
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;

/** A change names only the fields it changes. */
export const updateWebhookBody = z.object({
  url: url.optional(),
  description: description.optional(),
  events: events.optional(),
  includeInternal: includeInternal.optional(),
  active: active.optional(),
});
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const webhookDeliveriesQuery = z.object({
  limit: limitQuery(LIMITS.webhooks.deliveriesPage, LIMITS.webhooks.deliveriesMaxPage),
  /** The oldest id already shown: the next page lists older deliveries. */
  before: optionalQuery(idParam),
});
