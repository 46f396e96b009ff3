import fs from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { ingestMany } from '@/lib/sync/ingest';
import { signInAs, storageState } from '../support/e2e/helpers';
import { withE2eDb } from '../support/e2e/db';
import { dataJourney, simAddress, simFaults, simGet, type SimAddress } from '../support/e2e/sim';

/**
 * Feedback in the browser against the console that `npm start` runs: its built-in simulator,
 * and the feedback worker inside it. The simulator's executions are put into the cache here
 * (what the sync's backfill does), and the simulator is asked afterwards, over HTTP, whether it
 * holds the label (R2's feedback object).
 */

interface SimExecution {
  workflow: { id: string; status: string };
  account: { id: string };
  createdAt: string;
  wipedOutAt?: string;
  feedback?: { status: string; reason?: string };
}

/** Every execution of the simulator, ingested into the cache as the sync's backfill would. */
async function backfill(api: APIRequestContext, sim: SimAddress): Promise<SimExecution[]> {
  const all: SimExecution[] = [];
  for (let page = 1; page < 20; page++) {
    const { workflowExecutions } = await simGet<{ workflowExecutions: SimExecution[] }>(
      api,
      sim,
      `/api/v1/workflow-executions?page=${page}&size=100`,
    );
    if (!workflowExecutions.length) break;
    all.push(...workflowExecutions);
  }
  const now = new Date();
  await withE2eDb(async (db) => {
    for (let i = 0; i < all.length; i += 100)
      await ingestMany(
        db,
        all.slice(i, i + 100).map((result) => ({ result, fetchedAt: now })),
      );
  });
  return all;
}

async function query<T extends Record<string, unknown>>(text: ReturnType<typeof sql>): Promise<T[]> {
  return withE2eDb(async (db) => (await db.execute(text)).rows as T[]);
}

/**
 * A new account at the simulator with `n` finished executions of a data-only workflow (A1, then
 * A2 for the rest; each sent its data and was started), read back with R2 once PROCESSED and
 * ingested into the cache.
 */
async function accountWithExecutions(api: APIRequestContext, sim: SimAddress, n: number): Promise<SimExecution[]> {
  const made = [await dataJourney(api, sim)];
  while (made.length < n) made.push(await dataJourney(api, sim, made[0].accountId));
  const results: SimExecution[] = [];
  for (const c of made) {
    let e: SimExecution | undefined;
    await expect(async () => {
      e = await simGet<SimExecution>(api, sim, `/api/v1/accounts/${c.accountId}/workflow-executions/${c.executionId}`);
      expect(e.workflow.status).toBe('PROCESSED');
    }).toPass({ timeout: 30_000 });
    results.push(e!);
  }
  await withE2eDb((db) =>
    ingestMany(
      db,
      results.map((result) => ({ result, fetchedAt: new Date() })),
    ),
  );
  return results;
}

const eligible = (e: SimExecution) => e.workflow.status === 'PROCESSED' && !e.wipedOutAt && !e.feedback;

let sim: SimAddress;
let pool: SimExecution[] = [];
const taken = new Set<string>();
/** A PROCESSED execution without feedback at the simulator that no other test uses. */
function take(): SimExecution {
  const e = pool.find((x) => eligible(x) && !taken.has(x.workflow.id));
  if (!e) throw new Error('no eligible simulator execution left');
  taken.add(e.workflow.id);
  return e;
}

async function label(page: Page, status: 'Fraud' | 'Not fraud' | 'NA (no label)', reason?: string, note?: string) {
  const panel = page.getByTestId('feedback-panel');
  await panel
    .locator('label')
    .filter({ hasText: new RegExp(`^${status.replace(/[()]/g, '\\$&')}$`) })
    .click();
  if (reason) await panel.getByLabel(/^Reason/).selectOption(reason);
  if (note) await panel.getByLabel(/^Internal note/).fill(note);
  await panel.getByRole('button', { name: /^Submit / }).click();
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  const api = await playwright.request.newContext();
  sim = simAddress();
  pool = await backfill(api, sim);
  await api.dispose();
});

test.describe('feedback as an analyst', () => {
  test.use({ storageState: storageState('analyst') });

  test('submits FRAUD with a reason, sees pending then delivered, and the simulator holds it', async ({
    page,
    playwright,
  }) => {
    const api = await playwright.request.newContext();
    const target = take();
    // A slower service keeps "pending" on screen long enough to be seen.
    await simFaults(api, sim, { latencyMs: 700 });
    try {
      await page.goto(`/executions/${target.workflow.id}`);
      const panel = page.getByTestId('feedback-panel');
      await expect(panel.getByText('No feedback from Verdict yet.')).toBeVisible();
      await expect(panel.getByRole('region', { name: 'Same identity document' })).toBeVisible();
      await label(page, 'Fraud', 'IDENTITY_FRAUD', 'Selfie is a photo of a screen');
      const current = panel.getByTestId('feedback-current');
      await expect(current).toContainText('Fraud · Identity fraud');
      await expect(current).toContainText('Pending');
      await expect(current).toContainText('Delivered', { timeout: 30_000 });
      await expect(panel.getByTestId('feedback-history')).toContainText('analyst@verdict.local');
    } finally {
      await simFaults(api, sim, { latencyMs: 0 });
    }
    const r2 = await simGet<{ feedback?: { status: string; reason?: string; providedAt?: string } }>(
      api,
      sim,
      `/api/v1/accounts/${target.account.id}/workflow-executions/${target.workflow.id}`,
    );
    expect(r2.feedback).toMatchObject({ status: 'FRAUD', reason: 'IDENTITY_FRAUD', providedAt: expect.any(String) });
    // After delivery the execution is refreshed from the service: the page shows the service's record.
    // The refresh follows the delivery (a few service calls): reload until the page shows it.
    await expect(async () => {
      await page.reload();
      await expect(page.locator('#feedback dl')).toContainText('FRAUD', { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.locator('#feedback')).toContainText('Identity fraud');
    await api.dispose();
  });

  test('FRAUD without a reason, and a 2001-character note, get form errors and store nothing', async ({ page }) => {
    const target = take();
    await page.goto(`/executions/${target.workflow.id}`);
    const panel = page.getByTestId('feedback-panel');
    // The browser's own checks are off (noValidate): the server's zod schema answers.
    await label(page, 'Fraud');
    await expect(panel.getByText('A reason is required for Fraud.')).toBeVisible();
    await panel
      .locator('label')
      .filter({ hasText: /^Not fraud$/ })
      .click();
    await panel.getByLabel(/^Internal note/).fill('x'.repeat(2001));
    await expect(panel.getByRole('button', { name: /^Submit / })).toBeDisabled();
    await expect(panel.getByText('2,001 / 2,000')).toBeVisible();
    const rows = await query<{ n: number }>(
      sql`select count(*)::int as n from feedback_submissions where execution_id = ${target.workflow.id}`,
    );
    expect(rows[0].n).toBe(0);
  });

  test('bulk: labels the selected executions, shows the combined blast radius and the progress of each delivery', async ({
    page,
    playwright,
  }) => {
    // Its own data: one new account at the simulator with three finished executions (A1, then A2
    // twice), ingested into the cache, so the list filtered to the account shows exactly them.
    const api = await playwright.request.newContext();
    const own = await accountWithExecutions(api, sim, 3);
    const accountId = own[0].account.id;
    const ids = own.map((e) => e.workflow.id);
    await page.goto(`/executions?account=${accountId}`);
    await expect(page.getByRole('row')).toHaveCount(ids.length + 1);
    await page.getByRole('checkbox', { name: /select all/i }).check();
    await page.getByRole('button', { name: 'Label selected…' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`${ids.length} executions selected`);
    await expect(dialog.getByRole('region', { name: 'Same identity document' })).toBeVisible();
    await dialog
      .locator('label')
      .filter({ hasText: /^Not fraud$/ })
      .click();
    await dialog.getByLabel(/^Reason/).selectOption('COMPANY_POLICY');
    await dialog.getByRole('button', { name: `Label ${ids.length} as Not fraud` }).click();
    await expect(dialog.getByRole('progressbar')).toBeVisible();
    await expect(dialog).toContainText(`All ${ids.length} delivered.`, { timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Done' }).click();
    for (const id of ids) {
      const r2 = await simGet<{ feedback?: { status: string; reason?: string } }>(
        api,
        sim,
        `/api/v1/accounts/${accountId}/workflow-executions/${id}`,
      );
      expect(r2.feedback).toMatchObject({ status: 'NOT_FRAUD', reason: 'COMPANY_POLICY' });
    }
    await api.dispose();
    await page.goto(`/executions?account=${accountId}`);
    await expect(page.getByRole('table')).toContainText('NOT FRAUD');
  });
});

test.describe('four-eyes', () => {
  test('an analyst’s label waits for a manager, who approves it from the queue', async ({ browser, playwright }) => {
    const admin = await browser.newPage({ storageState: storageState('admin') });
    await admin.goto('/admin/settings');
    const toggle = admin.getByRole('switch', { name: /Four-eyes/ });
    await admin.getByText('Four-eyes for Fraud and Not fraud labels').click();
    await expect(toggle).toBeChecked();
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText(/Four-eyes is on/)).toBeVisible();

    const target = take();
    const analyst = await browser.newPage({ storageState: storageState('analyst') });
    try {
      await analyst.goto(`/executions/${target.workflow.id}`);
      await analyst
        .getByTestId('feedback-panel')
        .locator('label')
        .filter({ hasText: /^Not fraud$/ })
        .click();
      await expect(
        analyst.getByText('Four-eyes is on: a manager approves this label before it is sent.'),
      ).toBeVisible();
      await analyst
        .getByTestId('feedback-panel')
        .getByRole('button', { name: /^Submit / })
        .click();
      await expect(analyst.getByTestId('feedback-current')).toContainText('Awaiting approval');

      // The analyst has no approval queue.
      const denied = await analyst.goto('/approvals');
      expect(denied?.status()).toBe(403);

      const manager = await browser.newPage({ storageState: storageState('manager') });
      await manager.goto('/approvals');
      const row = manager
        .getByRole('row')
        .filter({ has: manager.locator(`a[href="/executions/${target.workflow.id}"]`) });
      await expect(row).toContainText('analyst@verdict.local');
      await row.getByRole('button', { name: /^Approve/ }).click();
      await expect(row.getByRole('status')).toContainText('Approved');

      await analyst.goto(`/executions/${target.workflow.id}`);
      await expect(analyst.getByTestId('feedback-current')).toContainText('Delivered', { timeout: 30_000 });
      await expect(analyst.getByTestId('feedback-current')).toContainText('approved by manager@verdict.local');
      const api = await playwright.request.newContext();
      const r2 = await simGet<{ feedback?: { status: string } }>(
        api,
        sim,
        `/api/v1/accounts/${target.account.id}/workflow-executions/${target.workflow.id}`,
      );
      expect(r2.feedback?.status).toBe('NOT_FRAUD');
      await api.dispose();
      await manager.close();
    } finally {
      await admin.goto('/admin/settings');
      await admin.getByText('Four-eyes for Fraud and Not fraud labels').click();
      await expect(admin.getByRole('switch', { name: /Four-eyes/ })).not.toBeChecked();
      await admin.getByRole('button', { name: 'Save' }).click();
      await expect(admin.getByText(/Four-eyes is off/)).toBeVisible();
      await admin.close();
      await analyst.close();
    }
  });
});

test.describe('who may submit', () => {
  test('a signed-out session cannot submit by calling the action directly; an analyst cannot approve', async ({
    browser,
    playwright,
    baseURL,
  }) => {
    const manifest = JSON.parse(fs.readFileSync('.next/server/server-reference-manifest.json', 'utf8')) as {
      node: Record<string, { filename?: string; exportedName?: string }>;
    };
    const idOf = (name: string) => Object.entries(manifest.node).find(([, a]) => a.exportedName === name)?.[0];
    const submitId = idOf('submitFeedbackAction');
    const approveId = idOf('approveFeedbackAction');
    expect(submitId && approveId).toBeTruthy();

    // A cookie that is still validly signed but whose session was ended by signing out.
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInAs(page, 'analyst');
    const ended = await context.storageState();
    await page.getByRole('button', { name: /Account menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login/);
    await context.close();

    const target = take();
    const call = async (ctx: APIRequestContext, id: string, args: unknown[]) =>
      (
        await ctx.post('/executions', {
          headers: { 'Next-Action': id, 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component' },
          data: JSON.stringify(args),
          maxRedirects: 0,
        })
      ).text();
    const endedCtx = await playwright.request.newContext({ baseURL, storageState: ended });
    const body = [
      {
        executionId: target.workflow.id,
        status: 'FRAUD',
        reason: 'IDENTITY_FRAUD',
        version: 'none',
        idempotencyKey: 'e2e-direct-call-0001',
      },
    ];
    expect(await call(endedCtx, submitId!, body)).toContain('UNAUTHENTICATED');
    const analyst = await playwright.request.newContext({ baseURL, storageState: storageState('analyst') });
    expect(await call(analyst, approveId!, [{ submissionId: '00000000-0000-4000-8000-000000000000' }])).toContain(
      'FORBIDDEN',
    );
    const rows = await query<{ n: number }>(
      sql`select count(*)::int as n from feedback_submissions where execution_id = ${target.workflow.id}`,
    );
    expect(rows[0].n).toBe(0);
  });
});
