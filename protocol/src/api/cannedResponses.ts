import { z } from '../zod.js';
import { boundedText } from '../fields.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';

const V = MESSAGES.validation;

const title = boundedText({
  required: V.cannedTitleRequired,
  min: LIMITS.cannedTitle.min,
  max: LIMITS.cannedTitle.max,
  tooShort: V.cannedTitleRequired,
  tooLong: V.cannedTitleTooLong,
});
const content = boundedText({
  required: V.cannedContentRequired,
  min: LIMITS.cannedContent.min,
  max: LIMITS.cannedContent.max,
  tooShort: V.cannedContentRequired,
  tooLong: V.cannedContentTooLong,
});
const shared = z.boolean({ error: V.sharedInvalid });

export const createCannedResponseBody = z.object({ title, content, shared: shared.default(false) });
export type CreateCannedResponseBody = z.infer<typeof createCannedResponseBody>;
export const updateCannedResponseBody = z.object({ title: title.optional(), content: content.optional(), shared: shared.optional() });
export type UpdateCannedResponseBody = z.infer<typeof updateCannedResponseBody>;
