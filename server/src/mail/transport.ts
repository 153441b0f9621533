import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import nodemailer, { type Transporter } from 'nodemailer';
import type { OutboxMessage } from '../db/schema/index.js';
import type { Logger } from '../lib/logger.js';
import { bracketed, redactTokens } from './outbox.js';

/** One outbox row, as the transport sends it. */
export interface OutgoingMail {
  id: number;
  /** Without angle brackets. */
  messageId: string;
  message: OutboxMessage;
}

export interface MailTransport {
  /** Resolves once the SMTP server accepted the mail (or its .eml was written); rejects otherwise. */
  deliver(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface MailTransportOptions {
  smtpUrl: string | undefined;
  outboxDir: string;
  logger: Logger;
  /**
   * Longest a connection, greeting or silent socket is waited for: below the sender's claim on the
   * mail, so a hung server never makes another process send the same mail meanwhile.
   */
  timeoutMs: number;
  /** Connections kept open to SMTP_URL: the sender sends this many mails at once. */
  connections: number;
  /** A reply's files, by hash (the attachment store). */
  files: { open(sha256: string): Readable; exists(sha256: string): Promise<boolean> };
}

/** A file name per outbox row: writing a mail again after a crash replaces its file, never adds one. */
const emlName = (mail: OutgoingMail) => `${String(mail.id).padStart(8, '0')}-${mail.messageId.replace(/[^\w.-]/g, '_')}.eml`;

export function createMailTransport({ smtpUrl, outboxDir, logger, timeoutMs, connections, files }: MailTransportOptions): MailTransport {
  const log = logger.child({ component: 'mail' });
  const transport: Transporter = smtpUrl
    ? // Kept connections (what the URL does not set), one per mail the sender sends at once.
      nodemailer.createTransport({
        url: smtpUrl,
        pool: true,
        maxConnections: connections,
        maxMessages: Number.POSITIVE_INFINITY,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      })
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  return {
    async deliver(mail) {
      const { attachments: kept = [], ...message } = mail.message;
      // A file removed since (its comment deleted before the mail went) is left out, not retried for ever.
      const present = (await Promise.all(kept.map(async (f) => ((await files.exists(f.sha256)) ? [f] : [])))).flat();
      const info = await transport.sendMail({
        ...message,
        attachments: present.map((f) => ({ filename: f.filename, contentType: f.contentType, content: files.open(f.sha256) })),
        messageId: bracketed(mail.messageId),
        references: message.references,
        // One line per header whatever a value holds: nodemailer folds and encodes, never passes CR/LF on.
        headers: message.headers ?? {},
      });
      if (smtpUrl) return;
      // No SMTP server configured: the message goes to the log and to DATA_DIR/outbox (docs/api.md#email).
      await mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, emlName(mail));
      await writeFile(file, info.message as Buffer);
      // The link's secret stays in the .eml only: logs travel further than DATA_DIR.
      log.info({ to: message.to, subject: message.subject, file, text: redactTokens(message.text) }, 'mail written to outbox');
    },
    close() {
      transport.close();
    },
  };
}
