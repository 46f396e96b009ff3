import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { eq, sql } from 'drizzle-orm';
import * as schema from '@/lib/db/schema';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { withE2eDb } from '../support/e2e/db';
import { storageState, USERS } from '../support/e2e/helpers';

/**
 * "My cases" at 1440 x 900: case, due and assignee are on screen without a horizontal scroll, and
 * the list sorts by due time on the server. The test owns its executions (a reporting criteria of
 * their own), their queue and their due times; the demo analyst holds them.
 */
const TAG = `e2e-views-${randomUUID().slice(0, 8)}`;
/** Execution ids in due order (earliest first), though created in another order. */
const byDue: string[] = [];

test.use({ storageState: storageState('analyst'), viewport: { width: 1440, height: 900 } });

test.beforeAll(async () => {
  await withE2eDb(async (db) => {
    const [analyst] = await db.select().from(schema.users).where(eq(schema.users.email, USERS.analyst));
    await db
      .insert(schema.caseQueues)
      // Last in claim order: other specs press "next case" and expect their own queue's cases first.
      .values({ name: `Views ${TAG}`, priority: 904, slaHours: 8, definition: `criteria=${TAG}` });
    const xs = [0, 1, 2].map((i) => {
      const x = buildExecution({ decision: 'WARNING', score: 40 + i });
      (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = TAG;
      return x;
    });
    await ingestMany(
      db,
      xs.map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
    );
    // Due in 3 h, 1 h and (overdue) an hour ago: created order differs from due order.
    const dueHours = [3, 1, -1];
    for (const [i, x] of xs.entries())
      await db
        .update(schema.cases)
        .set({
          state: 'in_review',
          assigneeId: analyst.id,
          claimedAt: sql`now()`,
          dueAt: sql`now() + make_interval(hours => ${dueHours[i]})`,
        })
        .where(eq(schema.cases.executionId, x.id));
    byDue.push(xs[2].id, xs[1].id, xs[0].id);
  });
});

test('My cases shows case, due and assignee without a horizontal scroll, sorted by due', async ({ page }) => {
  await page.goto(`/executions?assignee=me&criteria=${TAG}&sort=due&dir=asc`);
  const table = page.getByRole('table', { name: /Executions, Due ascending/ });
  await expect(table).toBeVisible();
  // A sortable header is named by its sort button ("Sort by Due, …").
  for (const name of [/^Case$/, /Due/, /^Assignee$/])
    await expect(table.getByRole('columnheader', { name }).first()).toBeInViewport({ ratio: 1 });
  // The table's scroll container holds the whole table: nothing behind a horizontal scroll.
  const fits = await table.evaluate((t) => {
    const box = t.parentElement as HTMLElement;
    return { scroll: box.scrollWidth, client: box.clientWidth, page: document.documentElement.scrollWidth };
  });
  expect(fits.scroll).toBeLessThanOrEqual(fits.client);
  expect(fits.page).toBeLessThanOrEqual(1440);
  // Rows in due order (earliest first), each linking to its execution.
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(3);
  const ids = await rows.evaluateAll((trs) =>
    trs.map(
      (tr) =>
        /\/executions\/([0-9a-f-]{36})/.exec(tr.querySelector('a[data-row-link]')?.getAttribute('href') ?? '')?.[1],
    ),
  );
  expect(ids).toEqual(byDue);
  await expect(rows.first().getByText('Overdue')).toBeVisible();

  // Descending reverses it, still on the server (the URL carries the sort).
  await table.getByRole('button', { name: /Due/ }).first().click();
  // Descending is the list's default direction: the URL drops `dir`.
  await expect(page).not.toHaveURL(/dir=asc/);
  // The table is named by its sort, so the rows are read from the table as it is named now.
  const descending = page.getByRole('table', { name: /Executions, Due descending/ }).locator('tbody tr');
  await expect
    .poll(async () =>
      descending.evaluateAll((trs) =>
        trs.map(
          (tr) =>
            /\/executions\/([0-9a-f-]{36})/.exec(tr.querySelector('a[data-row-link]')?.getAttribute('href') ?? '')?.[1],
        ),
      ),
    )
    .toEqual([...byDue].reverse());
});

test('a saved view brings back its filters and sort, is its owner’s alone, and a bad or taken name is said in place', async ({
  page,
  browser,
}) => {
  const VIEW = `Due first ${TAG}`;
  await page.goto(`/executions?assignee=me&criteria=${TAG}&sort=due&dir=asc`);
  await expect(page.getByRole('table', { name: /Executions, Due ascending/ })).toBeVisible();
  const views = page.getByRole('group', { name: 'Your saved views' });
  const save = async (name: string) => {
    if (!(await views.getByLabel('View name').isVisible()))
      await views.getByRole('button', { name: 'Save view' }).click();
    await views.getByLabel('View name').fill(name);
    await views.getByRole('button', { name: 'Save', exact: true }).click();
  };

  // No name, and a name over the limit: refused beside the field, the text kept.
  await save('   ');
  await expect(views.getByRole('alert')).toHaveText('Give the view a name.');
  const long = 'x'.repeat(61);
  await save(long);
  await expect(views.getByRole('alert')).toHaveText('A view name is at most 60 characters.');
  await expect(views.getByLabel('View name')).toHaveValue(long);

  await save(VIEW);
  await expect(views.getByRole('status')).toHaveText(`Saved as “${VIEW}”.`);
  await expect(views.getByRole('link', { name: VIEW })).toBeVisible();
  // The same name again (in other letters' case) is the person's own view already.
  await save(VIEW.toUpperCase());
  await expect(views.getByRole('alert')).toHaveText(`You already have a view named “${VIEW.toUpperCase()}”.`);
  await expect(views.getByLabel('View name')).toHaveValue(VIEW.toUpperCase());

  // From the plain list, after a reload, the view restores the filters and the sort.
  await page.goto('/executions');
  await page.reload();
  await expect(page.getByRole('table', { name: /Executions, Created descending/ })).toBeVisible();
  await page.getByRole('group', { name: 'Your saved views' }).getByRole('link', { name: VIEW }).click();
  await expect(page).toHaveURL(new RegExp(`criteria=${TAG}`));
  await expect(page).toHaveURL(/assignee=me/);
  const table = page.getByRole('table', { name: /Executions, Due ascending/ });
  await expect(table).toBeVisible();
  await expect
    .poll(() =>
      table
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map(
            (tr) =>
              /\/executions\/([0-9a-f-]{36})/.exec(
                tr.querySelector('a[data-row-link]')?.getAttribute('href') ?? '',
              )?.[1],
          ),
        ),
    )
    .toEqual(byDue);

  // Another person's list does not show it.
  const context = await browser.newContext({ storageState: storageState('manager') });
  const other = await context.newPage();
  await other.goto('/executions');
  await expect(
    other.getByRole('group', { name: 'Your saved views' }).getByRole('button', { name: 'Save view' }),
  ).toBeVisible();
  await expect(other.getByRole('link', { name: VIEW })).toHaveCount(0);
  await context.close();

  await withE2eDb((db) => db.delete(schema.savedViews).where(eq(schema.savedViews.name, VIEW)));
});
