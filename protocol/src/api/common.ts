import { optionalQuery } from '../fields.js';
import { z } from '../zod.js';

/** Every error is `{success:false, message}`; 400s may add per-field messages (docs/api.md#errors). */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** Turns "yes"-like query flags (`mine=1`) into booleans. */
export const flagQuery = optionalQuery(z.enum(['1', '0', 'true', 'false'])).transform((v) => v === '1' || v === 'true');
