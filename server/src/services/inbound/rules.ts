import type { InboundMail } from './parse.js';

/** The local part and domain of a lower-cased address. */
export function splitAddress(address: string): { local: string; domain: string } {
  const at = address.lastIndexOf('@');
  return { local: address.slice(0, at), domain: address.slice(at + 1) };
}

/** The support address itself or one of its plus-addresses (`support+…@domain`). */
export function isSupportMailbox(address: string, supportAddress: string): boolean {
  const given = splitAddress(address.toLowerCase());
  const ours = splitAddress(supportAddress);
  return given.domain === ours.domain && (given.local === ours.local || given.local.startsWith(`${ours.local}+`));
}

/**
 * Why a message gets no ticket, no comment and no answer: the loop and auto-reply rules of
 * docs/api.md#loops-auto-replies-and-bounces, in that order; undefined when none applies.
 */
export function loopReason(mail: InboundMail, envelopeFrom: string | null, supportAddress: string): string | undefined {
  const header = (name: string) => mail.headers.get(name);
  const autoSubmitted = header('auto-submitted')?.split(';')[0]?.trim().toLowerCase();
  if (autoSubmitted !== undefined && autoSubmitted !== 'no') return 'auto-submitted';
  const precedence = header('precedence')?.trim().toLowerCase();
  if (precedence && ['bulk', 'junk', 'list', 'auto_reply'].includes(precedence)) return 'precedence';
  if (mail.headers.has('x-autoreply') || mail.headers.has('x-autorespond')) return 'auto-reply';
  if (mail.headers.has('list-id')) return 'mailing list';
  const returnPath = header('return-path');
  if (envelopeFrom === '' || (returnPath !== undefined && /^<\s*>$|^$/.test(returnPath.trim()))) return 'empty return path';
  const fromLocal = mail.from ? splitAddress(mail.from.address).local : '';
  if (fromLocal === 'mailer-daemon' || fromLocal === 'postmaster') return 'mailer-daemon';
  if (mail.headers.has('x-helpdesk-loop')) return 'loop';
  if (mail.from && isSupportMailbox(mail.from.address, supportAddress)) return 'own address';
  return undefined;
}

export interface DeliveryReport {
  /** Message-IDs the report names as the mail it reports on (the original's, any In-Reply-To/References). */
  originalIds: string[];
  recipient: string | undefined;
  /** `failed` is a bounce; `delayed`, `delivered`, `relayed` and `expanded` are not. */
  action: string | undefined;
  status: string | undefined;
}

/**
 * A delivery status notification (`multipart/report; report-type=delivery-status`), read before the
 * loop rules, since it usually carries Auto-Submitted and a mailer-daemon sender.
 */
export function deliveryReport(mail: InboundMail, raw: string): DeliveryReport | undefined {
  if (mail.contentType.value !== 'multipart/report') return undefined;
  if (mail.contentType.params['report-type']?.toLowerCase() !== 'delivery-status') return undefined;
  const statusPart = mail.attachments.find((a) => a.contentType === 'message/delivery-status');
  const fields = statusPart ? statusPart.content.toString('utf8') : mail.text;
  const field = (name: string) => new RegExp(`^${name}:\\s*(.+)$`, 'im').exec(fields)?.[1]?.trim();
  const recipient = (field('Final-Recipient') ?? field('Original-Recipient'))?.replace(/^rfc822;\s*/i, '').toLowerCase();
  // The returned message or its headers (message/rfc822 or text/rfc822-headers, 7-bit as reports
  // are) hold the original's Message-ID; the report's own one is left out below.
  const quoted = [...raw.matchAll(/^message-id:[ \t]*(?:\r?\n[ \t]+)?<([^<>\s]+)>/gim)].map((m) => m[1] ?? '');
  return {
    originalIds: [...new Set([...quoted, mail.inReplyTo ?? '', ...[...mail.references].reverse()])].filter(
      (id) => id !== '' && id !== mail.messageId,
    ),
    recipient,
    action: field('Action')?.toLowerCase(),
    status: field('Status'),
  };
}
