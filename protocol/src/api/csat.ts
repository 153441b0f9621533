import { z } from '../zod.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { storableString } from '../fields.js';

const M = MESSAGES.csat;

/** The three answers a satisfaction survey takes (docs/api.md#satisfaction-surveys), best first. */
export const CSAT_RATINGS = ['good', 'neutral', 'bad'] as const;
export type CsatRating = (typeof CSAT_RATINGS)[number];

export const isCsatRating = (value: unknown): value is CsatRating => (CSAT_RATINGS as readonly unknown[]).includes(value);

/** A ticket's rating as staff see it: the answer to its newest survey. */
export interface TicketCsat {
  rating: CsatRating;
  comment: string | null;
  at: string;
}

/** Both ways of answering take the same body: the survey link's and the owner's ticket page. */
export const csatAnswerBody = z.object({
  rating: z.enum(CSAT_RATINGS, { error: M.ratingInvalid }),
  comment: storableString('Comment')
    .trim()
    .max(LIMITS.csat.commentMax, M.commentTooLong)
    .transform((s) => (s === '' ? null : s))
    .nullable()
    .optional()
    .transform((s) => s ?? null),
});
export type CsatAnswerBody = z.input<typeof csatAnswerBody>;

/**
 * A survey link's token: 32 random bytes, base64url. Anything else cannot be one, and is answered
 * like an unknown token without reading the database.
 */
export const CSAT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
