import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  subject: string;
  /** The plain-text part, transfer-decoded. */
  text: string;
  html: string;
  raw: string;
  /** Message-ID, In-Reply-To and References, in angle brackets as written. */
  messageId?: string;
  inReplyTo?: string;
  references: string[];
  /** Every header by lower-cased name, as parsed (address headers keep their text). */
  headers: Map<string, unknown>;
  /** The files it carries, decoded. */
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
  /** Reply-To's address, lower-cased. */
  replyTo?: string;
}

export interface MailReceiverOptions {
  /**
   * Asked before a mail is accepted: an error refuses it with the error's `responseCode` (e.g. 451),
   * and the mail is not kept. Tests use it to fail deliveries or to act at an exact moment.
   */
  beforeAccept?: (mail: ReceivedMail) => void | Promise<void>;
}

export interface MailReceiver {
  /** For the server's SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps every message it accepts. */
export async function startMailReceiver(options: MailReceiverOptions = {}): Promise<MailReceiver> {
  const mails: ReceivedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then(async (parsed) => {
            const references = parsed.references ?? [];
            const mail: ReceivedMail = {
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              raw: raw.toString('utf8'),
              ...(parsed.messageId && { messageId: parsed.messageId }),
              ...(parsed.inReplyTo && { inReplyTo: parsed.inReplyTo }),
              references: typeof references === 'string' ? references.split(/\s+/).filter(Boolean) : references,
              headers: parsed.headers,
              attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content })),
              ...(parsed.replyTo?.value[0]?.address && { replyTo: parsed.replyTo.value[0].address.toLowerCase() }),
            };
            await options.beforeAccept?.(mail);
            mails.push(mail);
            callback();
          })
          .catch((error: unknown) => callback(error as Error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(0, '127.0.0.1', () => {
      smtp.off('error', reject);
      resolve();
    });
  });
  // Once listening, the server reports each connection's failure here: a sender killed mid-session
  // (the outbox crash tests) resets its connections, one per lane, and the receiver goes on.
  smtp.on('error', () => undefined);
  const { port } = smtp.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to: (address) => mails.filter((m) => m.to.includes(address.toLowerCase())),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** Parses a saved .eml (the outbox) the same way. */
export async function parseEml(raw: string | Buffer): Promise<{ to: string; subject: string; text: string }> {
  const parsed = await simpleParser(raw);
  const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.text ?? '');
  return { to, subject: parsed.subject ?? '', text: parsed.text ?? '' };
}
