import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import * as schema from '@/lib/db/schema';
import { buildExecution } from '../support/fixtures/execution';
import { demoCasesDone, withE2eDb } from '../support/e2e/db';
import { fillResolveForm, pageAs, signIn } from '../support/e2e/helpers';
import { sampleWeekOfCase, seedFirstAnalyst } from '../support/e2e/qa-steps';

/**
 * QA sampling in a real browser: an analyst of the test's own declines a case (with a note); the
 * manager sets the rate and samples this week, and the sampling picks that case; the demo analyst
 * opens it and sees neither the outcome, its reason and comment, the note nor the execution's
 * Not fraud label, takes the QA review and approves; both outcomes and the label show; the manager finds the disagreement among those to settle,
 * settles it to approve, and the quality page counts it as overturned, linked to its list.
 */

const TAG = `e2e-qa-${randomUUID().slice(0, 8)}`;
const FIRST = { email: `${TAG}@verdict.local`, name: `QA first ${TAG}`, password: 'qa-first-password-123' };
const COMMENT = 'The font of the date of birth differs.';
const NOTE = 'Declined: I am sure it is forged.';

test('sampling picks a resolved case, a second analyst re-reviews it blind, a manager settles, quality counts it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The demo history rewrites the cases it finds once its backfill is done: this test's case comes after.
  await demoCasesDone();

  // An analyst of the test's own (whose only resolution this week is the test's), a queue and one
  // execution, labelled Not fraud at the service, with an identity document no other execution has
  // (the linked records show other executions' labels).
  const x = buildExecution({
    decision: 'WARNING',
    score: 61,
    documentNumber: `QA${randomUUID().slice(0, 7).toUpperCase()}`,
    feedback: { status: 'NOT_FRAUD' },
  });
  (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = TAG;
  await seedFirstAnalyst(FIRST, { name: `QA ${TAG}`, priority: 900, tag: TAG }, [x]);

  // 1. The first analyst declines it, with a comment and a note.
  const firstCtx = await browser.newContext();
  const first = await firstCtx.newPage();
  await signIn(first, FIRST.email, FIRST.password);
  await expect(first.getByRole('button', { name: /Account menu/ })).toBeVisible();
  await first.goto(`/executions/${x.id}`);
  const notes = first.getByRole('form', { name: 'Add a note' });
  await notes.getByLabel('Add a note').fill(NOTE);
  await notes.getByRole('button').click();
  await expect(first.getByRole('list', { name: 'Notes' })).toContainText(NOTE);
  const form = await fillResolveForm(first, { outcome: 'Decline', reason: 'DOCUMENT_FORGED', comment: COMMENT });
  await form.getByRole('button', { name: 'Resolve' }).click();
  await expect(first.getByTestId('case-resolution')).toContainText('Decline');

  // 2. The manager sets the rate and samples this week; the job's progress ends with the count.
  const manager = await pageAs(browser, 'manager');
  await sampleWeekOfCase(manager, x.id);
  const review = await withE2eDb(
    async (db) => (await db.select().from(schema.qaReviews).where(eq(schema.qaReviews.executionId, x.id)))[0],
  );
  expect(review).toMatchObject({ state: 'open', firstOutcome: 'decline', firstReason: 'DOCUMENT_FORGED' });

  // 3. The demo analyst opens it: blind. No outcome, reason, comment or note of the first analyst.
  const analyst = await pageAs(browser, 'analyst');
  await analyst.goto(`/executions/${x.id}`);
  const panel = analyst.getByTestId('qa-panel');
  await expect(panel.getByTestId('qa-blind')).toContainText('1 note by others');
  await expect(analyst.getByTestId('case-sealed')).toBeVisible();
  const page = analyst.locator('main');
  for (const secret of ['Decline', 'Document forged', 'DOCUMENT_FORGED', COMMENT, NOTE])
    await expect(page).not.toContainText(secret);
  // The label would tell the outcome too: no badge in the header, the feedback section or the raw JSON.
  await expect(analyst.getByTestId('execution-label')).toHaveText('Sealed until the QA review is decided');
  await expect(analyst.getByTestId('feedback-panel-sealed')).toBeVisible();
  for (const label of ['NOT FRAUD', 'NOT_FRAUD', 'FRAUD']) await expect(page).not.toContainText(label);
  await panel.getByRole('button', { name: 'Take this QA review' }).click();
  const decide = panel.getByRole('form', { name: 'Decide the QA review' });
  await decide.getByRole('radio', { name: 'Approve' }).check();
  await decide.getByLabel('Reason', { exact: true }).selectOption('DOCUMENT_GENUINE');
  await decide.getByLabel(/Comment/).fill('The document holds up under magnification.');
  await decide.getByRole('button', { name: 'Submit QA review' }).click();
  // Decided: both outcomes, and the first analyst's note, are shown now.
  await expect(panel.getByTestId('qa-state')).toHaveText('Disagreement: to settle');
  await expect(panel.getByTestId('qa-first')).toContainText('Decline');
  await expect(panel.getByTestId('qa-first')).toContainText(COMMENT);
  await expect(panel.getByTestId('qa-second')).toContainText('Approve');
  await expect(analyst.getByRole('list', { name: 'Notes' })).toContainText(NOTE);
  await expect(analyst.getByTestId('execution-label')).toHaveText('NOT FRAUD');
  await expect(analyst.getByTestId('feedback-panel')).toBeVisible();

  // 4. The disagreement reaches the manager, who settles it to approve.
  await manager.goto('/qa');
  const row = manager.getByTestId('qa-to-settle').locator(`tr[data-review="${x.id}"]`);
  await expect(row).toContainText('Decline');
  await row.getByRole('link').click();
  await expect(manager).toHaveURL(new RegExp(`/executions/${x.id}`));
  const settle = manager.getByRole('form', { name: 'Settle the disagreement' });
  await settle.getByRole('radio', { name: 'Approve' }).check();
  await settle.getByLabel('Reason', { exact: true }).selectOption('DOCUMENT_GENUINE');
  await settle.getByLabel(/Comment/).fill('Genuine: the second look is right.');
  await settle.getByRole('button', { name: 'Settle' }).click();
  await expect(manager.getByTestId('qa-panel').getByTestId('qa-state')).toHaveText('Settled: overturned');
  await expect(manager.getByTestId('case-resolution')).toContainText('Approve');
  const kase = await withE2eDb(
    async (db) => (await db.select().from(schema.cases).where(eq(schema.cases.executionId, x.id)))[0],
  );
  expect(kase).toMatchObject({ outcome: 'approve', reason: 'DOCUMENT_GENUINE' });

  // 5. The quality page counts it, and its number opens the list behind it.
  await manager.goto('/quality');
  const line = manager.locator(`tr[data-agreement="${FIRST.name}"]`);
  await expect(line.getByTestId('agreement-rate')).toHaveText(/^0(\.0)?\s?% \(0 of 1\)$/);
  await expect(line.getByTestId('overturned')).toHaveText('1');
  await line.getByTestId('overturned').getByRole('link').click();
  await expect(manager).toHaveURL(/\/quality\/reviews\?analyst=.*result=overturned/);
  await expect(manager.locator('tbody tr')).toHaveCount(1);
  await expect(manager.locator(`tr[data-review="${x.id}"]`)).toContainText('Genuine: the second look is right.');
  await firstCtx.close();
});
