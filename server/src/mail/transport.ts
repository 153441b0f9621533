import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import pRetry from 'p-retry';
import type { Logger } from '../lib/logger.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Queues the message and returns at once; delivery is retried and failures only logged. */
  send(message: MailMessage): void;
  /**
   * For a message that takes work to compose (a lookup, a write): the work starts after the current
   * request has been answered, and a message is sent only if it yields one.
   */
  sendLater(compose: () => Promise<MailMessage | undefined>): void;
  /** Resolves once every queued or composing message was delivered or given up on (shutdown, tests). */
  idle(): Promise<void>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: Logger;
  retries?: number;
  retryMinTimeoutMs?: number;
}

export function createMailer({ smtpUrl, from, outboxDir, logger, retries = 4, retryMinTimeoutMs = 1000 }: MailerOptions): Mailer {
  const log = logger.child({ component: 'mail' });
  const transport: Transporter = smtpUrl
    ? nodemailer.createTransport(smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const pending = new Set<Promise<void>>();

  const deliver = async (message: MailMessage) => {
    const info = await transport.sendMail({ from, ...message });
    if (smtpUrl) return;
    // No SMTP server configured: the message goes to the log and to DATA_DIR/outbox (docs/api.md#email).
    await mkdir(outboxDir, { recursive: true });
    const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
    await writeFile(file, info.message as Buffer);
    // The link's secret stays in the .eml only: logs travel further than DATA_DIR.
    log.info(
      { to: message.to, subject: message.subject, file, text: message.text.replace(/([?&]token=)[^\s&#]+/g, '$1[redacted]') },
      'mail written to outbox',
    );
  };

  const track = (job: Promise<void>) => {
    pending.add(job);
    void job.finally(() => pending.delete(job));
  };

  const send = (message: MailMessage) => {
    track(
      pRetry(() => deliver(message), {
        retries,
        minTimeout: retryMinTimeoutMs,
        onFailedAttempt: ({ error, attemptNumber }) =>
          log.warn({ err: error, to: message.to, subject: message.subject, attempt: attemptNumber }, 'mail delivery failed, will retry'),
      })
        .then(() => log.debug({ to: message.to, subject: message.subject }, 'mail sent'))
        .catch((error: unknown) => log.error({ err: error, to: message.to, subject: message.subject }, 'mail delivery gave up')),
    );
  };

  return {
    send,
    sendLater(compose) {
      track(
        new Promise<void>((resolve) => setImmediate(resolve))
          .then(compose)
          .then((message) => message && send(message))
          .catch((error: unknown) => log.error({ err: error }, 'mail could not be composed')),
      );
    },
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close() {
      transport.close();
    },
  };
}
