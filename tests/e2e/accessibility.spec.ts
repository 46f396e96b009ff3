import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { FX } from '../support/fixtures/review';
import { storageState } from '../support/e2e/helpers';

/**
 * Every working page against axe's WCAG 2.1 A and AA rules, in both themes: zero violations of any
 * impact. The theme is the `theme` cookie the shell's toggle writes (app/layout.tsx reads it on the
 * server), so setting it before the first request renders the page the way a dark-theme user sees it.
 */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

// The width the console is used at; each scanned page is kept as a screenshot beside the results.
test.use({ viewport: { width: 1440, height: 900 } });

/** The pages the examiner of accessibility walks, each with the heading that says it has rendered. */
const CONSOLE_PAGES: Array<{ path: string; heading: RegExp }> = [
  { path: '/', heading: /./ },
  { path: '/executions', heading: /^Executions$/ },
  { path: `/executions/${FX.every}`, heading: /./ },
  { path: '/queues', heading: /Queues/ },
  { path: '/quality', heading: /Quality/ },
  { path: '/qa', heading: /QA|review/i },
  { path: '/trends', heading: /Risk trends/ },
  { path: '/audit', heading: /Audit/ },
  { path: '/sync', heading: /Sync/ },
  { path: '/admin/webhooks', heading: /Webhooks/ },
  { path: '/admin/users', heading: /Users/ },
];

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 4)
        .join(' | ')}`,
  );
}

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ context, baseURL }) => {
      await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
    });

    test('the sign-in page has no violations', async ({ browser, baseURL }) => {
      // Signed out: a fresh context without the stored session.
      const context = await browser.newContext({ baseURL });
      await context.addCookies([{ name: 'theme', value: theme, url: baseURL! }]);
      const page = await context.newPage();
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
      await expect(page.locator('html')).toHaveClass(theme);
      expect(await violations(page)).toEqual([]);
      await context.close();
    });

    test.describe('signed in', () => {
      test.use({ storageState: storageState('admin') });
      for (const { path, heading } of CONSOLE_PAGES) {
        test(`${path} has no violations`, async ({ page }) => {
          await page.goto(path);
          await expect(page.getByRole('heading', { level: 1, name: heading }).first()).toBeVisible({
            timeout: 20_000,
          });
          await expect(page.locator('html')).toHaveClass(theme);
          // Client parts (charts, lazy menus) render after hydration; some pages poll, so the
          // network never idles: a fixed settle instead.
          await page.waitForLoadState('load');
          await page.waitForTimeout(1_500);
          await page.screenshot({ path: test.info().outputPath(`${theme}.png`) });
          expect(await violations(page)).toEqual([]);
        });
      }
    });
  });
}
