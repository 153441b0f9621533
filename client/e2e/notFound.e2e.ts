import { describe, expect, it } from 'vitest';
import { openVisitor, useStage } from './harness';

describe('journey: a wrong address', () => {
  const stage = useStage();

  it('shows the 404 page, served by the SPA fallback, with its two ways out', async () => {
    const { page, shot, context } = await openVisitor(stage.browser, stage.product.url, 'not-found');
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(200);
    // The app's code runs after the load event (it is imported by a small entry script).
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await shot('not-found');

    await page.getByRole('link', { name: 'Browse Help Articles' }).click();
    await page.waitForURL('**/knowledge');
    await page.goBack();
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await page.waitForURL('**/login');
    await context.close();
  });

  it('keeps unknown API paths and missing assets as real 404s', async () => {
    const api = await fetch(`${stage.product.url}/api/nope`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ success: false, message: 'Not found' });
    const asset = await fetch(`${stage.product.url}/assets/missing-chunk.js`);
    expect(asset.status).toBe(404);
  });
});
