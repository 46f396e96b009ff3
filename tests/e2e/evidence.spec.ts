import { execFileSync, spawnSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { verifyExportFile } from '../../lib/evidence/export-file';
import { FX, PERSON } from '../support/fixtures/review';
import { storageState, USERS } from '../support/e2e/helpers';

/**
 * Evidence for an examiner, in the browser: a manager takes the public key from the audit page,
 * exports the audit of one execution and of a period (each file proves itself offline, with
 * Verdict's verifier and with the standalone examiner's script) and downloads the case report;
 * an analyst without a reveal gets a masked report; bad export requests get a 4xx with a sentence.
 */
async function download(page: Page, name: string | RegExp): Promise<{ path: string; file: Download }> {
  const pending = page.waitForEvent('download');
  await page.getByRole('link', { name }).click();
  const file = await pending;
  return { path: (await file.path())!, file };
}

const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });

/** The public key as the audit page shows it to managers, saved for the examiner's script. */
async function publicKeyFromPage(page: Page) {
  await page.goto('/audit');
  await page.getByText('Export for an examiner').click();
  const pem = (await page.getByTestId('audit-public-key').textContent())!.trim();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-e2e-key-')), 'key.pem');
  fs.writeFileSync(file, `${pem}\n`);
  return { key: createPublicKey(pem), file };
}

/** Verdict's verifier and the standalone examiner's script agree that the file proves itself. */
async function expectVerified(file: string, key: { key: ReturnType<typeof createPublicKey>; file: string }) {
  const r = await verifyExportFile(file, key.key);
  expect(r, JSON.stringify(r.failure)).toMatchObject({ ok: true, failure: null });
  const script = spawnSync(
    process.execPath,
    [path.resolve('docs/examiner/verify-audit-export.mjs'), file, '--public-key', key.file],
    { encoding: 'utf8' },
  );
  expect(script.stdout).toMatch(/^VERIFIED: /);
  expect(script.status).toBe(0);
  return r;
}

test.describe('as a manager', () => {
  test.use({ storageState: storageState('manager') });

  test('exports the audit of one execution and downloads its case report', async ({ page }) => {
    const key = await publicKeyFromPage(page);
    await page.goto(`/executions/${FX.every}`);
    await expect(page.getByRole('region', { name: 'Audit trail' })).toBeVisible();

    const exported = await download(page, 'Export audit');
    expect(exported.file.suggestedFilename()).toMatch(/^audit-execution-.*\.csv$/);
    const check = await expectVerified(exported.path, key);
    expect(check).toMatchObject({
      format: 'csv',
      manifest: { kind: 'filtered', exportedBy: { email: USERS.manager } },
    });
    // The export's own entry is the file's last: it targets this execution.
    expect(check.entries).toBeGreaterThanOrEqual(1);

    const report = await download(page, 'Case report (PDF)');
    expect(report.file.suggestedFilename()).toBe(`case-report-${FX.every}.pdf`);
    const text = pdfText(report.path);
    for (const section of ['Case report', 'Decision and risk', 'Checks', 'Rules and scores', 'Audit trail'])
      expect(text).toContain(section);
    expect(text).toContain('manager@verdict.local');
    expect(text).toContain('Chain hash of the last entry');

    // Both are in the audit log, and its page offers the export and the chain's state.
    await page.goto('/audit?action=execution.report');
    await expect(page.getByRole('cell', { name: 'execution.report' }).first()).toBeVisible();
    await page.goto('/audit?action=audit.export');
    await expect(page.getByRole('cell', { name: 'audit.export' }).first()).toBeVisible();
    await expect(page.getByTestId('audit-integrity')).toBeVisible();
    await page.getByText('Export for an examiner').click();
    await expect(page.getByRole('form', { name: 'Export the audit log' })).toBeVisible();
  });

  test('exports a period from the audit page; the file proves itself offline', async ({ page }) => {
    const key = await publicKeyFromPage(page);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const form = page.getByRole('form', { name: 'Export the audit log' });
    await form.getByLabel('From').fill(day(new Date(Date.now() - 86_400_000)));
    await form.getByLabel('To').fill(day(new Date()));
    await form.getByLabel('Format').selectOption('jsonl');
    const pending = page.waitForEvent('download');
    await form.getByRole('button', { name: 'Export' }).click();
    const file = await pending;
    expect(file.suggestedFilename()).toMatch(/^audit-period-.*\.jsonl$/);
    const check = await expectVerified((await file.path())!, key);
    expect(check).toMatchObject({ format: 'jsonl', manifest: { kind: 'period' } });
    expect(check.entries).toBeGreaterThan(1);
  });

  test('an export without dates is refused on the audit page itself, the choices kept', async ({ page }) => {
    await page.goto('/audit');
    await page.getByText('Export for an examiner').click();
    const form = page.getByRole('form', { name: 'Export the audit log' });
    await form.getByLabel('Format').selectOption('jsonl');
    await form.getByRole('button', { name: 'Export' }).click();
    await expect(form.getByRole('alert')).toContainText('Choose a period (from and to), a user or an execution');
    await expect(page).toHaveURL(/\/audit/);
    await expect(form.getByLabel('Format')).toHaveValue('jsonl');
    await form.getByLabel('From').fill('2024-01-01');
    await form.getByLabel('To').fill('2026-01-01');
    await form.getByRole('button', { name: 'Export' }).click();
    await expect(form.getByRole('alert')).toContainText('longer than a year');
    await expect(form.getByLabel('From')).toHaveValue('2024-01-01');
  });

  test('bad export requests get a 4xx with a message, never a 500', async ({ request }) => {
    const cases: Array<[string, number, RegExp]> = [
      ['from=2024-01-01&to=2026-01-01', 400, /longer than a year/],
      ['from=2026-99-01&to=2026-10-01', 400, /from must be a date/],
      ['execution=00000000-0000-4000-8000-00000000beef', 404, /No execution/],
      ['user=nobody@example.test&from=2026-01-01&to=2026-02-01', 404, /No user/],
      ['', 400, /Choose a period/],
    ];
    for (const [qs, status, detail] of cases) {
      const res = await request.get(`/api/audit/export?${qs}`);
      expect(res.status(), qs).toBe(status);
      expect((await res.json()).detail).toMatch(detail);
    }
  });
});

test.describe('as an analyst without a reveal', () => {
  test.use({ storageState: storageState('analyst') });

  test('gets a masked case report and no audit export', async ({ page, request }) => {
    await page.goto(`/executions/${FX.every}`);
    await expect(page.getByRole('link', { name: 'Export audit' })).toHaveCount(0);
    const report = await download(page, 'Case report (PDF)');
    const text = pdfText(report.path);
    expect(text).toContain('masked (the requester has no active reveal)');
    expect(text).toMatch(/images withheld: personal data is masked/);
    expect(text).not.toContain(PERSON.lastName);
    expect(text).not.toContain(PERSON.documentNumber);
    expect((await request.get(`/api/audit/export?execution=${FX.every}`)).status()).toBe(403);
  });
});
