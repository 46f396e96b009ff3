import { expect, type Browser, type Locator, type Page } from '@playwright/test';

/** The demo users' password in every browser test (the console is started with it as DEMO_PASSWORD). */
export const PASSWORD = 'e2e-demo-password';
export const USERS = {
  analyst: 'analyst@verdict.local',
  manager: 'manager@verdict.local',
  admin: 'admin@verdict.local',
} as const;
export type RoleName = keyof typeof USERS;

export const storageState = (role: RoleName) => `tests/e2e/.auth/${role}.json`;

/** A page in a browser context of its own, signed in as the demo `role` (the sign-in global setup saved). */
export async function pageAs(browser: Browser, role: RoleName): Promise<Page> {
  const context = await browser.newContext({ storageState: storageState(role) });
  return context.newPage();
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export async function signInAs(page: Page, role: RoleName) {
  await signIn(page, USERS[role]);
  // The first sign-in of a console that has just started renders its first pages: 5 s and more on a loaded machine.
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible({ timeout: 20_000 });
}

/**
 * Clicks `button` until `shown` is visible. The server's HTML arrives before its handlers: a click
 * that lands before the page (or a lazily loaded part of it) has hydrated opens nothing, and on a
 * slow machine that window is seconds long.
 */
export async function clickUntil(button: Locator, shown: Locator, timeout = 30_000) {
  await expect(async () => {
    await button.click({ timeout: 2_000 });
    await expect(shown).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout });
}

export async function signOut(page: Page) {
  // The account menu is loaded lazily.
  await clickUntil(
    page.getByRole('button', { name: /Account menu/ }),
    page.getByRole('menuitem', { name: 'Sign out' }),
    20_000,
  );
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
}

/** /metrics credential of the console under test (playwright.config.ts). */
export const METRICS_TOKEN = 'e2e-metrics-token-0123456789';
/** The worker's own /metrics listener: beside the console's port, clear of other runs on the machine. */
export const workerMetricsPort = (consolePort: number) => consolePort + 6000;
/** Where both processes of the console under test append their JSON log lines. */
export const e2eLogFile = () => `${process.env.E2E_DATA_DIR || '.data/e2e'}/verdict.log`;

/**
 * Fills the case's resolve form on `page`: the outcome, its reason and comment, and the label to
 * send along if given. Returns the form unsent, so the caller presses the button the outcome shows.
 */
export async function fillResolveForm(
  page: Page,
  r: { outcome: 'Approve' | 'Decline' | 'Escalate'; reason: string; comment: string; label?: [string, string] },
): Promise<Locator> {
  const form = page.getByRole('form', { name: 'Resolve the case' });
  await form.getByRole('radio', { name: r.outcome }).check();
  await form.getByLabel('Reason', { exact: true }).selectOption(r.reason);
  await form.getByLabel(/Comment/).fill(r.comment);
  if (r.label) {
    await form.getByLabel('Also send feedback').selectOption(r.label[0]);
    await form.getByLabel('Service reason').selectOption(r.label[1]);
  }
  return form;
}

/** Picks the Fraud label in a feedback form (the execution's panel or the bulk dialog), and `reason` if given. */
export async function chooseFraud(form: Locator, reason?: string) {
  await form
    .locator('label')
    .filter({ hasText: /^Fraud$/ })
    .click();
  if (reason) await form.getByLabel(/^Reason/).selectOption(reason);
}
