import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestServer } from '../../server/test/server';

/** Undoes quoted-printable: soft line breaks (`=\r\n`) and escapes such as `=3D`. */
const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/**
 * The path of the reset link in the newest mail to `email` in the server's outbox (no SMTP in
 * tests, so each mail is an .eml file). Waits for the mailer, which sends after the response.
 */
export async function resetLinkFor(product: TestServer, email: string): Promise<string> {
  await product.server.mailer.idle();
  const outbox = path.join(product.dataDir, 'outbox');
  // File names start with the outbox row id, zero-padded, so the last one in name order is the newest.
  const files = (await readdir(outbox))
    .filter((file) => file.endsWith('.eml'))
    .sort()
    .reverse();
  for (const file of files) {
    const mail = decodeQuotedPrintable(await readFile(path.join(outbox, file), 'utf8'));
    if (!mail.toLowerCase().includes(email.toLowerCase())) continue;
    const link = /\/reset-password\?token=[A-Za-z0-9._~%-]+/.exec(mail);
    if (link) return link[0];
  }
  throw new Error(`no reset mail for ${email} in ${outbox}`);
}
