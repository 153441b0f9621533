import type { Readable } from 'node:stream';
import { LIMITS, MESSAGES, type Attachment } from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { claimUploads, contentInUse, deleteUnusedBefore, insertAttachment, lockContent } from '../db/queries/attachments.js';
import { ValidationError } from '../lib/errors.js';
import { presentAttachment } from '../presenters/attachments.js';
import { createBlobStore, type WrittenBlob } from './blobs.js';
import { sniffContentType } from './contentType.js';
import { sanitizeFilename } from './filename.js';

export { BlobTooLargeError } from './blobs.js';

export interface NewAttachment {
  uploaderId: number;
  /** As sent: cleaned here (path parts, control and bidi characters, length). */
  filename?: string | null;
  /** The sender's Content-Type: kept only for text the bytes cannot name (contentType.ts). */
  declaredType?: string | null;
  /** A buffer, or a stream read to its end (or to the size limit). */
  bytes: Uint8Array | Readable;
}

/** Bytes written and sniffed, not yet recorded: `record` keeps them with a row, `discard` drops them. */
export interface PreparedAttachment {
  blob: WrittenBlob;
  filename: string;
  contentType: string;
}

export interface AttachmentTarget {
  ticketId: number;
  /** Absent or null: the ticket's own file (sent when it was created). */
  commentId?: number | null;
}

/**
 * Files by content under ATTACHMENT_DIR with a row per use (docs/api.md#attachments). Used by uploads,
 * by tickets and comments that take them, and by mail intake, which stores a mail's files inside the
 * transaction that files the mail:
 *
 *   const file = await attachments.store(tx, { uploaderId, filename, declaredType, bytes });
 *   await attachments.link(tx, [file.id], { ticketId, commentId }, uploaderId);
 *
 * A file over `maxBytes` throws BlobTooLargeError and leaves nothing behind.
 */
export function createAttachmentStore({ dir, maxBytes }: { dir: string; maxBytes: number }) {
  const blobs = createBlobStore(dir);

  const prepare = async (input: Omit<NewAttachment, 'uploaderId'>): Promise<PreparedAttachment> => {
    const blob = await blobs.write(input.bytes, maxBytes);
    return { blob, filename: sanitizeFilename(input.filename), contentType: await sniffContentType(blob.head, input.declaredType) };
  };

  /** The file goes in place and its row is written under the hash's lock, held to the end of the caller's transaction. */
  const record = (db: Db, uploaderId: number, prepared: PreparedAttachment): Promise<Attachment> =>
    db.transaction(async (tx) => {
      await lockContent(tx, prepared.blob.sha256);
      await blobs.keep(prepared.blob);
      const row = await insertAttachment(tx, {
        uploaderId,
        filename: prepared.filename,
        size: prepared.blob.size,
        contentType: prepared.contentType,
        sha256: prepared.blob.sha256,
      });
      return presentAttachment(row);
    });

  /** Removes each file no row names any more; a row written meanwhile keeps it (the hash's lock). */
  const release = async (db: Db, hashes: Iterable<string>): Promise<void> => {
    for (const sha256 of new Set(hashes)) {
      await db.transaction(async (tx) => {
        await lockContent(tx, sha256);
        if (!(await contentInUse(tx, sha256))) await blobs.remove(sha256);
      });
    }
  };

  return {
    maxBytes,
    prepare,
    record,
    discard: (prepared: PreparedAttachment) => blobs.discard(prepared.blob),

    /** Writes the bytes and their row in `db` (a transaction, or the database for one of its own). */
    async store(db: Db, input: NewAttachment): Promise<Attachment> {
      const prepared = await prepare(input);
      try {
        return await record(db, input.uploaderId, prepared);
      } catch (error) {
        // The rename happens last but one: before it, the bytes are still only a temporary file.
        await blobs.discard(prepared.blob);
        throw error;
      }
    },

    /**
     * Gives `ids` to a ticket or comment, in the caller's transaction. Each must be `uploaderId`'s own
     * upload, unused and under LIMITS.attachments.unusedTtlMs old; else 400 `Attachment <id> cannot be
     * used here` and the transaction rolls back. Returns the files, oldest first.
     */
    async link(db: Db, ids: readonly number[], target: AttachmentTarget, uploaderId: number, now = new Date()): Promise<Attachment[]> {
      const wanted = [...new Set(ids)];
      const since = new Date(now.getTime() - LIMITS.attachments.unusedTtlMs);
      const taken = await claimUploads(db, wanted, uploaderId, since, target);
      const takenIds = new Set(taken.map((row) => row.id));
      const refused = wanted.find((id) => !takenIds.has(id));
      if (refused !== undefined) {
        const message = MESSAGES.attachments.notUsable(refused);
        throw new ValidationError(message, { attachmentIds: message });
      }
      return taken.map(presentAttachment);
    },

    release,

    open: blobs.open,
    exists: blobs.exists,

    /**
     * The periodic sweep: uploads unused for LIMITS.attachments.unusedTtlMs go with their files, and
     * files no row names (a transaction rolled back after the rename, a crash mid-write) older than
     * `graceMs` are removed, temporary ones included.
     */
    async sweep(db: Db, now = new Date(), graceMs = 60 * 60 * 1000): Promise<{ unusedContents: number; files: number }> {
      const hashes = await deleteUnusedBefore(db, new Date(now.getTime() - LIMITS.attachments.unusedTtlMs));
      await release(db, hashes);
      let files = 0;
      const cutoff = now.getTime() - graceMs;
      for await (const file of blobs.files()) {
        if (file.modifiedAt.getTime() > cutoff) continue;
        if (file.sha256 === undefined) {
          await blobs.removeFile(file.file);
          files += 1;
        } else if (!(await contentInUse(db, file.sha256))) {
          await release(db, [file.sha256]);
          files += 1;
        }
      }
      return { unusedContents: hashes.length, files };
    },
  };
}

export type AttachmentStore = ReturnType<typeof createAttachmentStore>;
