import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';

const INDEX = '<!doctype html><div id="root"></div>';
const SCRIPT = 'console.log("app")';

describe('the web client on the API port', () => {
  let clientDir: string;
  let server: TestServer;
  /** The server's log at debug, one parsed line each, to check at which level each request is logged. */
  const logged: { level: number; msg: string; url?: string }[] = [];
  const get = (p: string, headers: Record<string, string> = {}) => fetch(`${server.url}${p}`, { headers });

  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-client-'));
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(path.join(clientDir, 'index.html'), INDEX);
    await writeFile(path.join(clientDir, 'favicon.svg'), '<svg/>');
    await writeFile(path.join(clientDir, 'assets', 'app-1a2b.js'), SCRIPT);
    await writeFile(path.join(clientDir, 'assets', 'app-1a2b.js.gz'), gzipSync(SCRIPT));
    const logger = createLogger('debug', { write: (line: string) => void logged.push(JSON.parse(line)) });
    server = await startTestServer({ CLIENT_DIR: clientDir }, { logger });
  });
  afterAll(async () => {
    await ifSetUp(server)?.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it.each(['/', '/login', '/ticket/12', '/no/such/page'])('answers the page %s with index.html, uncached, under a CSP', async (p) => {
    const res = await get(p);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(INDEX);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('serves hashed assets for a year, precompressed when the browser accepts gzip', async () => {
    const res = await get('/assets/app-1a2b.js', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toBe(SCRIPT); // fetch decodes it
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('serves other files as they are', async () => {
    const res = await get('/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/image\/svg/);
  });

  it('keeps a missing asset a 404 rather than answering HTML', async () => {
    const res = await get('/assets/gone-9z9z.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toMatch(/text\/html/);
  });

  it('leaves the API and its JSON 404 alone', async () => {
    const res = await get('/api/no-such-call');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ success: false, message: 'Not found' });
    expect((await get('/api/health')).status).toBe(200);
  });

  it('does not answer writes to page paths with the page', async () => {
    const res = await fetch(`${server.url}/dashboard`, { method: 'POST' });
    expect(res.status).toBe(404);
  });

  it.each(['/..%2f..%2f..%2fetc%2fpasswd', '/assets/..%2f..%2fpackage.json', '/..%5c..%5cpackage.json', '/%E0%A4%A'])(
    'refuses the path %s outside the client folder with a 404, not a 500',
    async (p) => {
      const res = await get(p);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ success: false, message: 'Not found' });
    },
  );

  it('puts the CSP and the frame ban on /index.html too, so no path lets another site frame the app', async () => {
    for (const p of ['/index.html', '/', '/ticket/3']) {
      const res = await get(p);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy'), p).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
    }
  });

  it('serves /robots.txt as text, not as the app page', async () => {
    const res = await get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('User-agent: *');
    expect(text).toContain('Allow: /knowledge');
    expect(text).not.toContain('<');
  });

  it('logs pages and assets at debug and API calls at info, so a page view does not bury the log', async () => {
    const DEBUG = 20;
    const INFO = 30;
    const levelOf = async (p: string) => {
      const requestId = `lvl-${Math.random().toString(36).slice(2)}`;
      await (await get(p, { 'x-request-id': requestId })).arrayBuffer();
      const line = logged.find((l) => l.msg === 'request' && (l as { reqId?: string }).reqId === requestId);
      return line?.level;
    };
    expect(await levelOf('/assets/app-1a2b.js')).toBe(DEBUG);
    expect(await levelOf('/favicon.svg')).toBe(DEBUG);
    expect(await levelOf('/ticket/4')).toBe(DEBUG);
    expect(await levelOf('/robots.txt')).toBe(DEBUG);
    expect(await levelOf('/api/health')).toBe(INFO);
    expect(await levelOf('/api/no-such-call')).toBe(INFO);
  });
});
