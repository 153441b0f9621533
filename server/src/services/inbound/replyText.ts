import { EMAIL_REPLY_MARKER, isStorableText } from '@helpdesk/protocol';
import { textStart } from '../../lib/textStart.js';

/** A line that opens the quoted message: what follows it is not the reply. */
const QUOTE_OPENERS: RegExp[] = [
  // Gmail, Apple Mail, Thunderbird: "On Mon, 1 Jan 2024 at 10:00, Jane <jane@x> wrote:" (wrapped or not).
  /^On\s[\s\S]{1,300}?\swrote:\s*$/,
  // Outlook: a rule of underscores or "Original Message", then the quoted message's From.
  /^_{10,}\s*$/,
  /^-{2,}\s*Original Message\s*-{2,}\s*$/i,
  // Outlook without the rule: "From: …" directly followed by "Sent: …" or "Date: …".
  /^From:\s.+\n(?:Sent|Date):\s/,
];

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
    // A quote header may wrap over two or three lines.
    const window = bare.slice(i, i + 3);
    return QUOTE_OPENERS.some(
      (opener) => opener.test(line) || opener.test(window.slice(0, 2).join('\n')) || opener.test(window.join('\n')),
    );
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
