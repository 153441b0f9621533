import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachments } from '../db/schema/index.js';
import { ADMIN_ENV, createCast, createTicket, insertUser } from '../../test/factories.js';
import { GIF_1X1, HTML_PAGE, PDF_MINIMAL, PNG_1X1, SVG_IMAGE } from '../../test/files.js';
import { expectRateLimited } from '../../test/rateLimited.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { download, upload, uploadIds, type UploadFile } from '../../test/uploads.js';

const MIB = 1024 * 1024;
let t: TestServer;
let cast: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  // A 1 MiB limit, so "over the limit" costs a megabyte, not 25.
  t = await startTestServer({ ...ADMIN_ENV, ATTACHMENT_MAX_BYTES: String(MIB) });
  cast = await createCast(t);
});
afterAll(() => t.close());

const png = (name = 'screenshot.png'): UploadFile => ({ name, bytes: PNG_1X1, type: 'image/png' });
const rowsOf = (uploaderId: number) => t.server.database.db.select().from(attachments).where(eq(attachments.uploaderId, uploaderId));
const fileOf = (sha256: string) => path.join(t.dataDir, 'attachments', sha256.slice(0, 2), sha256);
const notUsable = (id: number) => ({ success: false, message: `Attachment ${id} cannot be used here` });

async function commentWith(token: string, ticketId: number, attachmentIds: number[], internal = false) {
  const res = await t.api.post(`/tickets/${ticketId}/comments`, { content: 'See the attached files', internal, attachmentIds }, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.comment as { id: number; attachments: Array<{ id: number; filename: string; size: number; contentType: string }> };
}

describe('POST /api/uploads', () => {
  it('stores each file part and answers 201 with id, clean name, size and sniffed type', async () => {
    const res = await upload(t.url, cast.owner.token, [
      png(),
      { name: 'report.pdf', bytes: PDF_MINIMAL, type: 'application/pdf' },
      // The declared type is a claim: the bytes are a PNG.
      { name: 'notes.txt', bytes: PNG_1X1, type: 'text/plain' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      uploads: [
        { id: expect.any(Number), filename: 'screenshot.png', size: PNG_1X1.length, contentType: 'image/png' },
        { id: expect.any(Number), filename: 'report.pdf', size: PDF_MINIMAL.length, contentType: 'application/pdf' },
        { id: expect.any(Number), filename: 'notes.txt', size: PNG_1X1.length, contentType: 'image/png' },
      ],
    });
  });

  it('cleans names: path parts, separators and bidi characters go, 200 characters at most, empty → attachment', async () => {
    const res = await upload(t.url, cast.owner.token, [
      { name: '../../etc/passwd', bytes: Buffer.from('root:x:0:0') },
      { name: 'C:\\Users\\eve\\invoice\u202Efdp.exe', bytes: Buffer.from('MZ') },
      // Control characters: a browser never sends them raw in a part header (filename.test.ts covers them).
      { name: 'new\u2028line.txt', bytes: Buffer.from('x') },
      { name: `${'a'.repeat(300)}.txt`, bytes: Buffer.from('x') },
      { name: '\u2066\u2069', bytes: Buffer.from('x') },
    ]);
    expect(res.status).toBe(201);
    const names = (res.body as { uploads: Array<{ filename: string }> }).uploads.map((u) => u.filename);
    expect(names).toEqual(['passwd', 'invoicefdp.exe', 'newline.txt', `${'a'.repeat(196)}.txt`, 'attachment']);
  });

  it('refuses a file over ATTACHMENT_MAX_BYTES with 413 and keeps none of the request', async () => {
    const before = (await rowsOf(cast.other.user.id)).length;
    const res = await upload(t.url, cast.other.token, [png(), { name: 'big.bin', bytes: Buffer.alloc(MIB + 1, 1) }]);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ success: false, message: 'Each file can be at most 1 MB' });
    expect((await rowsOf(cast.other.user.id)).length).toBe(before);
    const exactly = await upload(t.url, cast.other.token, [{ name: 'exact.bin', bytes: Buffer.alloc(MIB, 1) }]);
    expect(exactly.status).toBe(201);
  });

  it('refuses 21 files with 400 and keeps none of them', async () => {
    const before = (await rowsOf(cast.agent.user.id)).length;
    const files = Array.from({ length: 21 }, (_, i) => ({ name: `f${i}.txt`, bytes: Buffer.from(`file ${i}`) }));
    const res = await upload(t.url, cast.agent.token, files);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, message: 'At most 20 files can be attached at once' });
    expect((await rowsOf(cast.agent.user.id)).length).toBe(before);
    expect((await upload(t.url, cast.agent.token, files.slice(0, 20))).status).toBe(201);
  });

  it('answers 415 to a body that is not multipart/form-data, 401 without a session, 400 without a file part', async () => {
    const json = await t.api.post('/uploads', { file: 'hello' }, { token: cast.owner.token });
    expect(json.status).toBe(415);
    expect(json.body).toEqual({ success: false, message: 'Uploads must be sent as multipart/form-data' });
    const noBoundary = await t.api.request('POST', '/uploads', {
      token: cast.owner.token,
      raw: 'x',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.status).toBe(415);
    // A body cut off inside its file part, or before its closing boundary: 400, and the server lives on.
    const head = '--XB\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhi';
    for (const raw of [head, `${head}\r\n`, `${head}\r\n--XB\r\nContent-Disposition: form-data; name="note"\r\n\r\nx`]) {
      const cut = await t.api.request('POST', '/uploads', {
        token: cast.owner.token,
        raw,
        headers: { 'content-type': 'multipart/form-data; boundary=XB' },
      });
      expect(cut.status, raw).toBe(400);
      expect(cut.body).toEqual({ success: false, message: 'The request could not be understood' });
    }
    // Eleven other fields before the file: refused as a whole rather than the file skipped unseen.
    const fields = Array.from({ length: 11 }, (_, i) => `--XB\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`).join('');
    const crowded = await t.api.request('POST', '/uploads', {
      token: cast.owner.token,
      raw: `${fields}${head}\r\n--XB--\r\n`,
      headers: { 'content-type': 'multipart/form-data; boundary=XB' },
    });
    expect(crowded.status).toBe(400);
    expect(crowded.body).toEqual({ success: false, message: 'The request could not be understood' });
    expect((await upload(t.url, cast.owner.token, [png()])).status).toBe(201);
    expect((await upload(t.url, undefined, [png()])).status).toBe(401);
    const otherField = await upload(t.url, cast.owner.token, [png()], 'document');
    expect(otherField.status).toBe(400);
    expect(otherField.body).toMatchObject({ message: 'Choose at least one file to upload' });
  });
});

describe('attachmentIds on tickets and comments', () => {
  it('gives a new ticket its files: TicketDetail.attachments, readable by the owner and staff only', async () => {
    const [imageId, pdfId] = await uploadIds(t.url, cast.owner.token, [png(), { name: 'report.pdf', bytes: PDF_MINIMAL }]);
    const res = await t.api.post(
      '/tickets',
      { title: 'Printer prints pictures', description: 'Only pictures, see the screenshot.', attachmentIds: [imageId, pdfId] },
      { token: cast.owner.token },
    );
    expect(res.status).toBe(201);
    const detail = await t.api.get(`/tickets/${res.body.ticket.id}`, { token: cast.agent.token });
    expect(detail.body.ticket.attachments).toEqual([
      { id: imageId, filename: 'screenshot.png', size: PNG_1X1.length, contentType: 'image/png' },
      { id: pdfId, filename: 'report.pdf', size: PDF_MINIMAL.length, contentType: 'application/pdf' },
    ]);
    for (const token of [cast.owner.token, cast.agent.token, cast.admin.token]) {
      const file = await download(t.url, token, imageId!);
      expect(file.status).toBe(200);
      expect(file.bytes.equals(PNG_1X1)).toBe(true);
    }
    const stranger = await download(t.url, cast.other.token, imageId!);
    expect(stranger.status).toBe(404);
    expect(stranger.json).toEqual({ success: false, message: 'Attachment not found' });
    expect((await download(t.url, undefined, imageId!)).status).toBe(401);
    expect((await download(t.url, cast.owner.token, 2_000_000)).json).toEqual({ success: false, message: 'Attachment not found' });
  });

  it("refuses another user's upload, a used one and a day-old one, creating nothing", async () => {
    const [theirs] = await uploadIds(t.url, cast.other.token, [png()]);
    const [mine, old] = await uploadIds(t.url, cast.owner.token, [png('a.png'), png('b.png')]);
    await t.server.database.db
      .update(attachments)
      .set({ createdAt: new Date(Date.now() - 24 * 3600_000 - 60_000) })
      .where(eq(attachments.id, old!));
    const ticket = await createTicket(t.api, cast.owner.token);
    const comments = async () => (await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token })).body.ticket.comments.length;

    const stolen = await t.api.post(
      `/tickets/${ticket.id}/comments`,
      { content: 'Mine now', attachmentIds: [mine, theirs] },
      { token: cast.owner.token },
    );
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject(notUsable(theirs!));
    const stale = await t.api.post(
      `/tickets/${ticket.id}/comments`,
      { content: 'Late', attachmentIds: [old] },
      { token: cast.owner.token },
    );
    expect(stale.body).toMatchObject(notUsable(old!));
    expect(await comments()).toBe(0);
    const titles = async () => (await t.api.get('/tickets', { token: cast.owner.token })).body.total as number;
    const count = await titles();
    const newTicket = await t.api.post(
      '/tickets',
      { title: 'With a stolen file', description: 'This must not be created.', attachmentIds: [theirs] },
      { token: cast.owner.token },
    );
    expect(newTicket.status).toBe(400);
    expect(newTicket.body).toMatchObject(notUsable(theirs!));
    expect(await titles()).toBe(count);

    await commentWith(cast.owner.token, ticket.id, [mine!]);
    const again = await t.api.post(
      `/tickets/${ticket.id}/comments`,
      { content: 'Twice', attachmentIds: [mine] },
      { token: cast.owner.token },
    );
    expect(again.body).toMatchObject(notUsable(mine!));
    // Staff cannot take a customer's upload either.
    const [fresh] = await uploadIds(t.url, cast.owner.token, [png()]);
    const byAgent = await t.api.post(
      `/tickets/${ticket.id}/comments`,
      { content: 'Taken', attachmentIds: [fresh] },
      { token: cast.agent.token },
    );
    expect(byAgent.body).toMatchObject(notUsable(fresh!));
  });

  it('validates attachmentIds: ids only, at most ATTACHMENT_MAX_COUNT', async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const bad = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Hi', attachmentIds: ['x'] }, { token: cast.owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ attachmentIds: 'Attachments must be a list of upload ids' });
    const many = Array.from({ length: 21 }, (_, i) => i + 1);
    const tooMany = await t.api.post(`/tickets/${ticket.id}/comments`, { content: 'Hi', attachmentIds: many }, { token: cast.owner.token });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe('At most 20 files can be attached at once');
  });

  it("keeps an internal note's files from the owner: not in the thread, 404 on download", async () => {
    const ticket = await createTicket(t.api, cast.owner.token);
    const [noteFile] = await uploadIds(t.url, cast.agent.token, [{ name: 'internal.pdf', bytes: PDF_MINIMAL }]);
    const [replyFile] = await uploadIds(t.url, cast.agent.token, [png('answer.png')]);
    const note = await commentWith(cast.agent.token, ticket.id, [noteFile!], true);
    const reply = await commentWith(cast.agent.token, ticket.id, [replyFile!]);
    expect(note.attachments.map((a) => a.id)).toEqual([noteFile]);
    expect(reply.attachments).toEqual([{ id: replyFile, filename: 'answer.png', size: PNG_1X1.length, contentType: 'image/png' }]);

    const ownerView = await t.api.get(`/tickets/${ticket.id}`, { token: cast.owner.token });
    expect(JSON.stringify(ownerView.body)).not.toContain('internal.pdf');
    expect(ownerView.body.ticket.comments.map((c: { attachments: unknown[] }) => c.attachments.length)).toEqual([1]);
    const owner = await download(t.url, cast.owner.token, noteFile!);
    expect(owner.status).toBe(404);
    expect(owner.json).toEqual({ success: false, message: 'Attachment not found' });
    expect((await download(t.url, cast.owner.token, replyFile!)).status).toBe(200);
    expect((await download(t.url, cast.agent.token, noteFile!)).status).toBe(200);
    expect((await download(t.url, cast.admin.token, noteFile!)).status).toBe(200);
    const staffView = await t.api.get(`/tickets/${ticket.id}/comments?before=${reply.id + 1000}`, { token: cast.agent.token });
    expect(staffView.status).toBe(200);
  });
});

describe('GET /api/attachments/:id headers', () => {
  let ticketId: number;
  const fileIds: Record<string, number> = {};

  beforeAll(async () => {
    ticketId = (await createTicket(t.api, cast.owner.token)).id;
    const files: UploadFile[] = [
      { name: 'photo.png', bytes: PNG_1X1, type: 'image/png' },
      { name: 'anim.GIF', bytes: GIF_1X1, type: 'image/gif' },
      { name: 'page.html', bytes: HTML_PAGE, type: 'text/html' },
      { name: 'logo.svg', bytes: SVG_IMAGE, type: 'image/svg+xml' },
      { name: 'disguised.html', bytes: PNG_1X1, type: 'text/html' },
      { name: 'Résumé (final) 😀.pdf', bytes: PDF_MINIMAL, type: 'application/pdf' },
    ];
    const ids = await uploadIds(t.url, cast.owner.token, files);
    await commentWith(cast.owner.token, ticketId, ids);
    files.forEach((f, i) => (fileIds[f.name] = ids[i]!));
  });

  const get = (name: string) => download(t.url, cast.agent.token, fileIds[name]!);

  it('shows a raster image inline when its bytes are what its name says', async () => {
    for (const [name, type] of [
      ['photo.png', 'image/png'],
      ['anim.GIF', 'image/gif'],
    ] as const) {
      const res = await get(name);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toBe(`inline; filename*=UTF-8''${encodeURIComponent(name)}`);
    }
  });

  it('serves HTML, SVG and a PNG named .html as attachments, sandboxed and never sniffed', async () => {
    for (const [name, type] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
      ['disguised.html', 'image/png'],
    ] as const) {
      const res = await get(name);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''${name}`);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    }
    expect((await get('page.html')).bytes.equals(HTML_PAGE)).toBe(true);
  });

  it('encodes any name as RFC 8187 UTF-8, so it cannot break the header', async () => {
    const res = await get('Résumé (final) 😀.pdf');
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''R%C3%A9sum%C3%A9%20%28final%29%20%F0%9F%98%80.pdf");
    expect(res.headers.get('content-length')).toBe(String(PDF_MINIMAL.length));
  });
});

describe('deleted with the last reference', () => {
  it('a deleted ticket takes its files; the bytes go once no row names them', async () => {
    const shared = Buffer.from('bytes kept by two tickets, removed with the second');
    const only = Buffer.from('bytes of one ticket alone');
    const a = await uploadIds(t.url, cast.other.token, [
      { name: 'shared.txt', bytes: shared },
      { name: 'only.txt', bytes: only },
    ]);
    const [b] = await uploadIds(t.url, cast.other.token, [{ name: 'shared-too.txt', bytes: shared }]);
    const first = await t.api.post(
      '/tickets',
      { title: 'First with files', description: 'Files attached here.', attachmentIds: a },
      { token: cast.other.token },
    );
    const second = await t.api.post(
      '/tickets',
      { title: 'Second with files', description: 'Files attached here.', attachmentIds: [b] },
      { token: cast.other.token },
    );
    const rows = await t.server.database.db
      .select()
      .from(attachments)
      .where(sql`${attachments.id} in (${a[0]}, ${a[1]}, ${b})`);
    const sha = Object.fromEntries(rows.map((r) => [r.filename, r.sha256]));
    expect(sha['shared.txt']).toBe(sha['shared-too.txt']);

    expect((await t.api.delete(`/tickets/${first.body.ticket.id}`, { token: cast.other.token })).status).toBe(200);
    expect((await download(t.url, cast.other.token, a[0]!)).status).toBe(404);
    expect(existsSync(fileOf(sha['only.txt']!))).toBe(false);
    expect(existsSync(fileOf(sha['shared.txt']!))).toBe(true);
    expect((await download(t.url, cast.other.token, b!)).bytes.equals(shared)).toBe(true);

    expect((await t.api.delete(`/tickets/${second.body.ticket.id}`, { token: cast.other.token })).status).toBe(200);
    expect(existsSync(fileOf(sha['shared.txt']!))).toBe(false);
  });

  it('an unused upload is readable by its uploader alone until the sweep removes it after a day', async () => {
    const [id] = await uploadIds(t.url, cast.owner.token, [{ name: 'draft.txt', bytes: Buffer.from('an upload never sent') }]);
    expect((await download(t.url, cast.owner.token, id!)).status).toBe(200);
    expect((await download(t.url, cast.agent.token, id!)).status).toBe(404);
    const [row] = await t.server.database.db.select().from(attachments).where(eq(attachments.id, id!));
    await t.server.attachments.sweep(t.server.database.db, new Date(Date.now() + 24 * 3600_000 + 60_000));
    expect((await download(t.url, cast.owner.token, id!)).status).toBe(404);
    expect(existsSync(fileOf(row!.sha256))).toBe(false);
  });
});

describe('upload budgets', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer(
      {},
      { rateLimits: { uploadPerUser: { points: 2, durationSeconds: 60 }, uploadPerAddress: { points: 4, durationSeconds: 60 } } },
    );
  });
  afterAll(() => limited.close());

  it('counts upload requests per account, then per address', async () => {
    const [first, second, third] = [await insertUser(limited), await insertUser(limited), await insertUser(limited)];
    for (let i = 0; i < 2; i++) expect((await upload(limited.url, first.token, [png()])).status).toBe(201);
    expectRateLimited(
      await upload(limited.url, first.token, [png()]),
      'You are uploading files too quickly. Please wait a minute and try again.',
      60,
    );
    for (let i = 0; i < 2; i++) expect((await upload(limited.url, second.token, [png()])).status).toBe(201);
    expectRateLimited(
      await upload(limited.url, third.token, [png()]),
      'Too many uploads from this address. Please wait a minute and try again.',
      60,
    );
  });
});
