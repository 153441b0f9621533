import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { isPreviewableImage } from '@helpdesk/protocol';

/** How many leading bytes `file-type` needs to recognise every format it knows. */
export const SNIFF_BYTES = 4100;

const GENERIC = 'application/octet-stream';
/** Text formats `file-type` cannot tell apart: the sender's word is kept for these when the bytes are text. */
const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'image/svg+xml',
  'text/calendar',
  'text/css',
  'text/csv',
  'text/html',
  'text/markdown',
  'text/plain',
  'text/xml',
]);
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * The type of a file from its bytes, never from its name (docs/decisions.md#attachments): a binary
 * format `file-type` recognises; else, for text, the declared text type or `text/plain`; else
 * `application/octet-stream`. So a file declared `image/png` that is not one is never served as one.
 */
export async function sniffContentType(head: Uint8Array, declaredType?: string | null): Promise<string> {
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  if (!looksLikeText(head)) return GENERIC;
  const declared = declaredType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return MEDIA_TYPE.test(declared) && TEXT_TYPES.has(declared) ? declared : 'text/plain';
}

/** No NUL byte among the first bytes: what text editors and `file` take as text too. */
const looksLikeText = (head: Uint8Array): boolean => !head.includes(0);

const IMAGE_EXTENSIONS: Record<string, readonly string[]> = {
  'image/png': ['.png'],
  'image/jpeg': ['.jpg', '.jpeg', '.jpe', '.jfif'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
};

/**
 * Shown in the browser only for a raster image whose bytes are what its name says (PNG, JPEG, GIF,
 * WebP); everything else, SVG, HTML and XML above all, is a download.
 */
export function isInline(file: { contentType: string; filename: string }): boolean {
  if (!isPreviewableImage(file.contentType)) return false;
  return IMAGE_EXTENSIONS[file.contentType]?.includes(path.extname(file.filename).toLowerCase()) ?? false;
}

/** RFC 8187 `filename*`: UTF-8, percent-encoded, so no name can break out of the header. */
export function contentDisposition(file: { contentType: string; filename: string }): string {
  const encoded = encodeURIComponent(file.filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${isInline(file) ? 'inline' : 'attachment'}; filename*=UTF-8''${encoded}`;
}
