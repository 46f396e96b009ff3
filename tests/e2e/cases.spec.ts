import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { and, eq, inArray, sql } from 'drizzle-orm';
import * as schema from '@/lib/db/schema';
import { ingestMany } from '@/lib/sync/ingest';
import { buildExecution } from '../support/fixtures/execution';
import { demoCasesDone, withE2eDb } from '../support/e2e/db';
import { clickUntil, fillResolveForm, pageAs } from '../support/e2e/helpers';

/**
 * Case work in a real browser: an admin saves the list's filters as a queue with a 4-hour SLA;
 * an analyst presses `n`, gets a case, declines it with a reason and FRAUD feedback, and the
 * next `n` gives another case; the manager's queues page shows the backlog fall by one and the
 * resolution time; an overdue case is highlighted. The test owns its executions: they carry a
 * reporting criteria of their own, which the queue's filters select.
 */

const TAG = `e2e-cases-${randomUUID().slice(0, 8)}`;
const QUEUE = `Warnings ${TAG}`;
let ids: string[] = [];

/** Presses a key until the hydrated page answers it (the server's HTML arrives before the handlers). */
async function pressUntil(page: Page, key: string, done: () => Promise<void>) {
  await expect(async () => {
    await page.locator('body').press(key);
    await done();
  }).toPass({ timeout: 30_000 });
}

const backlogOf = (page: Page) => page.locator(`tr[data-queue="${QUEUE}"] [data-testid="backlog"]`);

test('a saved queue, next case, a decline with FRAUD feedback, the queues page, and an overdue case', async ({
  browser,
}) => {
  // The console's first demo start rewrites the history of the cases it found (lib/cases/demo.ts)
  // once its backfill is done: this test's cases come after that.
  await demoCasesDone();

  // 1. The admin filters the list and saves it as a queue (4-hour SLA, first in priority).
  const admin = await pageAs(browser, 'admin');
  await admin.goto(`/executions?decision=WARNING&criteria=${TAG}`);
  const dialog = admin.getByRole('dialog');
  await clickUntil(admin.getByRole('button', { name: 'Save as queue' }), dialog);
  await expect(dialog.getByRole('list', { name: 'Filters of the queue' })).toContainText(`Criteria: ${TAG}`);
  await dialog.getByLabel('Name').fill(QUEUE);
  await dialog.getByLabel('SLA (hours)').fill('4');
  await dialog.getByLabel('Priority').fill('1');
  await dialog.getByRole('button', { name: 'Save queue' }).click();
  await expect(dialog.getByRole('status')).toContainText(`Queue "${QUEUE}" created`);
  const queue = await withE2eDb(
    async (db) => (await db.select().from(schema.caseQueues).where(eq(schema.caseQueues.name, QUEUE)))[0],
  );
  expect(queue).toMatchObject({ slaHours: 4, definition: `decision=WARNING&criteria=${TAG}` });

  // Three executions arrive: ingest opens their cases in the new queue.
  const xs = [0, 1, 2].map((i) => {
    const x = buildExecution({ decision: 'WARNING', score: 50 + i });
    (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = TAG;
    return x;
  });
  ids = xs.map((x) => x.id);
  await withE2eDb((db) =>
    ingestMany(
      db,
      xs.map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
    ),
  );

  // 2. The manager sees the backlog before any work.
  const manager = await pageAs(browser, 'manager');
  await manager.goto('/queues');
  await expect(backlogOf(manager)).toHaveText('3');

  // 3. The analyst presses n on the list and gets one of them.
  const analyst = await pageAs(browser, 'analyst');
  await analyst.goto('/executions');
  await pressUntil(analyst, 'n', () => expect(analyst).toHaveURL(/\/executions\/[0-9a-f-]{36}$/, { timeout: 6_000 }));
  const first = analyst.url().split('/').pop()!;
  expect(ids).toContain(first);
  const header = analyst.getByTestId('case-header');
  await expect(header).toContainText(QUEUE);
  await expect(header.getByTestId('case-assignee')).toContainText('You');

  // r goes to the resolve panel; decline with a reason, a comment and FRAUD feedback.
  await pressUntil(analyst, 'r', () => expect(analyst.getByRole('radio', { name: 'Approve' })).toBeFocused());
  const form = await fillResolveForm(analyst, {
    outcome: 'Decline',
    reason: 'DOCUMENT_FORGED',
    comment: 'The date of birth is printed in another font.',
    label: ['FRAUD', 'IDENTITY_FRAUD'],
  });
  await form.getByRole('button', { name: 'Resolve' }).click();
  await expect(analyst.getByTestId('case-resolution')).toContainText('Decline');
  const written = await withE2eDb(async (db) => ({
    kase: (await db.select().from(schema.cases).where(eq(schema.cases.executionId, first)))[0],
    feedback: await db
      .select()
      .from(schema.feedbackSubmissions)
      .where(eq(schema.feedbackSubmissions.executionId, first)),
  }));
  expect(written.kase).toMatchObject({ state: 'resolved', outcome: 'decline', reason: 'DOCUMENT_FORGED' });
  expect(written.feedback).toEqual([expect.objectContaining({ status: 'FRAUD', reason: 'IDENTITY_FRAUD' })]);
  // The case's history: claimed and resolved by the analyst; the comment withheld without a reveal.
  const history = analyst.getByTestId('case-history');
  await expect(history.locator('[data-event="claimed"]')).toBeVisible();
  await expect(history.locator('[data-event="resolved"]')).toContainText('Document forged or tampered with');
  await expect(history.locator('[data-event="resolved"]')).toContainText('Comment withheld');
  await expect(history).not.toContainText('another font');

  // 4. The next n gives a different case.
  await pressUntil(analyst, 'n', () =>
    expect(analyst).not.toHaveURL(new RegExp(`/executions/${first}$`), { timeout: 6_000 }),
  );
  await expect(analyst).toHaveURL(/\/executions\/[0-9a-f-]{36}$/);
  const second = analyst.url().split('/').pop()!;
  expect(ids).toContain(second);
  expect(second).not.toBe(first);

  // 5. The manager's page: one fewer in the backlog, and a resolution time.
  await manager.reload();
  await expect(backlogOf(manager)).toHaveText('2');
  await expect(manager.locator(`tr[data-queue="${QUEUE}"] [data-testid="p50"]`)).toHaveText(/\d+ (s|min|h)/);

  // 6. The third case is past its due time: highlighted in the list and on its page.
  const third = ids.find((id) => id !== first && id !== second)!;
  await withE2eDb((db) =>
    db
      .update(schema.cases)
      .set({ dueAt: sql`now() - interval '1 hour'` })
      .where(and(eq(schema.cases.executionId, third), inArray(schema.cases.state, ['open', 'in_review']))),
  );
  await analyst.goto(`/executions?queue=${queue.id}&due=overdue`);
  await expect(analyst.getByRole('list', { name: 'Active filters' })).toContainText(`Queue: ${QUEUE}`);
  const rows = analyst.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveClass(/\boverdue\b/);
  await expect(rows.first().locator('[data-overdue]')).toContainText('Overdue');
  // On the list, j makes it the active row, a assigns its case to me, r opens its resolve panel.
  await pressUntil(analyst, 'j', () => expect(rows.first()).toHaveAttribute('data-active', 'true', { timeout: 3_000 }));
  await analyst.locator('body').press('a');
  await expect(analyst.getByRole('status').filter({ hasText: 'Assigned to you.' })).toBeVisible();
  await expect(rows.first()).toContainText('In review');
  await pressUntil(analyst, 'r', () =>
    expect(analyst).toHaveURL(new RegExp(`/executions/${third}\\?.*#resolve$`), { timeout: 6_000 }),
  );
  await expect(analyst.getByRole('radio', { name: 'Approve' })).toBeFocused();
  await expect(analyst.getByTestId('case-header')).toHaveAttribute('data-overdue', 'true');
  await expect(analyst.getByTestId('case-header').getByTestId('case-assignee')).toContainText('You');
});

test('an admin adds, renames and retires a resolution reason', async ({ browser }) => {
  const label = `Selfie re-taken ${TAG.slice(-8)}`;
  const admin = await pageAs(browser, 'admin');
  await admin.goto('/admin/reasons');
  const add = admin.getByRole('form', { name: 'Add a reason' });
  await add.getByLabel('Label').fill(label);
  await add.getByLabel('Approve').check();
  await add.getByRole('button', { name: 'Add reason' }).click();
  // The row is found by the reason's code, made from the label and kept through a rename.
  const row = admin.locator(`tbody tr[data-reason="SELFIE_RE_TAKEN_${TAG.slice(-8).toUpperCase()}"]`);
  await expect(row).toContainText('In use');
  await row.getByRole('textbox').fill(`${label} (renamed)`);
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByRole('textbox')).toHaveValue(`${label} (renamed)`);
  // Saved: the row comes back from the server with the new label, nothing left to save.
  await expect(row.getByRole('button', { name: 'Save' })).toBeDisabled();
  await row.getByRole('button', { name: 'Retire' }).click();
  await expect(row).toContainText('Retired');
  const audited = await withE2eDb((db) =>
    db
      .select({ action: schema.auditLog.action })
      .from(schema.auditLog)
      .where(inArray(schema.auditLog.action, ['case_reason.create', 'case_reason.update', 'case_reason.retire'])),
  );
  expect(new Set(audited.map((a) => a.action))).toEqual(
    new Set(['case_reason.create', 'case_reason.update', 'case_reason.retire']),
  );
});
