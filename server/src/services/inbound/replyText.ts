import { EMAIL_REPLY_MARKER, isStorableText } from '@helpdesk/protocol';
import { textStart } from '../../lib/textStart.js';

/**
 * Gmail, Apple Mail, Thunderbird: "On Mon, 1 Jan 2024 at 10:00, Jane <jane@x> wrote:", wrapped over up
 * to three lines or not. A customer's own text can read like it ("On my laptop … / The dialog
 * wrote:"), so it opens the quote only when quoted lines, our marker or nothing follow it, or when it
 * holds both a date (a year or a time of day) and an address, as the programs' headers do.
 */
const QUOTE_HEADER = /^On\s[\s\S]{1,300}?\swrote:\s*$/;
const HEADER_DATE = /\b(?:19|20)\d\d\b|\b\d{1,2}:\d\d\b/;
const HEADER_ADDRESS = /[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+/;

/** Outlook's lines that open the quoted message: what follows them is not the reply. */
const OUTLOOK_OPENERS: RegExp[] = [
  // A rule of underscores or "Original Message", then the quoted message's From.
  /^_{10,}\s*$/,
  /^-{2,}\s*Original Message\s*-{2,}\s*$/i,
  // Without the rule: "From: …" directly followed by "Sent: …" or "Date: …".
  /^From:\s.+\n(?:Sent|Date):\s/,
];

/** The first line from `from` on that is not blank is quoted (`>`) or our marker, or there is none. */
function quoteOrNothingFrom(lines: string[], from: number): boolean {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() !== '') return /^\s*>/.test(line) || line.includes(EMAIL_REPLY_MARKER);
  }
  return true;
}

/**
 * The reply without what it quotes: everything from our marker line (which every outgoing mail
 * carries) or a standard quote header down is cut. A reply that is nothing but quote keeps its text,
 * since cutting would lose what the sender wrote below it.
 */
export function replyText(text: string): string {
  const normalised = storable(text.replace(/\r\n?/g, '\n'));
  const lines = normalised.split('\n');
  // Quote marks are read past: Apple Mail quotes the header line itself ("> On … wrote:").
  const bare = lines.map((line) => line.replace(/^(?:>\s?)+/, '').trimEnd());
  const cutAt = bare.findIndex((line, i) => {
    if (line.includes(EMAIL_REPLY_MARKER)) return true;
    // A header may wrap over two or three lines.
    for (let size = 1; size <= 3 && i + size <= bare.length; size++) {
      const header = bare.slice(i, i + size).join('\n');
      if (OUTLOOK_OPENERS.some((opener) => opener.test(header))) return true;
      if (QUOTE_HEADER.test(header) && (quoteOrNothingFrom(lines, i + size) || (HEADER_DATE.test(header) && HEADER_ADDRESS.test(header))))
        return true;
    }
    return false;
  });
  const kept = (cutAt === -1 ? lines : lines.slice(0, cutAt)).join('\n').trim();
  return kept === '' ? normalised.trim() : kept;
}

/** Text PostgreSQL can store: NUL and lone surrogates are dropped, never refused (mail is not a form). */
export function storable(text: string): string {
  if (isStorableText(text)) return text;
  // eslint-disable-next-line no-control-regex -- NUL is what PostgreSQL text cannot hold
  return text.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
}

/** A single line for a name or an id: control characters (line breaks among them) removed. */
export function withoutControls(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/[\u0000-\u001f\u007f]/g, '');
}

/** Cut to `max` characters, the cut said at the end. */
export function cutTo(text: string, max: number, note: string): string {
  if (text.length <= max) return text;
  return `${textStart(text, Math.max(0, max - note.length - 2)).trimEnd()}\n\n${note}`;
}
