import type { Readable } from 'node:stream';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { bareMessageId } from './rawStore.js';

export interface MailAttachment {
  filename: string | undefined;
  contentType: string;
  size: number;
  content: Buffer;
  /** Referenced by the HTML (`cid:`), such as a signature's logo: part of the text, not a file sent. */
  related: boolean;
}

/** What filing reads of a message: plain values only, never HTML. */
export interface InboundMail {
  messageId: string | undefined;
  inReplyTo: string | undefined;
  /** References, oldest first as the header lists them. */
  references: string[];
  from: { address: string; name: string } | undefined;
  /** To and Cc addresses, lower-cased. */
  recipients: string[];
  subject: string;
  /** The text part, or the HTML part turned into text; never rendered as HTML. */
  text: string;
  /** Every header's first value, unfolded, by lower-cased name. */
  headers: Map<string, string>;
  /** The top-level Content-Type and its parameters. */
  contentType: { value: string; params: Record<string, string> };
  attachments: MailAttachment[];
}

/** Parses a stored message (mailparser); a message it cannot read at all throws, and filing retries. */
export async function parseMail(source: Readable): Promise<InboundMail> {
  const parsed = await simpleParser(source, {
    skipImageLinks: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    // The report's status part stays a part of its own, for bounces to read (rules.ts).
    keepDeliveryStatus: true,
  });
  const headers = new Map<string, string>();
  for (const { key, line } of parsed.headerLines) {
    if (headers.has(key)) continue;
    headers.set(
      key,
      line
        .slice(line.indexOf(':') + 1)
        .replace(/\r?\n[ \t]+/g, ' ')
        .trim(),
    );
  }
  const contentType = parsed.headers.get('content-type') as { value?: string; params?: Record<string, string> } | undefined;
  return {
    messageId: bareMessageId(parsed.messageId),
    inReplyTo: bareMessageId(parsed.inReplyTo),
    references: referencesOf(parsed.references),
    from: firstAddress(parsed.from),
    recipients: [...addressesOf(parsed.to), ...addressesOf(parsed.cc)],
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    headers,
    contentType: { value: (contentType?.value ?? 'text/plain').toLowerCase(), params: contentType?.params ?? {} },
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.size,
      content: a.content,
      related: a.related,
    })),
  };
}

function referencesOf(value: ParsedMail['references']): string[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : value.split(/\s+/);
  return list.map((id) => bareMessageId(id)).filter((id): id is string => id !== undefined);
}

function addressesOf(value: AddressObject | AddressObject[] | undefined): string[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const out: string[] = [];
  const walk = (entries: AddressObject['value']) => {
    for (const entry of entries) {
      if (entry.address) out.push(entry.address.toLowerCase());
      if (entry.group) walk(entry.group);
    }
  };
  for (const object of objects) walk(object.value);
  return out;
}

function firstAddress(value: AddressObject | undefined): InboundMail['from'] {
  const entry = value?.value.find((e) => e.address);
  return entry?.address ? { address: entry.address.toLowerCase(), name: entry.name } : undefined;
}
