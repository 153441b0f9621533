import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
/** axe-core's browser bundle, evaluated in the page (evaluate is not subject to the app's CSP). */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Runs every axe-core rule (WCAG 2.2 A/AA and best practices) on the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; html: string; failureSummary?: string }[];
      }[];
    }
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      // The failure summary says which check failed, e.g. which child a role may not hold.
      nodes: v.nodes
        .slice(0, 5)
        .map((n) => `${JSON.stringify(n.target)} ${n.html.slice(0, 160)}\n        ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
    }));
  });
}

export const describeViolations = (where: string, violations: AxeViolation[]): string =>
  `${violations.length} accessibility violation(s) on ${where}:\n` +
  violations.map((v) => `  - ${v.id} (${v.impact}): ${v.help}\n      ${v.nodes.join('\n      ')}`).join('\n');

/** Fails with every violation on the page, named and located. */
export async function expectAccessible(page: Page, where = page.url()): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length > 0) throw new Error(describeViolations(where, violations));
}
