import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES } from './contentType.js';

/** More bytes than the limit in force arrived; nothing was kept. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** Bytes written to a temporary file, hashed on the way: `keep` moves them under their hash. */
export interface WrittenBlob {
  sha256: string;
  size: number;
  /** The first bytes, for sniffing the type. */
  head: Buffer;
  tempPath: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Files by content (docs/decisions.md#attachments): `<dir>/<first two hex digits>/<sha256>`, written to
 * `<dir>/tmp` first and renamed into place, so a reader never sees half a file and a crash leaves only
 * a temporary file behind. The same bytes are kept once, however many rows name them.
 */
export function createBlobStore(dir: string) {
  const tmpDir = path.join(dir, 'tmp');
  const pathOf = (sha256: string) => {
    if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
    return path.join(dir, sha256.slice(0, 2), sha256);
  };

  return {
    /** Streams the bytes to a temporary file; past `maxBytes` it stops, removes it and throws BlobTooLargeError. */
    async write(bytes: Uint8Array | Readable, maxBytes: number): Promise<WrittenBlob> {
      await mkdir(tmpDir, { recursive: true });
      const tempPath = path.join(tmpDir, randomUUID());
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let headLength = 0;
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBytes) {
            done(new BlobTooLargeError(maxBytes));
            return;
          }
          hash.update(chunk);
          if (headLength < SNIFF_BYTES) {
            const part = chunk.subarray(0, SNIFF_BYTES - headLength);
            head.push(part);
            headLength += part.length;
          }
          done(null, chunk);
        },
      });
      const source = bytes instanceof Readable ? bytes : Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
      try {
        await pipeline(source, meter, createWriteStream(tempPath, { flags: 'wx' }));
      } catch (error) {
        await rm(tempPath, { force: true });
        throw error;
      }
      return { sha256: hash.digest('hex'), size, head: Buffer.concat(head), tempPath };
    },

    /** Moves written bytes under their hash; when the same content is there already, it stays as it is. */
    async keep(blob: WrittenBlob): Promise<void> {
      const target = pathOf(blob.sha256);
      await mkdir(path.dirname(target), { recursive: true });
      const present = await stat(target).then(
        () => true,
        () => false,
      );
      if (present) await rm(blob.tempPath, { force: true });
      else await rename(blob.tempPath, target);
    },

    discard: (blob: WrittenBlob) => rm(blob.tempPath, { force: true }),

    open: (sha256: string): ReadStream => createReadStream(pathOf(sha256)),

    exists: (sha256: string): Promise<boolean> =>
      stat(pathOf(sha256)).then(
        () => true,
        () => false,
      ),

    remove: (sha256: string) => rm(pathOf(sha256), { force: true }),

    /** A file `files()` listed (a temporary file left by a crash). */
    removeFile: (file: string) => rm(file, { force: true }),

    /** Every kept file and temporary file with its age, for the sweep of what no row names. */
    async *files(): AsyncGenerator<{ sha256?: string; file: string; modifiedAt: Date }> {
      const shards = await readdir(dir).catch(() => [] as string[]);
      for (const shard of shards) {
        const shardDir = path.join(dir, shard);
        for (const name of await readdir(shardDir).catch(() => [] as string[])) {
          const file = path.join(shardDir, name);
          const info = await stat(file).catch(() => undefined);
          if (!info?.isFile()) continue;
          yield { ...(SHA256.test(name) && shard !== 'tmp' && { sha256: name }), file, modifiedAt: info.mtime };
        }
      }
    },
  };
}

export type BlobStore = ReturnType<typeof createBlobStore>;
