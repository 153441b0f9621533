import { LIMITS, type Attachment } from '@helpdesk/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { screenMessage } from '../../api/ApiError';
import { uploadFile } from '../../api/attachments';
import { ATTACHMENT_TEXT } from './texts';

/** A file picked for the next comment or ticket, from the moment it is picked until it is sent. */
export interface DraftFile {
  key: string;
  name: string;
  size: number;
  /** 0–1 while it goes up. */
  progress: number;
  status: 'uploading' | 'done' | 'failed';
  attachment?: Attachment;
  error?: string;
}

export interface AttachmentDraft {
  files: DraftFile[];
  /** Starts uploading each file at once; past the count in force the rest are refused with a message. */
  add(picked: File[]): void;
  remove(key: string): void;
  /** After a send: the uploads now belong to what was sent. */
  clear(): void;
  /** The uploads to send as `attachmentIds`. */
  ids: number[];
  uploading: boolean;
  /** Why some picked files were not taken. */
  refusal: string | null;
}

let sequence = 0;

/**
 * The files of a composer or form (docs/product.md#attachments): each goes up in its own request as
 * soon as it is picked, so its progress shows and a send waits only for what is still uploading.
 */
export function useAttachmentDraft(): AttachmentDraft {
  const [files, setFiles] = useState<DraftFile[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const uploads = useRef(new Map<string, AbortController>());
  // How many files are picked, ahead of the next render when several picks come at once.
  const count = useRef(0);
  useEffect(() => {
    count.current = files.length;
  }, [files.length]);

  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const controller of running.values()) controller.abort();
    };
  }, []);

  const update = useCallback((key: string, patch: Partial<DraftFile>) => {
    setFiles((list) => list.map((f) => (f.key === key ? { ...f, ...patch } : f)));
  }, []);

  const add = useCallback(
    (picked: File[]) => {
      const room = Math.max(0, LIMITS.attachments.maxCount - count.current);
      setRefusal(picked.length > room ? ATTACHMENT_TEXT.tooMany : null);
      const taken = picked.slice(0, room);
      count.current += taken.length;
      const added = taken.map((file) => ({ file, key: `file-${++sequence}` }));
      setFiles((list) => [
        ...list,
        ...added.map(({ file, key }) => ({ key, name: file.name, size: file.size, progress: 0, status: 'uploading' as const })),
      ]);
      for (const { file, key } of added) {
        const controller = new AbortController();
        uploads.current.set(key, controller);
        uploadFile(file, (progress) => update(key, { progress }), controller.signal)
          .then(
            (attachment) => update(key, { status: 'done', progress: 1, attachment, name: attachment.filename }),
            (error: unknown) => {
              if (!controller.signal.aborted) update(key, { status: 'failed', error: screenMessage(error, ATTACHMENT_TEXT.uploadFailed) });
            },
          )
          .finally(() => uploads.current.delete(key));
      }
    },
    [update],
  );

  const remove = useCallback((key: string) => {
    uploads.current.get(key)?.abort();
    uploads.current.delete(key);
    setRefusal(null);
    setFiles((list) => list.filter((f) => f.key !== key));
  }, []);

  const clear = useCallback(() => {
    setRefusal(null);
    setFiles([]);
  }, []);

  return useMemo(
    () => ({
      files,
      add,
      remove,
      clear,
      ids: files.flatMap((f) => (f.attachment ? [f.attachment.id] : [])),
      uploading: files.some((f) => f.status === 'uploading'),
      refusal,
    }),
    [files, add, remove, clear, refusal],
  );
}
