import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { eq as sqlEq } from 'drizzle-orm';
import * as schema from '@/lib/db/schema';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { withE2eDb } from '../support/e2e/db';
import { storageState } from '../support/e2e/helpers';

/**
 * What an analyst's day trips over, in a real browser: a limit is said before it bites and the
 * server refuses the rest whole; a country is found by its name; approving what the service
 * REJECTED needs a comment. The test owns its executions (a reporting criteria of their own) and
 * its queue, so a case opens for them.
 */
const TAG = `e2e-day-${randomUUID().slice(0, 8)}`;
const ids: string[] = [];

test.use({ storageState: storageState('analyst') });

test.beforeAll(async () => {
  await withE2eDb(async (db) => {
    await db
      .insert(schema.caseQueues)
      // Last in claim order: other specs press "next case" and expect their own queue's cases first.
      .values({ name: `Day ${TAG}`, priority: 902, slaHours: 8, definition: `criteria=${TAG}` });
    const xs = [0, 1].map((i) => {
      const x = buildExecution({ decision: 'REJECTED', score: 80 + i });
      (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = TAG;
      return x;
    });
    ids.push(...xs.map((x) => x.id));
    await ingestMany(
      db,
      xs.map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
    );
  });
});

test('a note over the limit is counted, refused with a message and kept whole', async ({ page }) => {
  await page.goto(`/executions/${ids[0]}`);
  const form = page.getByRole('form', { name: 'Add a note' });
  const note = form.getByLabel('Add a note');
  const text = 'n'.repeat(6000);
  await note.fill(text);
  // Nothing cut by the browser: the whole paste stays, with how much is too much.
  await expect(note).toHaveValue(text);
  await expect(form.getByText('6,000 / 5,000 characters: 1,000 too many')).toBeVisible();
  await expect(note).toHaveAttribute('aria-invalid', 'true');
  await form.getByRole('button', { name: 'Add note' }).click();
  await expect(form.getByText('A note is at most 5,000 characters.')).toBeVisible();
  await expect(note).toHaveValue(text);
  await expect(page.getByRole('list', { name: 'Notes' })).toHaveCount(0);
});

test('approving a REJECTED case needs a comment; a 3,000-character one is refused whole', async ({ page }) => {
  await page.goto(`/executions/${ids[1]}`);
  const form = page.getByRole('form', { name: 'Resolve the case' });
  await form.getByRole('radio', { name: 'Approve' }).check();
  await expect(form.getByTestId('override-hint')).toContainText("The service's decision is REJECTED");
  await form.getByLabel('Reason', { exact: true }).selectOption('DOCUMENT_GENUINE');
  // The chosen label whole, below the select, for browsers whose closed select cuts it; Chromium's
  // customizable select wraps the label itself, so there the echo stays hidden.
  const echo = form.locator('.select-wrap-echo');
  await expect(echo).toHaveText('Document checked and genuine');
  await expect(echo).toBeHidden();
  await page.addStyleTag({ content: '.select-wrap-echo { display: block !important; }' });
  await expect(echo).toBeVisible();
  await form.getByRole('button', { name: 'Resolve' }).click();
  await expect(form.getByRole('alert').first()).toContainText('say in the comment why you approve it');
  const comment = form.getByLabel(/Comment/);
  await comment.fill('c'.repeat(3000));
  await expect(form.getByText('3,000 / 2,000 characters: 1,000 too many')).toBeVisible();
  await form.getByRole('button', { name: 'Resolve' }).click();
  await expect(form.getByText('A comment is at most 2,000 characters.').first()).toBeVisible();
  await expect(comment).toHaveValue('c'.repeat(3000));
  const [row] = await withE2eDb((db) => db.select().from(schema.cases).where(sqlEq(schema.cases.executionId, ids[1])));
  expect(row.state).not.toBe('resolved');

  await comment.fill('Glare on the hologram; the document is genuine.');
  await form.getByRole('button', { name: 'Resolve' }).click();
  await expect(page.getByTestId('case-resolution')).toContainText('Approve');
});

test('"Germany" in the country filter finds German documents', async ({ page }) => {
  await page.goto(`/executions?criteria=${TAG}`);
  await page.getByRole('button', { name: /^Filters/ }).click();
  const country = page.getByLabel('Issuing country');
  await country.fill('Germany');
  await expect(page.getByText('Documents issued by Germany (DEU).')).toBeVisible();
  await page.getByRole('form', { name: 'Filters' }).getByRole('button', { name: /Apply/ }).click();
  await expect(page).toHaveURL(/country=DEU/);
  await expect(page.getByText('Country: Germany (DEU)')).toBeVisible();
  for (const id of ids) await expect(page.locator(`a[href^="/executions/${id}"]`).first()).toBeVisible();
  // A name that is no country says so and applies nothing.
  await page.getByRole('button', { name: /^Filters/ }).click();
  await country.fill('Atlantis');
  await expect(page.getByText('No country called “Atlantis”')).toBeVisible();
});
