import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@helpdesk/protocol';

/** A new secret in Standard Webhooks' format: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/**
 * Standard Webhooks' headers for one attempt: the message id (the same on every attempt), the
 * attempt's time in seconds, and `v1,` + the base64 HMAC-SHA256 of `id.timestamp.body` keyed with the
 * secret's decoded bytes (docs/api.md#webhooks).
 */
export function signedHeaders(secret: string, messageId: string, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64');
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${signature}`,
  };
}
