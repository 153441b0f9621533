import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { MESSAGES } from '@helpdesk/protocol';
import { AppError, ValidationError } from '../lib/errors.js';
import type { AppContext } from './state.js';

export interface FilePart {
  stream: Readable;
  filename: string | undefined;
  mimeType: string;
  /** Read after the stream ended: busboy cut the file at the size limit. */
  truncated: () => boolean;
}

export interface MultipartLimits {
  /** Bytes per file; one byte more marks it truncated. */
  maxBytes: number;
  maxCount: number;
}

export class TooManyFilesError extends Error {}

const notMultipart = () => new AppError(415, MESSAGES.attachments.notMultipart);
/** Sent as multipart, but cut off or malformed inside (docs/api.md#errors). */
const unreadable = () => new ValidationError(MESSAGES.http.badRequest);

/**
 * Reads the `file` parts of a multipart/form-data request one after another as they stream in, each
 * handed to `onFile` (which reads it to its end). Resolves with what each returned once the body has
 * ended; rejects with the first failure, TooManyFilesError past `maxCount` files, or a 415 / 400 for a
 * body that is not multipart, is malformed or carries more than 10 other fields. Results of the other files are returned to `cleanUp`
 * when the request as a whole fails, so nothing half-done is kept.
 */
export function readFileParts<T>(
  ctx: AppContext,
  limits: MultipartLimits,
  onFile: (part: FilePart) => Promise<T>,
  cleanUp: (done: T) => Promise<void>,
): Promise<T[]> {
  if (!ctx.is('multipart/form-data')) throw notMultipart();
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      preservePath: true, // names are cleaned in one place (attachments/filename.ts)
      defParamCharset: 'utf8',
      limits: { files: limits.maxCount, fileSize: limits.maxBytes + 1, fields: 10, fieldSize: 1024, parts: limits.maxCount + 10 },
    });
  } catch {
    throw notMultipart(); // no boundary, or not a type busboy reads
  }
  const req = ctx.req;

  return new Promise<T[]>((resolve, reject) => {
    const pending: Promise<T>[] = [];
    let failure: unknown;
    let finished = false;

    const finish = async () => {
      if (finished) return;
      finished = true;
      const results = await Promise.allSettled(pending);
      const done = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      const error: unknown = failure ?? refused?.reason;
      if (error === undefined) {
        resolve(done);
        return;
      }
      await Promise.allSettled(done.map(cleanUp));
      reject(error instanceof Error ? error : new Error('upload failed'));
    };
    /** Stops reading: the rest of the body is drained by Node once the answer is sent. */
    const fail = (error: unknown) => {
      failure ??= error;
      req.unpipe(parser);
      req.resume();
      void finish();
    };

    parser.on('file', (name, stream, info) => {
      // A body that ends inside a part errs on the part's stream, maybe before anyone reads it: an
      // error nobody listens for would end the process.
      stream.on('error', () => fail(unreadable()));
      if (name !== 'file' || failure !== undefined) {
        stream.resume();
        return;
      }
      const handled = onFile({
        stream,
        filename: info.filename,
        mimeType: info.mimeType,
        truncated: () => stream.truncated === true,
      });
      // A file that failed midway leaves its stream unread, and busboy would wait for it forever.
      handled.catch((error: unknown) => fail(error));
      pending.push(handled);
    });
    parser.on('filesLimit', () => fail(new TooManyFilesError()));
    // Past these busboy skips parts without a word, and a file after them would be lost: refuse instead.
    parser.on('fieldsLimit', () => fail(unreadable()));
    parser.on('partsLimit', () => fail(unreadable()));
    parser.on('error', () => fail(unreadable()));
    parser.on('close', () => void finish());
    req.on('aborted', () => fail(unreadable()));
    req.pipe(parser);
  });
}
