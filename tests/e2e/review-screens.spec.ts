import { expect, test } from '@playwright/test';
import { FX } from '../support/fixtures/review';
import { storageState } from '../support/e2e/helpers';

/**
 * Screenshots of the review workspace in both themes (test-results/review-screens/), for a
 * person to look at; the test itself checks that no page logs an error to the console.
 */
test.use({ storageState: storageState('analyst'), viewport: { width: 1440, height: 1000 } });

for (const theme of ['light', 'dark'] as const) {
  test(`list and detail render cleanly in the ${theme} theme`, async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/executions');
    await expect(page.locator('tbody tr').first()).toBeVisible();
    await page.screenshot({ path: `test-results/review-screens/list-${theme}.png`, fullPage: false });
    await page.getByRole('button', { name: /^Filters/ }).click();
    await expect(page.getByRole('form', { name: 'Filters' })).toBeVisible();
    await page.screenshot({ path: `test-results/review-screens/list-filters-${theme}.png` });
    await page.goto(`/executions/${FX.every}`);
    await expect(page.getByRole('region', { name: 'Why' })).toBeVisible();
    await page.screenshot({ path: `test-results/review-screens/detail-${theme}.png` });
    for (const region of [
      'Why',
      'Credentials and images',
      'Extracted and supplied data',
      'Capabilities',
      'Steps',
      'Rule executions',
      'Linked records',
      'Audit trail',
    ]) {
      await page
        .getByRole('region', { name: region })
        .screenshot({ path: `test-results/review-screens/detail-${theme}-${region.split(' ')[0].toLowerCase()}.png` });
    }
    await page.goto(`/executions/${FX.unknown}`);
    await page.screenshot({ path: `test-results/review-screens/detail-unknown-${theme}.png` });
    await page
      .getByRole('region', { name: 'Capabilities' })
      .screenshot({ path: `test-results/review-screens/detail-unknown-${theme}-capabilities.png` });
    await page.goto(`/executions/${FX.minimal}`);
    await page.screenshot({ path: `test-results/review-screens/detail-minimal-${theme}.png` });
    expect(errors).toEqual([]);
  });
}
