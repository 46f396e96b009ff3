import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { count, desc, eq } from 'drizzle-orm';
import * as schema from '@/lib/db/schema';
import { formatDateTime } from '@/lib/format';
import { FX } from '../support/fixtures/review';
import { withE2eDb } from '../support/e2e/db';
import { storageState } from '../support/e2e/helpers';

/**
 * The audit page as an examiner uses it: "Verify now" runs the verification through the worker
 * and the banner then shows that run (not the last hourly one); a record links to its execution;
 * details read as fields; the export without dates is refused on the page, choices kept.
 */
test.use({ storageState: storageState('manager') });

test('Verify now runs a verification and the banner shows it', async ({ page }) => {
  const verifications = () =>
    withE2eDb(async (db) => (await db.select({ n: count() }).from(schema.auditVerifications))[0].n);
  const before = await verifications();
  await page.goto('/audit');
  await expect(page.getByTestId('audit-integrity')).toBeVisible();
  await page.getByRole('button', { name: 'Verify now' }).click();
  await expect(page.getByTestId('audit-verify-state')).toContainText(/Queued|Verifying/);
  await expect(page.getByTestId('audit-verify-state')).toHaveText('Verified: the banner shows the result.', {
    timeout: 60_000,
  });
  expect(await verifications()).toBeGreaterThan(before);
  const newest = await withE2eDb(
    async (db) =>
      (
        await db.select().from(schema.auditVerifications).orderBy(desc(schema.auditVerifications.finishedAt)).limit(1)
      )[0],
  );
  expect(newest.ok).toBe(true);
  // The banner is that verification's, to the second.
  await expect(page.getByTestId('audit-integrity')).toContainText(`checked ${formatDateTime(newest.finishedAt)}`);
  // Its own request is in the log.
  const asked = await withE2eDb((db) =>
    db.select().from(schema.auditLog).where(eq(schema.auditLog.action, 'audit.verify_now')),
  );
  expect(asked.length).toBeGreaterThan(0);
});

test('a record links to its execution and its details read as fields', async ({ page }) => {
  const marker = `e2e-${randomUUID().slice(0, 8)}`;
  await withE2eDb((db) =>
    db.insert(schema.auditLog).values({
      action: 'e2e.audit_page',
      actorEmail: 'manager@verdict.local',
      targetType: 'execution',
      targetId: FX.every,
      details: { reason: marker, revealed: true, fields: { name: 'masked', documentNumber: 'masked' } },
    }),
  );
  await page.goto(`/audit?action=e2e.audit_page&target=${FX.every}`);
  const row = page.getByRole('row').filter({ hasText: marker });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link', { name: /^execution:/ })).toHaveAttribute('href', `/executions/${FX.every}`);
  const details = row.locator('dl').first();
  await expect(details.locator('dt', { hasText: 'reason' })).toBeVisible();
  await expect(details.locator('dd', { hasText: marker })).toBeVisible();
  await expect(details.locator('dd', { hasText: /^yes$/ })).toBeVisible();
  // No raw JSON left in the cell.
  await expect(row).not.toContainText('{"');
  // The cell wraps instead of running off the page: the table fits the 1440 px viewport.
  await page.setViewportSize({ width: 1440, height: 900 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await row.getByRole('link', { name: /^execution:/ }).click();
  await expect(page).toHaveURL(new RegExp(`/executions/${FX.every}$`));
});
