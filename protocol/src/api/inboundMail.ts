import { z } from '../zod.js';
import { idParam, limitQuery, optionalQuery } from '../fields.js';

/**
 * The mail intake (docs/api.md#email-intake): every accepted message is a row with one of these
 * statuses. `queued` waits to be filed; the others say what filing made of it.
 */
export const INBOUND_STATUSES = ['queued', 'ticket', 'comment', 'note', 'ignored', 'rejected', 'failed'] as const;
export type InboundStatus = (typeof INBOUND_STATUSES)[number];

/** The line every outgoing mail carries: what a reply holds below it is quoted text and is cut. */
export const EMAIL_REPLY_MARKER = '-- Reply above this line --';

export const INBOUND_LIMITS = {
  /** A message that fails to be filed this many times is `failed` until an admin retries it. */
  maxAttempts: 5,
  /** Newest messages the Email admin page lists at once. */
  page: 50,
  maxPage: 100,
  /** Recipients one SMTP message may name among ours; more answer 452 (docs/api.md#email-intake). */
  maxRecipients: 100,
} as const;

export const inboundListQuery = z.object({
  limit: limitQuery(INBOUND_LIMITS.page, INBOUND_LIMITS.maxPage),
  /** The oldest id already shown: the next page lists older messages. */
  before: optionalQuery(idParam),
});
