import path from 'node:path';
import { canManageUsers, INBOUND_LIMITS, MESSAGES, type InboundMessage, type InboundStatus } from '@helpdesk/protocol';
import {
  claimInbound,
  failAttempt,
  findInbound,
  insertInbound,
  listInbound,
  requeueFailed,
  type InboundRow,
} from '../../db/queries/inbound.js';
import { ConflictError, NotFoundError } from '../../lib/errors.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/actor.js';
import type { Settings } from '../../settings.js';
import type { ServiceContext } from '../context.js';
import type { TicketService } from '../tickets/index.js';
import { NO_METRICS } from '../../metrics/metrics.js';
import { BOUNCE_REASON, createInboundFiling } from './filing.js';
import { bareMessageId, createRawStore, headerValue } from './rawStore.js';

/** What a message filed from a person became: what an agent may read as received. */
const FILED: ReadonlySet<InboundStatus> = new Set<InboundStatus>(['ticket', 'comment', 'note']);

export type InboundService = ReturnType<typeof createInboundService>;

export interface IncomingMessage {
  source: 'smtp' | 'imap';
  /** The envelope sender; '' for the null sender `<>`, null when unknown (IMAP). */
  envelopeFrom: string | null;
  /** Our recipients of it. */
  envelopeTo: string[];
  data: AsyncIterable<Buffer | string> | Iterable<Buffer>;
  /** More writes in the transaction of the message's row (the IMAP intake's mailbox position). */
  within?: (tx: Db) => Promise<void>;
}

export type Accepted = { stored: true; id: number; duplicate: boolean } | { stored: false; tooLarge: true };

export const presentInbound = (row: InboundRow): InboundMessage => ({
  id: row.id,
  messageId: row.messageId,
  envelopeTo: row.envelopeTo,
  from: row.fromAddress,
  subject: row.subject,
  size: row.size,
  sha256: row.sha256,
  source: row.source,
  receivedAt: row.receivedAt.toISOString(),
  status: row.status,
  reason: row.reason,
  ticketId: row.ticketId,
  commentId: row.commentId,
  attempts: row.attempts,
});

/**
 * The mail intake (docs/api.md#email-intake): `accept` stores a message whole and queues it;
 * `fileNext` files the oldest due one. SMTP and IMAP both hand messages to `accept`; a worker loop
 * (mail/inboundWorker.ts) calls `fileNext`.
 */
export function createInboundService(
  context: ServiceContext & { settings: Pick<Settings, 'dataDir' | 'supportAddress' | 'inbound'> },
  tickets: TicketService,
) {
  const { db, logger, settings, metrics } = context;
  const raw = createRawStore(path.join(settings.dataDir, 'mail'));
  const filing = createInboundFiling(context, tickets, raw, {
    supportAddress: settings.supportAddress,
    createUsers: settings.inbound.createUsers,
    maxPerSenderPerHour: settings.inbound.maxPerSenderPerHour,
  });
  const queuedListeners = new Set<() => void>();

  /** How a message this process filed ended, read back once committed; a bounce of ours is also a mail out's end. */
  const countFiled = async (id: number) => {
    const row = await findInbound(db, id);
    // A message this process filed is never queued again; the check only narrows the type.
    if (!row || row.status === 'queued') return;
    metrics.mailIn(row.status);
    if (row.reason === BOUNCE_REASON) metrics.mailOut('bounced');
  };

  return {
    raw,

    async accept(message: IncomingMessage): Promise<Accepted> {
      const stored = await raw.write(message.data, settings.inbound.maxBytes);
      if ('tooLarge' in stored) return { stored: false, tooLarge: true };
      const messageId = bareMessageId(headerValue(stored.head, 'message-id'));
      const envelopeTo = [...new Set(message.envelopeTo.map((a) => a.toLowerCase()))].sort().join(', ');
      const row = await db.transaction(async (tx) => {
        const inserted = await insertInbound(tx, {
          messageId: messageId ?? null,
          envelopeFrom: message.envelopeFrom,
          envelopeTo,
          size: stored.size,
          sha256: stored.sha256,
          source: message.source,
          dedupeKey: messageId ? `id:${messageId}\n${envelopeTo}` : `sha256:${stored.sha256}`,
        });
        await message.within?.(tx);
        return inserted;
      });
      const duplicate = row.status === 'ignored';
      if (!duplicate) for (const listener of queuedListeners) listener();
      return { stored: true, id: row.id, duplicate };
    },

    /** Called whenever this process queued a message, so a waiting worker starts at once. */
    onQueued(listener: () => void): () => void {
      queuedListeners.add(listener);
      return () => queuedListeners.delete(listener);
    },

    /** Files the oldest due message; false when none was due. A failure is retried later, never blocks the next. */
    async fileNext(): Promise<boolean> {
      const claim = await claimInbound(db, settings.inbound.claimMs);
      if (!claim) return false;
      let filed: boolean;
      try {
        filed = await filing.file(claim);
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500) || 'unknown error';
        const status = await failAttempt(db, claim, reason).catch(() => 'queued');
        metrics.mailIn(status === 'failed' ? 'failed' : 'retry');
        logger.warn({ err: error, inboundId: claim.id, attempt: claim.attempts, status }, 'inbound message not filed');
        return true;
      }
      // Filed and committed: a failure to count it must never file it again.
      if (filed && metrics !== NO_METRICS)
        await countFiled(claim.id).catch((err: unknown) => logger.debug({ err, inboundId: claim.id }, 'filed message not counted'));
      return true;
    },

    async list(limit: number, before?: number) {
      const { rows, hasMore } = await listInbound(db, limit, before);
      return { messages: rows.map(presentInbound), hasMore };
    },

    async retry(id: number): Promise<InboundMessage> {
      const row = await requeueFailed(db, id);
      if (!row) {
        if (!(await findInbound(db, id))) throw new NotFoundError(MESSAGES.inbound.notFound);
        throw new ConflictError(MESSAGES.inbound.retryNotFailed);
      }
      for (const listener of queuedListeners) listener();
      return presentInbound(row);
    },

    /** The stored message as it arrived, for staff to download. */
    /**
     * A message as received. Agents read what was filed as a ticket, comment or note, which they see
     * on the ticket anyway; a bounce quotes the mail it returns, and a reset or survey link in it
     * would be theirs to use, so the rest is for admins.
     */
    async rawMessage(actor: Actor, id: number) {
      const row = await findInbound(db, id);
      const readable = row !== undefined && (canManageUsers(actor) || FILED.has(row.status));
      if (!readable || !(await raw.exists(row.sha256))) throw new NotFoundError(MESSAGES.inbound.notFound);
      return { row, stream: raw.open(row.sha256) };
    },

    maxAttempts: INBOUND_LIMITS.maxAttempts,
    /** The keys of the ticket plus-addresses this intake reads. */
    threadKeys: context.threadKeys,
  };
}
