import { LIMITS } from '@helpdesk/protocol';

// C0 and C1 controls, the Unicode line and paragraph separators, and every bidi control (marks,
// embeddings, overrides, isolates): a right-to-left override makes `gpj.exe` read as `exe.jpg`.
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
const FALLBACK = 'attachment';
/** An extension kept whole when a long name is cut, so the file still opens with the right program. */
const KEPT_EXTENSION = /\.[\p{L}\p{N}]{1,16}$/u;

/**
 * A name that is only a name (docs/api.md#attachments): the last part of any path, without control or
 * bidi characters, at most LIMITS.attachments.filenameMax characters (code points, its extension
 * kept), and `attachment` when nothing is left.
 */
export function sanitizeFilename(raw: string | null | undefined): string {
  const lastPart = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const name = lastPart.replace(CONTROL, '').replace(BIDI, '').normalize('NFC').trim();
  if (name === '' || name === '.' || name === '..') return FALLBACK;
  return cut(name, LIMITS.attachments.filenameMax);
}

function cut(name: string, max: number): string {
  const chars = Array.from(name);
  if (chars.length <= max) return name;
  const extension = Array.from(KEPT_EXTENSION.exec(name)?.[0] ?? '');
  return [...chars.slice(0, max - extension.length), ...extension].join('').trim();
}
