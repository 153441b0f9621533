// `npm run lighthouse`: Lighthouse (from npm) in Debian's Chromium against the built app, started on a
// fresh embedded database with the demo data, for the main screens at phone and desktop size. Prints
// performance, accessibility and best practices per page and exits 1 when one misses its target.
// Loopback only: the server listens on 127.0.0.1 and Chromium runs with its background traffic off.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer from 'puppeteer-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REPORT_DIR = process.env.LIGHTHOUSE_OUT;
// `LIGHTHOUSE_PAGES=/knowledge,/login` audits only those pages (`/ticket` stands for `/ticket/:id`);
// `LIGHTHOUSE_FORM_FACTORS=mobile` only that size. Both default to everything.
// `LIGHTHOUSE_TRACE=1` (with LIGHTHOUSE_OUT) also keeps each run's trace with JavaScript samples, for
// Chrome's Performance panel: what the long tasks are made of. The sampling slows the page a little.
const TRACE = Boolean(process.env.LIGHTHOUSE_TRACE) && Boolean(REPORT_DIR);
const ONLY_PAGES = listOption('LIGHTHOUSE_PAGES');
const FORM_FACTORS = listOption('LIGHTHOUSE_FORM_FACTORS') ?? ['mobile', 'desktop'];
for (const formFactor of FORM_FACTORS) {
  if (!['mobile', 'desktop'].includes(formFactor)) throw new Error(`LIGHTHOUSE_FORM_FACTORS: ${formFactor} is neither mobile nor desktop`);
}
const TARGETS = { performance: { mobile: 90, desktop: 95 }, accessibility: 100, 'best-practices': 100 };
const CATEGORIES = ['performance', 'accessibility', 'best-practices'];
const DEMO = {
  user: { email: 'user@helpdesk.local', password: 'User123!' },
  agent: { email: 'agent@helpdesk.local', password: 'Agent123!' },
};

for (const file of ['server/dist/main.js', 'client/dist/index.html']) {
  if (!existsSync(path.join(ROOT, file))) throw new Error(`${file} is missing: run \`npm run build\` first.`);
}
if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM} (Debian package: chromium).`);

const dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-lighthouse-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ['server/dist/main.js'], {
  cwd: ROOT,
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});

try {
  await waitForHealth();
  const agent = await signIn(DEMO.agent);
  const user = await signIn(DEMO.user);
  const tickets = await api('/tickets?limit=1', agent.token);
  const ticketId = tickets.tickets[0]?.id;
  if (!ticketId) throw new Error('the demo data has no ticket');

  const pages = [
    { path: '/login', as: null },
    { path: '/knowledge', as: null },
    { path: '/dashboard', as: user },
    { path: '/agent-dashboard', as: agent },
    { path: `/ticket/${ticketId}`, name: '/ticket', as: agent },
  ].filter((target) => !ONLY_PAGES || ONLY_PAGES.includes(target.name ?? target.path));
  if (pages.length === 0) throw new Error(`LIGHTHOUSE_PAGES names no audited page (${ONLY_PAGES.join(', ')})`);
  const rows = [];
  for (const formFactor of FORM_FACTORS) {
    for (const target of pages) {
      const scores = await audit(target, formFactor);
      rows.push({ page: target.path, formFactor, ...scores });
      console.log(line(rows.at(-1)));
    }
  }
  const missed = rows.filter((r) => misses(r).length > 0);
  console.log(
    `\nLighthouse ${lighthouseVersion()} · Chromium ${await browser.version()} · ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} · ${new Date().toISOString()}`,
  );
  console.log(missed.length === 0 ? 'Every page meets its targets.' : `${missed.length} of ${rows.length} runs miss a target (marked ✗).`);
  process.exitCode = missed.length === 0 ? 0 : 1;
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await rm(dataDir, { recursive: true, force: true });
}

async function audit({ path: pagePath, as }, formFactor) {
  const page = await browser.newPage();
  try {
    // The session lives in localStorage (keys token and user), as after signing in through the form.
    // Lighthouse must leave storage alone to keep it, so the HTTP cache is emptied here instead:
    // every page is measured as a first visit, not warmed by the page audited before it.
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
    await page.goto(`${origin}/robots.txt`);
    await page.evaluate((session) => {
      localStorage.clear();
      if (session) {
        localStorage.setItem('token', session.token);
        localStorage.setItem('user', JSON.stringify(session.user));
      }
    }, as);
    const flags = { output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: true };
    const config = formFactor === 'desktop' ? desktopConfig : { extends: 'lighthouse:default' };
    const traced = TRACE
      ? { ...config, settings: { ...config.settings, additionalTraceCategories: 'disabled-by-default-v8.cpu_profiler' } }
      : config;
    const result = await lighthouse(`${origin}${pagePath}`, flags, traced, page);
    const { lhr } = result;
    if (REPORT_DIR) {
      const name = `${formFactor}${pagePath.replaceAll('/', '_')}`;
      await mkdir(REPORT_DIR, { recursive: true });
      await writeFile(path.join(REPORT_DIR, `${name}.json`), JSON.stringify(lhr));
      if (TRACE) await writeFile(path.join(REPORT_DIR, `${name}.trace.json`), JSON.stringify(result.artifacts.Trace));
    }
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)]));
    const failing = CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
      lhr.categories[c].auditRefs
        .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1)
        .map((ref) => ref.id),
    );
    const ms = (id) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
    return { ...scores, failing, tbt: ms('total-blocking-time'), lcp: ms('largest-contentful-paint') };
  } finally {
    await page.close();
  }
}

function listOption(name) {
  const value = process.env[name]?.trim();
  return value ? value.split(',').map((item) => item.trim()) : undefined;
}

function misses(row) {
  const out = [];
  if (row.performance < TARGETS.performance[row.formFactor]) out.push('performance');
  if (row.accessibility < TARGETS.accessibility) out.push('accessibility');
  if (row['best-practices'] < TARGETS['best-practices']) out.push('best-practices');
  return out;
}

function line(row) {
  const mark = misses(row).length ? '✗' : '✓';
  const failing = row.failing.length ? `  (failing: ${row.failing.join(', ')})` : '';
  const timings = `TBT ${String(row.tbt).padStart(4)} ms  LCP ${String(row.lcp).padStart(5)} ms`;
  return `${mark} ${row.page.padEnd(18)} ${row.formFactor.padEnd(8)} performance ${String(row.performance).padStart(3)}  accessibility ${String(row.accessibility).padStart(3)}  best-practices ${String(row['best-practices']).padStart(3)}  ${timings}${failing}`;
}

async function api(pathname, token, body) {
  const res = await fetch(`${origin}/api${pathname}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body && JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function signIn(credentials) {
  const { token, user } = await api('/auth/login', undefined, credentials);
  return { token, user };
}

async function waitForHealth() {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error('the server exited during start-up');
    const ok = await fetch(`${origin}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not become healthy within 60 s');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
}

function lighthouseVersion() {
  return createRequire(import.meta.url)('lighthouse/package.json').version;
}
