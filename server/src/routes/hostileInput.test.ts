/**
 * Every route the server registers × a table of hostile inputs (NUL and unpaired surrogates in every
 * field, overlong and deeply nested JSON, wrong types, odd content types, traversal and out-of-range
 * ids, odd query strings), sent anonymously and as an admin. Whatever the input, the answer is never
 * a 5xx, and every refusal is the `{success:false, message}` envelope. The route list comes from the
 * routers themselves, so a new route is covered the day it is added.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ENV, createCast, createTicket } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { registeredRoutes } from '../../test/routes.js';
import { startTestServer, type TestServer } from '../../test/server.js';

/** Every field name any route reads; each hostile body sets all of them. */
const FIELDS = [
  'title',
  'description',
  'priority',
  'status',
  'resolutionNotes',
  'assignedAgentId',
  'content',
  'name',
  'email',
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'role',
  'email_notifications',
  'category',
  'keywords',
  'attachmentIds',
];
const everyField = (value: unknown) => Object.fromEntries(FIELDS.map((f) => [f, value]));
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

interface Variant {
  name: string;
  /** Sent as-is (with `type`), or JSON-encoded. */
  raw?: string;
  body?: unknown;
  type?: string;
  /** Content-Encoding of the body. */
  encoding?: string;
  query?: string;
}

/** The first bytes of a real gzip stream: a valid header, then the end. */
const CUT_GZIP = gzipSync(JSON.stringify(everyField('valid text here')))
  .subarray(0, 16)
  .toString('latin1');

const BODY_VARIANTS: Variant[] = [
  { name: 'NUL in every field', body: everyField('ab\u0000cdefghijkl') },
  { name: 'a lone NUL', body: everyField('\u0000') },
  { name: 'unpaired surrogates', body: everyField('abc\uD800defghijkl') },
  { name: 'NUL in keyword lists', body: { ...everyField('valid text here'), keywords: ['a\u0000b'] } },
  { name: 'overlong strings', body: everyField('x'.repeat(20_000)) },
  { name: 'a body over the size limit', body: { title: 'x'.repeat(300_000) } },
  { name: 'numbers for strings', body: everyField(1e308) },
  { name: 'objects for strings', body: everyField({ $gt: '' }) },
  { name: 'arrays for strings', body: everyField(['a', 'b']) },
  { name: 'nulls', body: everyField(null) },
  { name: 'booleans', body: everyField(true) },
  {
    name: 'wrong entries in lists and nested fields',
    body: { ...everyField('valid text here'), ids: ['x', null], mentions: [{}], addTags: [5], filters: { search: 5, assignee: true } },
  },
  { name: 'huge ids', body: { ...everyField('x'), assignedAgentId: 2 ** 53 } },
  { name: 'negative ids', body: { ...everyField('x'), assignedAgentId: -1 } },
  { name: 'prototype keys', raw: '{"__proto__":{"role":"admin"},"constructor":{"prototype":{"x":1}}}', type: 'application/json' },
  { name: 'a JSON array', body: [everyField('x')] },
  { name: 'a JSON string', raw: '"hello"', type: 'application/json' },
  { name: 'JSON nested 5,000 deep', raw: nested(5_000), type: 'application/json' },
  { name: 'JSON nested 100,000 deep', raw: nested(100_000), type: 'application/json' },
  { name: 'malformed JSON', raw: '{"title": "x",', type: 'application/json' },
  { name: 'invalid UTF-8', raw: '{"title":"\xff\xfe"}', type: 'application/json' },
  { name: 'plain text', raw: 'title=hello', type: 'text/plain' },
  { name: 'a form', raw: 'title=hello&description=world', type: 'application/x-www-form-urlencoded' },
  {
    name: 'multipart',
    raw: '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\nhi\r\n--x--',
    type: 'multipart/form-data; boundary=x',
  },
  { name: 'JSON in an unknown charset', raw: '{}', type: 'application/json; charset=klingon' },
  { name: 'an unknown content type', raw: '{}', type: 'application/x-unknown' },
  { name: 'a body that is not gzip', raw: '{"title":"x"}', encoding: 'gzip' },
  { name: 'a cut-off gzip body', raw: CUT_GZIP, encoding: 'gzip' },
  { name: 'a body that is not deflate', raw: 'xxxx', encoding: 'deflate' },
  { name: 'a body that is not br', raw: 'xxxx', encoding: 'br' },
  { name: 'an unknown encoding', raw: '{}', encoding: 'klingon' },
];

const QUERY_VARIANTS: Variant[] = [
  { name: 'NUL in the search', query: 'search=a%00b' },
  { name: 'an unpaired surrogate in the search', query: 'search=a%ED%A0%80b' },
  { name: 'an overlong search', query: `search=${'x'.repeat(5_000)}` },
  { name: 'a regex-like search', query: 'search=%25_%5C%27%22%3B--' },
  { name: 'repeated parameters', query: 'status=open&status=closed&page=1&page=2' },
  { name: 'bracket parameters', query: 'status[]=open&search[$ne]=x' },
  { name: 'out-of-range paging', query: 'page=99999999999999999999&limit=-5' },
  { name: 'non-numeric paging', query: 'page=abc&limit=1e3' },
  { name: 'an unknown sort', query: 'sort=__proto__' },
  { name: 'bad enums', query: 'status=%00&priority=urgent%00&category=%00&role=root&mine=maybe' },
  { name: 'a bad flag', query: 'unread=perhaps' },
  { name: 'a broken escape', query: 'search=%E0%A4%A' },
];

const BAD_IDS = ['0', '-1', '1.5', '1e3', 'NaN', '99999999999', '2147483648', '%00', '..%2f..%2fetc%2fpasswd', '%E0%A4%A', 'x'.repeat(500)];

let t: TestServer;
let clientDir: string;
let tokens: Record<'anonymous' | 'admin' | 'owner', string | undefined>;
let ids: { ticket: number; article: number; user: number };

beforeAll(async () => {
  clientDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-hostile-'));
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
  t = await startTestServer({ ...ADMIN_ENV, CLIENT_DIR: clientDir });
  const cast = await createCast(t);
  const ticket = await createTicket(t.api, cast.owner.token);
  const article = await t.api.post(
    '/knowledge',
    { title: 'Hostile fixture', content: 'An article for hostile input.', category: 'general' },
    { token: cast.admin.token },
  );
  ids = { ticket: ticket.id, article: article.body.article.id, user: cast.other.user.id };
  tokens = { anonymous: undefined, admin: cast.admin.token, owner: cast.owner.token };
});
afterAll(async () => {
  await ifSetUp(t)?.close();
  await rm(clientDir, { recursive: true, force: true });
});

async function send(method: string, url: string, token: string | undefined, variant: Variant = { name: 'none' }) {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let body: Buffer | undefined;
  if (variant.raw !== undefined)
    body = Buffer.from(variant.raw, variant.name === 'invalid UTF-8' || variant.raw === CUT_GZIP ? 'latin1' : 'utf8');
  else if (variant.body !== undefined) body = Buffer.from(JSON.stringify(variant.body));
  if (body) headers['content-type'] = variant.type ?? 'application/json';
  if (body && variant.encoding) headers['content-encoding'] = variant.encoding;
  const res = await fetch(`${t.url}${url}`, { method, headers, body: method === 'GET' ? undefined : body });
  const text = await res.text();
  return { status: res.status, text, type: res.headers.get('content-type') ?? '' };
}

/** zod's own English ("Invalid input: expected string, received undefined"): never what a person reads. */
const LIBRARY_TEXT = /Invalid input|Invalid option|expected \w+, received|Too (big|small)|Unrecognized key|Invalid (string|element|key)/;

/** Never a 5xx; a refusal is the JSON envelope with a human message, on the whole and per field. */
function expectHandled(res: Awaited<ReturnType<typeof send>>, what: string) {
  expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
  if (res.status < 400) return;
  expect(res.type, what).toMatch(/application\/json/);
  const body = JSON.parse(res.text) as { success?: unknown; message?: unknown; errors?: Record<string, unknown> };
  expect(body.success, what).toBe(false);
  expect(typeof body.message, what).toBe('string');
  expect(String(body.message), what).not.toMatch(/stack|at \w+ \(|SELECT|INSERT|UPDATE|syntax|params/);
  for (const text of [body.message, ...Object.values(body.errors ?? {})]) expect(String(text), what).not.toMatch(LIBRARY_TEXT);
}

const withIds = (route: string) =>
  route
    .replace('/tickets/:id', `/tickets/${ids.ticket}`)
    .replace('/knowledge/:id', `/knowledge/${ids.article}`)
    .replace('/users/:id', `/users/${ids.user}`);

describe('hostile input on every route', () => {
  it('finds the routes to attack', () => {
    expect(registeredRoutes(t.server).length).toBeGreaterThanOrEqual(26);
  });

  for (const caller of ['anonymous', 'admin', 'owner'] as const) {
    it(`never answers 5xx to hostile bodies and queries (${caller})`, async () => {
      // Deleting routes run last, and only with ids that name nothing, so fixtures survive.
      for (const route of registeredRoutes(t.server)) {
        const [method, template] = route.split(' ') as [string, string];
        if (method === 'DELETE') continue;
        const url = `/api${withIds(template)}`;
        for (const variant of BODY_VARIANTS)
          expectHandled(await send(method, url, tokens[caller], variant), `${caller} ${route} with ${variant.name}`);
        for (const variant of QUERY_VARIANTS)
          expectHandled(await send(method, `${url}?${variant.query}`, tokens[caller]), `${caller} ${route} with ${variant.name}`);
      }
    }, 120_000);

    it(`never answers 5xx to malformed ids (${caller})`, async () => {
      for (const route of registeredRoutes(t.server).filter((r) => r.includes(':id'))) {
        const [method, template] = route.split(' ') as [string, string];
        for (const id of BAD_IDS) {
          const res = await send(method, `/api${template.replace(':id', id)}`, tokens[caller], {
            name: 'valid',
            body: { title: 'Valid title', content: 'Valid content here' },
          });
          expectHandled(res, `${caller} ${route} with id ${id}`);
          if (res.status !== 401 && res.status !== 403) expect([400, 404], `${caller} ${route} with id ${id}`).toContain(res.status);
        }
      }
    }, 60_000);
  }

  it.each([
    '/..%2f..%2f..%2fetc%2fpasswd',
    '/assets/..%2f..%2fpackage.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/%00',
    '/assets/%00.js',
    '/%E0%A4%A',
    '/..%5c..%5cetc%5cpasswd',
    '/api/..%2f..%2fpackage.json',
    '/socket.io/..%2f..%2fpackage.json',
  ])('refuses the traversal path %s with 400 or 404, disclosing nothing', async (p) => {
    const res = await fetch(`${t.url}${p}`);
    const text = await res.text();
    expect(res.status, text.slice(0, 200)).toBeLessThan(500);
    expect(text).not.toMatch(/root:|"name":\s*"helpdesk|"workspaces"/);
    if (res.status >= 400) expect([400, 404]).toContain(res.status);
  });
});
