import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { ADMIN_ENV, TEST_ADMIN } from '../../server/test/factories';
import { startTestServer, type TestServer } from '../../server/test/server';
import { axeViolations, describeViolations, expectAccessible } from './accessibility';

export { TEST_ADMIN };

/** E2E_CLIENT_DIR lets parallel work test its own build without clobbering client/dist. */
const CLIENT_DIST = process.env.E2E_CLIENT_DIR ?? fileURLToPath(new URL('../dist', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * The product as a visitor meets it: the real server on a fresh embedded database serving the
 * built client, on a loopback port. No step may quietly skip, so a missing build or browser fails.
 */
export async function startProduct(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ ...ADMIN_ENV, CLIENT_DIR: builtClient(), ...env });
}

/** The built client's folder; a missing build fails the journey. */
export function builtClient(): string {
  if (!existsSync(path.join(CLIENT_DIST, 'index.html'))) {
    throw new Error(`The client is not built (${CLIENT_DIST}). Run \`npm run build\` before the browser journeys.`);
  }
  return CLIENT_DIST;
}

export interface Stage {
  readonly product: TestServer;
  readonly browser: Browser;
}

/** One product and one browser for a test file: started before its tests, stopped after them. */
export function useStage(env: Record<string, string> = {}): Stage {
  // Empty until beforeAll fills it: when that fails, afterAll has nothing to stop and must not mask the failure.
  const stage: { product?: TestServer; browser?: Browser } = {};
  beforeAll(async () => {
    [stage.product, stage.browser] = await Promise.all([startProduct(env), launchBrowser()]);
  });
  afterAll(async () => {
    await stage.browser?.close();
    await stage.product?.close();
  });
  // The tests read it only after beforeAll has filled it.
  return stage as Stage;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}. Install Debian's package: apt-get install -y chromium`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface Visitor {
  context: BrowserContext;
  page: Page;
  /**
   * Checks the page with axe-core, then saves a screenshot as e2e/screenshots/<journey>/<nn>-<name>.png:
   * the whole page, or with `screen` what the visitor sees (a pinned box, an open menu).
   */
  shot: (name: string, options?: { screen?: boolean }) => Promise<void>;
  /** Checks the page as it is now with axe-core; fails on any violation. */
  checkAccessibility: (where?: string) => Promise<void>;
}

/** How long a page must stay quiet after a navigation before axe checks it. */
const SETTLE_MS = 400;

/**
 * Waits until the screen has loaded and rendered its heading (or a while without one, which axe
 * reports). After an in-app navigation the document's network went idle long ago, so the loader of a
 * lazily loaded screen is waited out too; the previous screen's heading may still be up, so it goes first.
 */
async function screenSettled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => {});
  await page.waitForSelector('[data-page-loader]', { state: 'detached', timeout: 10_000 }).catch(() => {});
  await page.waitForSelector('h1', { state: 'visible', timeout: 5_000 }).catch(() => {});
}

/** A fresh browser profile (its own localStorage) on the product, sized like a laptop unless told. */
export async function openVisitor(
  browser: Browser,
  baseURL: string,
  journey: string,
  viewport = { width: 1280, height: 860 },
): Promise<Visitor> {
  // Reduced motion: Mantine then skips its transitions, so screenshots never catch a half-faded dialog.
  const context = await browser.newContext({ baseURL, viewport, reducedMotion: 'reduce' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const dir = path.join(SCREENSHOTS, journey);
  await mkdir(dir, { recursive: true });
  let count = 0;
  const journeyName = journey;

  // Every page the visitor reaches (loads and in-app navigations alike) is checked with axe-core once
  // it has settled; whatever is found fails the test when it finishes, listed by page.
  const found: string[] = [];
  let checks: Promise<void> = Promise.resolve();
  // One axe run at a time per page: axe refuses to start while another run is under way.
  let axeLock: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(run: () => Promise<T>): Promise<T> => {
    const next = axeLock.then(run);
    axeLock = next.catch(() => undefined);
    return next;
  };
  // Each navigation gets a number: a check whose page has since been left, even for a later visit to
  // the same address (signed out, then back after signing in), gives way to the newer check.
  let visits = 0;
  const checkVisited = async (url: string, visit: number) => {
    const current = () => !page.isClosed() && page.url() === url && visits === visit;
    try {
      await screenSettled(page);
      await page.waitForTimeout(SETTLE_MS);
      if (!current()) return; // moved on: the next page is checked instead
      const violations = await exclusive(() => axeViolations(page));
      // An in-app navigation during the run means part of it saw the next page, which gets its own check.
      if (!current()) return;
      if (violations.length > 0) found.push(describeViolations(`${journeyName}: ${url}`, violations));
    } catch (error) {
      // Leaving the page mid-check (a reload, a link) is not a finding; the next page is checked.
      const left = !current() || /Execution context was destroyed|Target .*closed/.test(String(error));
      if (!left) found.push(`axe could not check ${url}: ${String(error)}`);
    }
  };
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame() || frame.url() === 'about:blank') return;
    const url = frame.url();
    const visit = ++visits;
    checks = checks.then(() => checkVisited(url, visit));
  });
  onTestFinished(async () => {
    await checks;
    if (found.length > 0) throw new Error(found.join('\n'));
  });

  return {
    context,
    page,
    shot: async (name, { screen = false } = {}) => {
      count += 1;
      await screenSettled(page);
      await exclusive(() => expectAccessible(page, `${journeyName} (${name}): ${page.url()}`));
      const file = path.join(dir, `${String(count).padStart(2, '0')}-${name}.png`);
      if (screen) {
        await page.screenshot({ path: file });
        return;
      }
      // A whole page taken while scrolled draws the sticky header where the scroll left it, over the
      // page's middle: taken from the top, then put back where the journey was.
      const scrolled = await page.evaluate(() => window.scrollY);
      if (scrolled > 0) await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: file, fullPage: true });
      if (scrolled > 0) await page.evaluate((y) => window.scrollTo(0, y), scrolled);
    },
    checkAccessibility: (where) => exclusive(() => expectAccessible(page, where ?? page.url())),
  };
}

/** Signs in through the login form and waits for the home page. */
export async function logInThroughForm(page: Page, email: string, password: string, home: RegExp): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(home);
}
