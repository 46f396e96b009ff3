import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import * as schema from '@/lib/db/schema';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { withE2eDb } from '../support/e2e/db';
import { storageState } from '../support/e2e/helpers';

/**
 * Notifications in a real browser: a manager assigns a case to the analyst, and the analyst's
 * bell, open in another window the whole time, shows it without the app being reloaded; the
 * notifications page names the case and marks it read. The test owns its execution and queue.
 */
const TAG = `e2e-notify-${randomUUID().slice(0, 8)}`;
let executionId = '';

test.beforeAll(async () => {
  await withE2eDb(async (db) => {
    await db
      .insert(schema.caseQueues)
      // Last in claim order: other specs press "next case" and expect their own queue's cases first.
      .values({ name: `Notify ${TAG}`, priority: 903, slaHours: 8, definition: `criteria=${TAG}` });
    const x = buildExecution({ decision: 'WARNING', score: 61 });
    (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = TAG;
    executionId = x.id;
    await ingestMany(db, [{ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() }]);
  });
});

const unreadOf = async (label: string | null) => Number(/(\d+) unread/.exec(label ?? '')?.[1] ?? 0);

test('a manager assigns a case; the analyst bell shows it without a reload, and the page names it', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const analystContext = await browser.newContext({ storageState: storageState('analyst') });
  const managerContext = await browser.newContext({ storageState: storageState('manager') });
  const analyst = await analystContext.newPage();
  const manager = await managerContext.newPage();

  await analyst.goto('/');
  const bell = analyst.getByTestId('notification-bell');
  const before = await unreadOf(await bell.getAttribute('aria-label'));
  // A marker on the window: it survives client navigation and polling, not a reload.
  await analyst.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = 1));

  await manager.goto(`/executions/${executionId}`);
  await manager.getByLabel('Assign to a colleague').selectOption({ label: 'Ada Analyst' });
  await expect(manager.getByText('Ada Analyst').first()).toBeVisible();

  // The bell's poll (every 20 s) brings the new count; nothing reloads the page. Specs running
  // beside this one may notify the same analyst meanwhile, so the count rises by at least one;
  // the list below names this case.
  await expect
    .poll(async () => unreadOf(await bell.getAttribute('aria-label')), { timeout: 40_000, intervals: [1000] })
    .toBeGreaterThan(before);
  expect(await analyst.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(1);

  await bell.click();
  await expect(analyst).toHaveURL(/\/notifications$/);
  expect(await analyst.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(1);
  const list = analyst.getByRole('list', { name: 'Notifications' });
  const link = analyst.getByRole('link', { name: new RegExp(`You were assigned case ${executionId.slice(0, 8)}`) });
  const item = list.getByRole('listitem').filter({ has: link });
  await expect(item).toBeVisible();
  await expect(item).toHaveAttribute('data-unread', 'true');
  await analyst.getByRole('button', { name: 'Mark all read' }).click();
  // Specs beside this one may notify the analyst after the click, so "All read" is not asserted:
  // this case's notice reads as read, and the page says how many it marked.
  await expect(analyst.getByText(/^\d+ marked read\.$/)).toBeVisible();
  await expect(item).not.toHaveAttribute('data-unread');
  await item.getByRole('link').click();
  await expect(analyst).toHaveURL(new RegExp(`/executions/${executionId}$`));
  await analyst.goto('/notifications');
  await expect(item).toBeVisible();
  await expect(item).not.toHaveAttribute('data-unread');

  await analystContext.close();
  await managerContext.close();
});

test('each person chooses which kinds they get, in the app and by e-mail', async ({ browser }) => {
  const context = await browser.newContext({ storageState: storageState('analyst') });
  const page = await context.newPage();
  await page.goto('/notifications');
  const form = page.getByRole('form', { name: 'Notification preferences' });
  // The managers' kinds are not offered to an analyst.
  await expect(form.getByText('Approval waiting')).toHaveCount(0);
  const box = form.getByLabel('Mentioned in a note: by e-mail');
  const was = await box.isChecked();
  await box.setChecked(!was);
  await form.getByRole('button', { name: 'Save preferences' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');
  await page.reload();
  await expect(
    page.getByRole('form', { name: 'Notification preferences' }).getByLabel('Mentioned in a note: by e-mail'),
  ).toBeChecked({ checked: !was });
  await context.close();
});
