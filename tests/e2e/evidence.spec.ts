import { execFileSync } from 'node:child_process';
import { expect, test, type Download, type Page } from '@playwright/test';
import { verifyExportFile } from '../../lib/evidence/export-file';
import { FX, PERSON } from '../fixtures/review';
import { storageState } from './helpers';

/**
 * Evidence for an examiner, in the browser: a manager exports the audit of one execution (the file
 * verifies offline) and downloads its case report; an analyst without a reveal gets a masked
 * report; bad export requests get a 4xx with a sentence.
 */
async function download(page: Page, name: string | RegExp): Promise<{ path: string; file: Download }> {
  const pending = page.waitForEvent('download');
  await page.getByRole('link', { name }).click();
  const file = await pending;
  return { path: (await file.path())!, file };
}

const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });

test.describe('as a manager', () => {
  test.use({ storageState: storageState('manager') });

  test('exports the audit of one execution and downloads its case report', async ({ page }) => {
    await page.goto(`/executions/${FX.every}`);
    await expect(page.getByRole('region', { name: 'Audit trail' })).toBeVisible();

    const exported = await download(page, 'Export audit');
    expect(exported.file.suggestedFilename()).toMatch(/^audit-execution-.*\.csv$/);
    const check = await verifyExportFile(exported.path);
    expect(check).toMatchObject({ ok: true, format: 'csv', failure: null });
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
