import { existsSync } from 'node:fs';
import { readdir, writeFile, utimes, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments } from '../db/schema/index.js';
import { insertUser, type Account } from '../../test/factories.js';
import { PDF_MINIMAL, PNG_1X1 } from '../../test/files.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { BlobTooLargeError } from './store.js';

let t: TestServer;
let owner: Account;
let other: Account;
const MAX = 64 * 1024;

beforeAll(async () => {
  t = await startTestServer({ ATTACHMENT_MAX_BYTES: String(MAX) });
  owner = await insertUser(t);
  other = await insertUser(t);
});
afterAll(() => t.close());

const dir = () => path.join(t.dataDir, 'attachments');
const store = () => t.server.attachments;
const db = () => t.server.database.db;
const fileOf = (sha256: string) => path.join(dir(), sha256.slice(0, 2), sha256);
const rowOf = async (id: number) => (await db().select().from(attachments).where(eq(attachments.id, id)))[0];

async function ticketOf(account: Account): Promise<number> {
  const res = await t.api.post('/tickets', { title: 'Printer on fire', description: 'It smokes a little bit.' }, { token: account.token });
  return res.body.ticket.id as number;
}

describe('the attachment store', () => {
  it('keeps the bytes once under their SHA-256, the type sniffed and the name cleaned', async () => {
    const first = await store().store(db(), {
      uploaderId: owner.user.id,
      filename: '../../etc/\u202Egnp.exe',
      declaredType: 'text/plain',
      bytes: PNG_1X1,
    });
    const second = await store().store(db(), { uploaderId: other.user.id, filename: 'copy.png', bytes: Readable.from([PNG_1X1]) });
    expect(first).toMatchObject({ filename: 'gnp.exe', size: PNG_1X1.length, contentType: 'image/png' });
    expect(second.contentType).toBe('image/png');
    const [a, b] = [await rowOf(first.id), await rowOf(second.id)];
    expect(a!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(b!.sha256).toBe(a!.sha256);
    expect(a!.uploaderId).toBe(owner.user.id);
    expect(existsSync(fileOf(a!.sha256))).toBe(true);
    expect(await readdir(path.join(dir(), 'tmp'))).toEqual([]);
  });

  it('refuses more bytes than ATTACHMENT_MAX_BYTES and leaves nothing behind', async () => {
    const before = (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(attachments)
    )[0]!.n;
    const big = Readable.from([Buffer.alloc(MAX / 2, 1), Buffer.alloc(MAX / 2, 2), Buffer.alloc(1, 3)]);
    await expect(store().store(db(), { uploaderId: owner.user.id, filename: 'big.bin', bytes: big })).rejects.toBeInstanceOf(
      BlobTooLargeError,
    );
    const exact = await store().store(db(), { uploaderId: owner.user.id, filename: 'exact.bin', bytes: Buffer.alloc(MAX, 7) });
    expect(exact).toMatchObject({ size: MAX, contentType: 'text/plain' });
    const after = (
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(attachments)
    )[0]!.n;
    expect(after).toBe(before + 1);
    expect(await readdir(path.join(dir(), 'tmp'))).toEqual([]);
  });

  it("links only the uploader's own unused uploads under a day old", async () => {
    const ticketId = await ticketOf(owner);
    const mine = await store().store(db(), { uploaderId: owner.user.id, filename: 'a.pdf', bytes: PDF_MINIMAL });
    const theirs = await store().store(db(), { uploaderId: other.user.id, filename: 'b.pdf', bytes: PDF_MINIMAL });
    const old = await store().store(db(), { uploaderId: owner.user.id, filename: 'c.pdf', bytes: PDF_MINIMAL });
    await db()
      .update(attachments)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(attachments.id, old.id));

    const refused = (ids: number[]) => db().transaction((tx) => store().link(tx, ids, { ticketId }, owner.user.id));
    await expect(refused([mine.id, theirs.id])).rejects.toThrow(`Attachment ${theirs.id} cannot be used here`);
    await expect(refused([old.id])).rejects.toThrow(`Attachment ${old.id} cannot be used here`);
    expect((await rowOf(mine.id))!.ticketId).toBeNull(); // the refusal rolled the whole link back

    await db().transaction((tx) => store().link(tx, [mine.id], { ticketId }, owner.user.id));
    expect(await rowOf(mine.id)).toMatchObject({ ticketId, commentId: null });
    await expect(refused([mine.id])).rejects.toThrow(`Attachment ${mine.id} cannot be used here`);
  });

  it('removes a file with the last row that names it, and sweeps day-old unused uploads and orphan files', async () => {
    const bytes = Buffer.from('only here once, a unique text for this test');
    const one = await store().store(db(), { uploaderId: owner.user.id, filename: 'one.txt', bytes });
    const two = await store().store(db(), { uploaderId: owner.user.id, filename: 'two.txt', bytes });
    const sha256 = (await rowOf(one.id))!.sha256;

    await db().delete(attachments).where(eq(attachments.id, one.id));
    await store().release(db(), [sha256]);
    expect(existsSync(fileOf(sha256))).toBe(true);

    await db()
      .update(attachments)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(attachments.id, two.id));
    const orphan = 'f'.repeat(64);
    await mkdir(path.dirname(fileOf(orphan)), { recursive: true });
    await writeFile(fileOf(orphan), 'left by a rolled-back transaction');
    const young = 'e'.repeat(64);
    await mkdir(path.dirname(fileOf(young)), { recursive: true });
    await writeFile(fileOf(young), 'a transaction still running');
    const hourAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(fileOf(orphan), hourAgo, hourAgo);

    await store().sweep(db());
    expect(await rowOf(two.id)).toBeUndefined();
    expect(existsSync(fileOf(sha256))).toBe(false);
    expect(existsSync(fileOf(orphan))).toBe(false);
    expect(existsSync(fileOf(young))).toBe(true);
  });
});
