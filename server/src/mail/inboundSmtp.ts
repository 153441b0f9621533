import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { INBOUND_LIMITS, MESSAGES } from '@helpdesk/protocol';
import type { Logger } from '../lib/logger.js';
import type { InboundService } from '../services/inbound/index.js';
import { isSupportMailbox } from '../services/inbound/rules.js';

export interface InboundSmtpOptions {
  host: string;
  port: number;
  maxBytes: number;
  supportAddress: string;
}

export interface InboundSmtp {
  port: number;
  close(): Promise<void>;
}

/** How many sessions may be open at once; more wait for the client's retry. */
const MAX_CLIENTS = 200;
const SOCKET_TIMEOUT_MS = 60_000;

const smtpError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

/**
 * The SMTP intake (docs/api.md#email-intake): mail for SUPPORT_ADDRESS and its plus-addresses is
 * streamed to disk and queued before it is answered 250; any other recipient is 550, a message over
 * INBOUND_MAX_BYTES 552, and a message that could not be stored 451, so the sender tries again.
 */
export async function startInboundSmtp(inbound: InboundService, options: InboundSmtpOptions, logger: Logger): Promise<InboundSmtp> {
  const server = new SMTPServer({
    // A relay or MX hands mail over on the local network (docs/api.md#pointing-a-real-mailbox-at-it).
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: options.maxBytes,
    maxClients: MAX_CLIENTS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    banner: 'HelpDesk mail intake',
    logger: false,
    onRcptTo(address, session, callback) {
      if (!isSupportMailbox(address.address, options.supportAddress)) {
        callback(smtpError(550, MESSAGES.inbound.noSuchMailbox));
        return;
      }
      if (session.envelope.rcptTo.length >= INBOUND_LIMITS.maxRecipients) {
        callback(smtpError(452, MESSAGES.inbound.tooManyRecipients));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const mailFrom = session.envelope.mailFrom;
      inbound
        .accept({
          source: 'smtp',
          envelopeFrom: mailFrom ? mailFrom.address.toLowerCase() : '',
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          data: stream,
        })
        .then(
          (accepted) => {
            if (!accepted.stored || stream.sizeExceeded) {
              callback(smtpError(552, MESSAGES.inbound.tooLarge(options.maxBytes)));
              return;
            }
            callback(null, `Queued as ${accepted.id}${accepted.duplicate ? ' (a duplicate)' : ''}`);
          },
          (error: unknown) => {
            logger.error({ err: error }, 'inbound SMTP: a message could not be stored');
            // The rest of the message must be read before the answer can be heard.
            stream.resume();
            stream.once('end', () => callback(smtpError(451, MESSAGES.inbound.notStored)));
            if (stream.readableEnded) callback(smtpError(451, MESSAGES.inbound.notStored));
          },
        );
    },
  });
  server.on('error', (error) => logger.warn({ err: error }, 'inbound SMTP connection error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;
  logger.info({ host: options.host, port }, 'inbound SMTP listening');
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
