import type { Readable } from 'node:stream';
import { canSeeInternalNotes, canViewTicket, megabytes, MESSAGES, type Attachment } from '@helpdesk/protocol';
import type { PreparedAttachment } from '../attachments/store.js';
import { findAttachmentWithScope } from '../db/queries/attachments.js';
import type { Actor } from '../lib/actor.js';
import { AppError, NotFoundError, ValidationError } from '../lib/errors.js';
import { presentAttachment } from '../presenters/attachments.js';
import type { ServiceContext } from './context.js';

/** One incoming file of an upload: its bytes as they stream in, and what the sender said about it. */
export interface IncomingFile {
  bytes: Readable;
  filename: string | undefined;
  declaredType: string;
  /** Whether the reader cut the stream at the size limit (asked once it has ended). */
  truncated: () => boolean;
}

/** More than ATTACHMENT_MAX_COUNT files at once: 400 `At most <N> files can be attached at once`. */
export const tooManyFiles = (maxCount: number) => {
  const message = MESSAGES.attachments.tooMany(maxCount);
  return new ValidationError(message, { attachmentIds: message });
};

/** Uploads, and reading a file back under the rules of the comment or ticket it belongs to. */
export function createAttachmentService({ db, attachments, settings }: ServiceContext) {
  const { maxBytes, maxCount } = settings.attachments;
  const tooLarge = () => new AppError(413, MESSAGES.attachments.tooLarge(megabytes(maxBytes)));

  return {
    limits: { maxBytes, maxCount },

    /** Writes one file of an upload to disk (not yet recorded); past ATTACHMENT_MAX_BYTES a 413. */
    async receive(file: IncomingFile): Promise<PreparedAttachment> {
      const prepared = await attachments
        .prepare({ bytes: file.bytes, filename: file.filename, declaredType: file.declaredType })
        .catch((error: unknown) => {
          throw error instanceof Error && error.name === 'BlobTooLargeError' ? tooLarge() : error;
        });
      if (file.truncated()) {
        await attachments.discard(prepared);
        throw tooLarge();
      }
      return prepared;
    },

    discard: (prepared: PreparedAttachment) => attachments.discard(prepared),

    /** Records the received files as the actor's unused uploads, all or none. */
    async upload(actor: Actor, files: PreparedAttachment[]): Promise<Attachment[]> {
      if (files.length === 0) throw new ValidationError(MESSAGES.attachments.noFile);
      if (files.length > maxCount) throw tooManyFiles(maxCount);
      try {
        return await db.transaction(async (tx) => {
          const stored: Attachment[] = [];
          for (const file of files) stored.push(await attachments.record(tx, actor.id, file));
          return stored;
        });
      } catch (error) {
        await Promise.all(files.map((file) => attachments.discard(file)));
        throw error;
      }
    },

    /**
     * A file for whoever may read what it belongs to: its ticket (an internal note's file: staff only),
     * or, while unused, its uploader. Anyone else gets the same 404 as for a file that does not exist.
     */
    async read(actor: Actor, id: number): Promise<{ attachment: Attachment; stream: Readable }> {
      const found = await findAttachmentWithScope(db, id);
      const visible =
        found !== undefined &&
        (found.ticketOwnerId === null
          ? found.attachment.uploaderId === actor.id
          : canViewTicket(actor, { userId: found.ticketOwnerId }) && (!found.internal || canSeeInternalNotes(actor)));
      if (!visible) throw new NotFoundError(MESSAGES.attachments.notFound);
      const stream = attachments.open(found.attachment.sha256);
      // Opened before the answer starts, so a file gone from the disk is a 404, not a cut response.
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', () => reject(new NotFoundError(MESSAGES.attachments.notFound)));
      });
      return { attachment: presentAttachment(found.attachment), stream };
    },
  };
}

export type AttachmentService = ReturnType<typeof createAttachmentService>;
