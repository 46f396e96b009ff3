import { expect, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import * as schema from '@/lib/db/schema';
import { formatDateTime, formatDateTimeCompact } from '@/lib/format';
import { CRITERIA, FX } from '../support/fixtures/review';
import { withE2eDb } from '../support/e2e/db';
import { USERS, storageState } from '../support/e2e/helpers';

/**
 * Time as people read it: an analyst picks a time zone on the account page; the execution's times
 * then read in that zone, with its name, and UTC on hover; the choice is kept in the database.
 */
test.use({ storageState: storageState('analyst') });

test.afterAll(async () => {
  await withE2eDb((db) => db.update(schema.users).set({ timeZone: null }).where(eq(schema.users.email, USERS.analyst)));
});

test.describe.configure({ mode: 'serial' });

/** When the fixture execution both tests look at was created, as stored. */
const fixtureCreatedAt = () =>
  withE2eDb(
    async (db) =>
      (
        await db
          .select({ at: schema.executions.createdAt })
          .from(schema.executions)
          .where(eq(schema.executions.id, FX.every))
      )[0].at,
  );

test('a chosen time zone is used for times, with UTC on hover', async ({ page }) => {
  await page.goto('/account');
  const form = page.getByRole('form', { name: 'Time zone' });
  await form.getByLabel('Show times in').selectOption('Asia/Tokyo');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('status')).toContainText('Asia/Tokyo');
  const stored = await withE2eDb(
    async (db) =>
      (
        await db.select({ tz: schema.users.timeZone }).from(schema.users).where(eq(schema.users.email, USERS.analyst))
      )[0].tz,
  );
  expect(stored).toBe('Asia/Tokyo');

  const created = await fixtureCreatedAt();
  await page.goto(`/executions/${FX.every}`);
  const time = page.locator(`time[datetime="${created.toISOString()}"]`).first();
  await expect(time).toHaveText(formatDateTime(created, 'Asia/Tokyo'));
  await expect(time).toHaveText(/GMT\+9/);
  await expect(time).toHaveAttribute('title', formatDateTime(created));
});

test('in Europe/Berlin the list and the detail page read CET or CEST, with UTC in the title', async ({ page }) => {
  await withE2eDb((db) =>
    db.update(schema.users).set({ timeZone: 'Europe/Berlin' }).where(eq(schema.users.email, USERS.analyst)),
  );
  const created = await fixtureCreatedAt();
  const utc = formatDateTime(created);
  expect(utc).toMatch(/ UTC$/);

  // The list: the row's created time in Berlin (its zone named), the header no longer says UTC.
  await page.goto(`/executions?criteria=${CRITERIA}`);
  const table = page.getByRole('table', { name: /Executions/ });
  await expect(table.getByRole('columnheader', { name: /Created/ }).first()).not.toContainText('UTC');
  const listed = table.locator(`a[href^="/executions/${FX.every}"] time`);
  await expect(listed).toHaveText(formatDateTimeCompact(created, 'Europe/Berlin'));
  await expect(listed).toHaveText(/ CES?T$/);
  await expect(listed).toHaveAttribute('datetime', created.toISOString());
  await expect(listed).toHaveAttribute('title', utc);

  // The detail page: the same moment with seconds, in Berlin, UTC on hover.
  await page.goto(`/executions/${FX.every}`);
  const detail = page.locator(`time[datetime="${created.toISOString()}"]`).first();
  await expect(detail).toHaveText(formatDateTime(created, 'Europe/Berlin'));
  await expect(detail).toHaveText(/ CES?T$/);
  await expect(detail).toHaveAttribute('title', utc);
  // Every time on the page reads in Berlin: none is left in UTC text.
  const texts = await page.locator('main time').allTextContents();
  expect(texts.length).toBeGreaterThan(3);
  for (const t of texts) expect(t).not.toMatch(/ UTC$/);
});
