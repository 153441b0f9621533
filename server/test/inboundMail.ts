import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { inboundMessages } from '../src/db/schema/index.js';
import type { InboundRow } from '../src/db/queries/inbound.js';
import type { TestServer } from './server.js';

export const SUPPORT = 'support@helpdesk.test';
export const INBOUND_ENV = { INBOUND_SMTP_PORT: '0', SUPPORT_ADDRESS: SUPPORT };

/** Genuine MIME through the server's own SMTP listener; answers nodemailer's info (response, accepted, rejected). */
export async function sendMail(t: TestServer, mail: Mail.Options): Promise<SMTPTransport.SentMessageInfo> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: t.server.inboundSmtpPort,
    secure: false,
    ignoreTLS: true,
    // The listener answers each message only once it is on disk and queued.
    socketTimeout: 60_000,
  });
  try {
    return await transport.sendMail(mail);
  } finally {
    transport.close();
  }
}

/** The inbound row id from the listener's `250 Queued as <id>`. */
export function queuedId(info: SMTPTransport.SentMessageInfo): number {
  const match = /Queued as (\d+)/.exec(info.response);
  if (!match) throw new Error(`not queued: ${info.response}`);
  return Number(match[1]);
}

/** Waits until the worker has filed the row (any status but queued), or fails after `timeoutMs`. */
export async function waitFiled(t: TestServer, id: number, timeoutMs = 15_000): Promise<InboundRow> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await t.server.database.db.select().from(inboundMessages).where(eq(inboundMessages.id, id));
    if (row && row.status !== 'queued') return row;
    if (Date.now() > until) throw new Error(`inbound message ${id} still ${row?.status ?? 'missing'} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends and waits for filing: the filed row. */
export async function deliver(t: TestServer, mail: Mail.Options): Promise<InboundRow> {
  return waitFiled(t, queuedId(await sendMail(t, mail)));
}

/** A raw fixture of server/test/fixtures/mail with its {{PLACEHOLDERS}} filled in. */
export async function fixture(name: string, values: Record<string, string>): Promise<string> {
  const file = fileURLToPath(new URL(`./fixtures/mail/${name}`, import.meta.url));
  const text = await readFile(file, 'utf8');
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`fixture ${name} needs ${key}`);
    return value;
  });
}

/** A raw message sent as it is (nodemailer's `raw`), with its envelope. */
export const deliverRaw = (t: TestServer, from: string, to: string | string[], raw: string) => deliver(t, { envelope: { from, to }, raw });
