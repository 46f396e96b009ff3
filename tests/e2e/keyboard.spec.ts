import { expect, test, type Page } from '@playwright/test';
import { and, eq, isNull } from 'drizzle-orm';
import { SHORTCUTS } from '@/components/shortcuts/shortcuts';
import * as schema from '@/lib/db/schema';
import { demoCasesDone, withE2eDb } from '../support/e2e/db';
import { storageState } from '../support/e2e/helpers';

/**
 * The keyboard in a real browser: `?` lists every shortcut (the same table the handlers read),
 * Escape gives the focus back, and after each shortcut the next one still works: `r` puts the focus
 * on the outcome radios, from where `u` goes back to the list.
 */
test.use({ storageState: storageState('analyst') });

/** Presses a key until the hydrated page answers it (the server's HTML arrives before the handlers). */
async function pressUntil(page: Page, key: string, done: () => Promise<void>) {
  await expect(async () => {
    await page.locator('body').press(key);
    await done();
  }).toPass({ timeout: 30_000 });
}

test('? opens the help listing every shortcut, and Escape closes it', async ({ page }) => {
  await page.goto('/executions');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await pressUntil(page, '?', () => expect(help).toBeVisible({ timeout: 2_000 }));
  for (const s of Object.values(SHORTCUTS)) {
    const row = help.getByRole('row').filter({ has: page.getByRole('cell', { name: s.does, exact: true }) });
    await expect(row).toHaveCount(1);
    await expect(row.locator('kbd')).toHaveText(s.key);
  }
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  // The list's keys work again at once: j makes the first row active.
  await page.keyboard.press('j');
  await expect(page.locator('tbody tr').first()).toHaveAttribute('data-active', 'true');
  // Escape in the search box goes back to the rows.
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.locator('tbody a[data-row-link]').first()).toBeFocused();
});

test('after r the focus is on the outcome, and u still goes back to the list', async ({ page }) => {
  await demoCasesDone();
  // An open case nobody holds: the analyst may resolve it, so `r` has a form to go to.
  const executionId = await withE2eDb(async (db) => {
    const [c] = await db
      .select({ executionId: schema.cases.executionId })
      .from(schema.cases)
      .where(and(eq(schema.cases.state, 'open'), isNull(schema.cases.assigneeId)))
      .limit(1);
    return c?.executionId;
  });
  expect(executionId, 'an open case without an assignee in the demo data').toBeTruthy();
  await page.goto(`/executions/${executionId}`);
  const approve = page.getByRole('radio', { name: 'Approve' });
  await pressUntil(page, 'r', () => expect(approve).toBeFocused({ timeout: 2_000 }));
  // Arrow keys still choose the outcome, the focus stays in the group.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Decline' })).toBeFocused();
  await page.keyboard.press('u');
  await expect(page).toHaveURL(/\/executions(\?.*)?$/);
  await expect(page.getByRole('heading', { name: 'Executions', level: 1 })).toBeVisible();
});
