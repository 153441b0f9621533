import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** How much of a message's start is kept to read its header section at intake. */
const HEADER_SCAN_BYTES = 64 * 1024;

export interface StoredRaw {
  sha256: string;
  size: number;
  /** The message's header section (or its first 64 KiB), for the few fields read at intake. */
  head: string;
}

export type RawWrite = StoredRaw | { tooLarge: true; size: number };

/**
 * Raw messages on disk by SHA-256 (DATA_DIR/mail/ab/abcdef….eml): written to a temporary file as they
 * arrive, synced, then renamed into place, so an accepted message is whole on disk before its row
 * exists, and a process never holds a whole message in memory to store it.
 */
export function createRawStore(root: string) {
  const fileOf = (sha256: string) => path.join(root, sha256.slice(0, 2), `${sha256}.eml`);

  return {
    fileOf,

    async write(source: AsyncIterable<Buffer | string> | Iterable<Buffer>, maxBytes: number): Promise<RawWrite> {
      const tmpDir = path.join(root, 'tmp');
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let headBytes = 0;
      let size = 0;
      const file = await open(tmp, 'wx');
      try {
        for await (const piece of source) {
          const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
          size += chunk.length;
          // Past the limit the rest is read (the sender must finish before it hears 552) but not kept.
          if (size > maxBytes) continue;
          hash.update(chunk);
          if (headBytes < HEADER_SCAN_BYTES) {
            head.push(chunk.subarray(0, HEADER_SCAN_BYTES - headBytes));
            headBytes += Math.min(chunk.length, HEADER_SCAN_BYTES - headBytes);
          }
          await file.write(chunk);
        }
        if (size <= maxBytes) await file.sync();
      } finally {
        await file.close();
      }
      if (size > maxBytes) {
        await unlink(tmp).catch(() => undefined);
        return { tooLarge: true, size };
      }
      const sha256 = hash.digest('hex');
      const target = fileOf(sha256);
      await mkdir(path.dirname(target), { recursive: true });
      // The same bytes again: the file there already holds them.
      if (await exists(target)) await unlink(tmp);
      else await rename(tmp, target);
      return { sha256, size, head: headerSection(Buffer.concat(head).toString('latin1')) };
    },

    open: (sha256: string): Readable => createReadStream(fileOf(sha256)),
    read: (sha256: string): Promise<Buffer> => readFile(fileOf(sha256)),
    exists: (sha256: string): Promise<boolean> => exists(fileOf(sha256)),
  };
}

export type RawStore = ReturnType<typeof createRawStore>;

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** The header section: everything before the first empty line. */
export function headerSection(start: string): string {
  const end = /\r?\n\r?\n/.exec(start);
  return end ? start.slice(0, end.index) : start;
}

/** One header's value from a header section, unfolded; the first occurrence. */
export function headerValue(head: string, name: string): string | undefined {
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const prefix = `${name.toLowerCase()}:`;
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(prefix));
  return line?.slice(prefix.length).trim();
}

// eslint-disable-next-line no-control-regex -- an id is one line of printable characters
const CONTROLS = /[\u0000-\u001f\u007f]/g;

/** A Message-ID without its angle brackets (what email_messages keeps), or undefined. */
export function bareMessageId(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const inBrackets = /<([^<>\s]{1,900})>/.exec(value);
  const id = (inBrackets ? inBrackets[1] : value.trim().split(/\s+/)[0])?.replace(CONTROLS, '');
  return id && id.length <= 900 ? id : undefined;
}
