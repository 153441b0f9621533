import type { BrowserContext, Page } from 'playwright-core';

/**
 * What a page shows, as text, for comparing an open page with a fresh load of the same address.
 * Everything in the page's main area counts (count cards, rows, view counts, pager, timeline,
 * comments, ticket facts) plus the bell in the header and which rows are marked unread. Left out is
 * what differs between two honest loads: who else is viewing (presence), what is being typed, the
 * screen-reader announcements of live changes, and relative times, which are read from their
 * `title` (the exact time) instead.
 */
export interface PageState {
  bell: string;
  unread: string[];
  main: string[];
}

const LEFT_OUT = [
  '[aria-live]',
  '[role="status"]',
  '[data-testid^="viewers-"]',
  '[data-testid="live-indicator"]',
  'textarea',
  'input',
  'style',
  'script',
].join(',');

/** True once nothing on the page is still loading. */
export const settled = (page: Page): Promise<boolean> =>
  page.evaluate(
    () =>
      document.querySelector('#main-content :is(h1, h2, [data-testid="empty-state"])') !== null &&
      document.querySelector('[data-page-loader], .mantine-Skeleton-root, [aria-busy="true"], [data-testid="live-indicator"]') === null,
  );

export function readState(page: Page): Promise<PageState> {
  return page.evaluate((leftOut) => {
    const lines: string[] = [];
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        const text = node.textContent?.replace(/\s+/g, ' ').trim();
        if (text) lines.push(text);
        return;
      }
      if (!(node instanceof Element) || node.matches(leftOut)) return;
      const title = node.getAttribute('title');
      if (title) return void lines.push(title);
      node.childNodes.forEach(walk);
    };
    const main = document.querySelector('#main-content');
    if (main) walk(main);
    return {
      bell: document.querySelector('header button[aria-label^="Notifications"]')?.getAttribute('aria-label') ?? '',
      unread: [...document.querySelectorAll('[data-unread]')].map((row) => row.getAttribute('data-ticket-id') ?? '?'),
      main: lines,
    };
  }, LEFT_OUT);
}

/** The first lines where two states part, for a readable failure. */
export function difference(live: PageState, fresh: PageState): string | undefined {
  if (live.bell !== fresh.bell) return `bell: open page "${live.bell}", fresh load "${fresh.bell}"`;
  if (live.unread.join() !== fresh.unread.join())
    return `unread rows: open page [${live.unread.join()}], fresh load [${fresh.unread.join()}]`;
  const at = live.main.findIndex((line, i) => line !== fresh.main[i]);
  if (at === -1 && live.main.length === fresh.main.length) return undefined;
  const from = Math.max(0, (at === -1 ? Math.min(live.main.length, fresh.main.length) : at) - 3);
  const show = (lines: string[]) => lines.slice(from, from + 12).join(' | ');
  return `main, from line ${from}:\n  open page:  ${show(live.main)}\n  fresh load: ${show(fresh.main)}`;
}

/**
 * Polls until the open page shows what a fresh load of its address shows (both settle on their own:
 * events in flight, a reconnect's re-read). Answers the last difference when `timeoutMs` runs out.
 */
export async function differenceFromFreshLoad(context: BrowserContext, live: Page, timeoutMs: number): Promise<string | undefined> {
  const fresh = await context.newPage();
  try {
    await fresh.goto(live.url());
    const deadline = Date.now() + timeoutMs;
    let last: string | undefined = 'never compared';
    while (Date.now() < deadline) {
      if ((await settled(fresh)) && (await settled(live))) {
        last = difference(await readState(live), await readState(fresh));
        if (last === undefined) return undefined;
      }
      await fresh.waitForTimeout(200);
    }
    return last;
  } finally {
    await fresh.close();
  }
}
