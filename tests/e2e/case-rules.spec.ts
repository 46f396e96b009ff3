import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import * as schema from '@/lib/db/schema';
import { buildExecution } from '../support/fixtures/execution';
import { demoCasesDone, withE2eDb } from '../support/e2e/db';
import { fillResolveForm, pageAs, signIn } from '../support/e2e/helpers';
import { sampleWeekOfCase, seedFirstAnalyst } from '../support/e2e/qa-steps';

/**
 * The case policy and the seal in a real browser (the integration walk calls every action and
 * route; this checks what the pages render):
 * 1. An analyst escalates a case: the detail page then shows no resolve form and no "Assign to me",
 *    but the sentence why; the manager resolves it.
 * 2. A case resolved by an analyst of the test's own is sampled for a blind QA review: the manager
 *    (who could take it) finds neither the outcome, its reason and comment nor the label on the
 *    audit page of that execution, and the audit export linked from the detail page withholds them.
 */

const TAG = `e2e-rules-${randomUUID().slice(0, 8)}`;
const FIRST = { email: `${TAG}@verdict.local`, name: `Rules first ${TAG}`, password: 'rules-first-password-123' };
const COMMENT = `Forged laminate ${TAG}`;

function tagged() {
  const x = buildExecution({ decision: 'WARNING', score: 63, documentNumber: `RL${randomUUID().slice(0, 7)}` });
  (x.result as { workflow: { reportingCriteria: string } }).workflow.reportingCriteria = TAG;
  return x;
}

test('an escalated case offers an analyst no resolve form; a blind reviewer finds no outcome or label in the audit log', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  await demoCasesDone();
  const esc = tagged();
  const sealed = tagged();
  await seedFirstAnalyst(FIRST, { name: `Rules ${TAG}`, priority: 901, tag: TAG }, [esc, sealed]);

  // 1. The analyst escalates; then the page shows why they cannot go on, and no form.
  const analyst = await pageAs(browser, 'analyst');
  await analyst.goto(`/executions/${esc.id}`);
  const form = await fillResolveForm(analyst, {
    outcome: 'Escalate',
    reason: 'NEEDS_SENIOR_REVIEW',
    comment: 'Needs a second pair of eyes.',
  });
  await form.getByRole('button', { name: 'Escalate' }).click();
  await expect(analyst.getByTestId('case-resolve-refused')).toContainText(
    /a queue for managers: only a manager may resolve it/,
  );
  await expect(analyst.getByRole('form', { name: 'Resolve the case' })).toHaveCount(0);
  await expect(analyst.getByRole('button', { name: /Assign to me/ })).toHaveCount(0);
  await expect(analyst.getByTestId('case-assign-refused')).toContainText(/only a manager may take it/);
  // Reloaded, the same: the page is rendered from the policy, not from what the client remembers.
  await analyst.reload();
  await expect(analyst.getByTestId('case-resolve-refused')).toBeVisible();
  await expect(analyst.getByRole('form', { name: 'Resolve the case' })).toHaveCount(0);

  // The manager (who did not escalate it) resolves it.
  const manager = await pageAs(browser, 'manager');
  await manager.goto(`/executions/${esc.id}`);
  const mform = await fillResolveForm(manager, {
    outcome: 'Decline',
    reason: 'DOCUMENT_FORGED',
    comment: 'Confirmed forged.',
  });
  await mform.getByRole('button', { name: 'Resolve' }).click();
  await expect(manager.getByTestId('case-resolution')).toContainText('Decline');

  // 2. The test's own analyst declines the other case with FRAUD; the manager samples the week.
  const firstCtx = await browser.newContext();
  const first = await firstCtx.newPage();
  await signIn(first, FIRST.email, FIRST.password);
  await expect(first.getByRole('button', { name: /Account menu/ })).toBeVisible();
  await first.goto(`/executions/${sealed.id}`);
  const ff = await fillResolveForm(first, { outcome: 'Decline', reason: 'DOCUMENT_FORGED', comment: COMMENT });
  await ff.getByRole('button', { name: 'Resolve' }).click();
  await expect(first.getByTestId('case-resolution')).toContainText('Decline');
  await firstCtx.close();

  await sampleWeekOfCase(manager, sealed.id);
  await expect
    .poll(() =>
      withE2eDb(
        async (db) =>
          (await db.select().from(schema.qaReviews).where(eq(schema.qaReviews.executionId, sealed.id)))[0]?.state,
      ),
    )
    .toBe('open');

  // The audit page of that execution: the resolution is listed, sealed, without its outcome.
  await manager.goto(`/audit?target=${sealed.id}`);
  const table = manager.getByRole('table');
  const resolveRow = table.locator('tr', { hasText: 'case.resolve' });
  await expect(resolveRow).toHaveCount(1);
  // The badge (its title says for whom); the record's fields below it name the key too.
  await expect(resolveRow.getByTitle(/Sealed for you until/)).toBeVisible();
  for (const secret of ['decline', 'DOCUMENT_FORGED', COMMENT, 'FRAUD']) await expect(table).not.toContainText(secret);

  // The audit export the detail page links to: the same entries, withheld, and the manifest says so.
  // An export holds the chained entries; the sealer chains new ones within about a second.
  let file = '';
  await expect
    .poll(
      async () => {
        const res = await manager.request.get(`/api/audit/export?execution=${sealed.id}&format=jsonl`);
        expect(res.status()).toBe(200);
        file = await res.text();
        // Entries still outside the chain when the file was planned, said with the file (if it fails).
        return `${file}\nunsealed: ${res.headers()['x-audit-unsealed']}`;
      },
      { timeout: 30_000 },
    )
    .toContain('"withheld":{"count":');
  for (const secret of ['"decline"', 'DOCUMENT_FORGED', COMMENT]) expect(file).not.toContain(secret);
});
