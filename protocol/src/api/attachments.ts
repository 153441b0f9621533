import { z } from '../zod.js';
import { LIMITS } from '../limits.js';
import { MESSAGES } from '../messages.js';
import { MAX_ROW_ID } from '../fields.js';

const A = MESSAGES.attachments;

/** `attachmentIds` of a new ticket or comment: the caller's own unused uploads (docs/api.md#attachments). */
const isId = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0 && (value as number) <= MAX_ROW_ID;

export const attachmentIdsField = z
  .array(z.unknown(), { error: A.idsInvalid })
  .max(LIMITS.attachments.idsMax, A.tooMany(LIMITS.attachments.idsMax))
  // Checked on the list, so the error names the field, not one of its entries.
  .refine((ids): ids is number[] => ids.every(isId), A.idsInvalid)
  .optional()
  .transform((ids) => [...new Set((ids ?? []) as number[])]);

const UNITS = ['KB', 'MB', 'GB'] as const;

/**
 * A size as people read it: `512 bytes`, `1.5 MB`, `25 MB` (binary units, as the limits are set).
 * Beside a `limit` it is over, it never rounds to the limit's own figure (`25.3 MB`, not `25 MB`).
 */
export function formatBytes(bytes: number, limit?: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  const text = `${shown} ${UNITS[unit]}`;
  if (limit === undefined || bytes <= limit || text !== formatBytes(limit)) return text;
  return `${(Math.ceil(value * 10) / 10).toFixed(1)} ${UNITS[unit]}`;
}

/** The limit as the upload error states it, in MiB: `25`, or two significant digits below a whole one (`0.5`). */
export const megabytes = (bytes: number): number => {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? mb : Number(mb.toPrecision(2));
};

/** Raster types a browser may show inline (docs/decisions.md#attachments); never SVG, HTML or XML. */
export const INLINE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const isPreviewableImage = (contentType: string): boolean => (INLINE_IMAGE_TYPES as readonly string[]).includes(contentType);
