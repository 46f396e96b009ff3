import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { chooseFraud, storageState, type RoleName } from '../support/e2e/helpers';

/**
 * Screenshots of the feedback screens in light and dark, for review by eye. Runs only when
 * SHOTS_DIR is set: `SHOTS_DIR=/tmp/shots npm run test:e2e -- tests/e2e/feedback-screens.spec.ts`
 * (after feedback.spec.ts has filled the cache, or on its own after a sync).
 */
// playwright.config.ts ignores this file unless SHOTS_DIR is set.
const dir = process.env.SHOTS_DIR as string;

async function pageAs(browser: Browser, role: RoleName, theme: 'light' | 'dark', baseURL: string) {
  const context = await browser.newContext({
    storageState: storageState(role),
    viewport: { width: 1400, height: 1000 },
  });
  await context.addCookies([{ name: 'theme', value: theme, url: baseURL }]);
  return context.newPage();
}

async function setFourEyes(browser: Browser, baseURL: string, on: boolean) {
  const admin = await pageAs(browser, 'admin', 'light', baseURL);
  await admin.goto('/admin/settings');
  const toggle = admin.getByRole('switch', { name: /Four-eyes/ });
  if ((await toggle.isChecked()) !== on) {
    await admin.getByText('Four-eyes for Fraud and Not fraud labels').click();
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText(on ? /Four-eyes is on/ : /Four-eyes is off/)).toBeVisible();
  }
  await admin.context().close();
}

for (const theme of ['light', 'dark'] as const) {
  test(`feedback screens, ${theme}`, async ({ browser, baseURL }) => {
    test.setTimeout(120_000);
    fs.mkdirSync(dir!, { recursive: true });
    const shot = (name: string) => path.join(dir!, `${name}-${theme}.png`);
    const analyst = await pageAs(browser, 'analyst', theme, baseURL!);
    await analyst.goto('/executions?sort=risk');
    const links = analyst.getByRole('link', { name: /^\d{1,2} \w{3} \d{4}/ });
    const hrefs = await links.evaluateAll((as) =>
      as.slice(0, 8).map((a) => (a as HTMLAnchorElement).getAttribute('href')!),
    );
    const row = (i: number) => hrefs[(i + (theme === 'dark' ? 4 : 0)) % hrefs.length];

    // The form with a field error.
    await analyst.goto(row(0));
    const panel = analyst.getByTestId('feedback-panel');
    await chooseFraud(panel);
    await panel.getByLabel(/^Internal note/).fill('Selfie looks like a screen photo; same device as two other cases.');
    await panel.getByRole('button', { name: /^Submit / }).click();
    await expect(panel.getByText('A reason is required for Fraud.')).toBeVisible();
    await analyst.locator('#feedback').screenshot({ path: shot('form-error') });

    // Then a label that reaches its end state (delivered, or refused for a fixture the service does not know).
    await panel.getByLabel(/^Reason/).selectOption('IDENTITY_FRAUD');
    await panel.getByRole('button', { name: /^Submit / }).click();
    await expect(panel.getByTestId('feedback-current')).toContainText(/Delivered|Failed/, { timeout: 30_000 });
    await analyst.locator('#feedback').screenshot({ path: shot('form-state') });

    await analyst.goto('/executions');
    for (let i = 0; i < 3; i++)
      await analyst
        .getByRole('checkbox', { name: /Select execution/ })
        .nth(i)
        .check();
    await analyst.getByRole('button', { name: 'Label selected…' }).click();
    const dialog = analyst.getByRole('dialog');
    await chooseFraud(dialog, 'SYNTHETIC_ID_FRAUD');
    await expect(dialog.getByRole('region', { name: 'Same identity document' })).toBeVisible();
    await analyst.screenshot({ path: shot('bulk-confirm') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Two labels waiting for a manager.
    await setFourEyes(browser, baseURL!, true);
    for (const [i, status] of [
      [1, 'Not fraud'],
      [2, 'Fraud'],
    ] as const) {
      await analyst.goto(row(i));
      await panel
        .locator('label')
        .filter({ hasText: new RegExp(`^${status}$`) })
        .click();
      if (status === 'Fraud') await panel.getByLabel(/^Reason/).selectOption('THIRD_PARTY_FRAUD');
      await panel
        .getByLabel(/^Internal note/)
        .fill(
          status === 'Fraud'
            ? 'Document reused across three accounts this week.'
            : 'Customer called; verified by video.',
        );
      await panel.getByRole('button', { name: /^Submit / }).click();
      await expect(panel.getByTestId('feedback-current')).toContainText('Awaiting approval');
    }
    await analyst.goto('/executions?feedback=pending');
    await analyst.screenshot({ path: shot('list-pending') });
    await analyst.context().close();

    const manager = await pageAs(browser, 'manager', theme, baseURL!);
    await manager.goto('/approvals');
    await manager
      .getByRole('button', { name: /^Reject/ })
      .first()
      .click();
    await manager.screenshot({ path: shot('approvals'), fullPage: true });
    await manager.context().close();

    const admin = await pageAs(browser, 'admin', theme, baseURL!);
    await admin.goto('/admin/settings');
    await admin.screenshot({ path: shot('settings') });
    await admin.context().close();
    await setFourEyes(browser, baseURL!, false);
  });
}
