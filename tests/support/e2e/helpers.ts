import { expect, type Page } from '@playwright/test';

/** The demo users' password in every browser test (the console is started with it as DEMO_PASSWORD). */
export const PASSWORD = 'e2e-demo-password';
export const USERS = {
  analyst: 'analyst@verdict.local',
  manager: 'manager@verdict.local',
  admin: 'admin@verdict.local',
} as const;
export type RoleName = keyof typeof USERS;

export const storageState = (role: RoleName) => `tests/e2e/.auth/${role}.json`;

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

export async function signOut(page: Page) {
  // The account menu is loaded lazily: a click that lands before it has hydrated opens nothing,
  // so the click is repeated until the menu is there.
  await expect(async () => {
    await page.getByRole('button', { name: /Account menu/ }).click();
    await expect(page.getByRole('menuitem', { name: 'Sign out' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
}

/** /metrics credential of the console under test (playwright.config.ts). */
export const METRICS_TOKEN = 'e2e-metrics-token-0123456789';
/** The worker's own /metrics listener: beside the console's port, clear of other runs on the machine. */
export const workerMetricsPort = (consolePort: number) => consolePort + 6000;
/** Where both processes of the console under test append their JSON log lines. */
export const e2eLogFile = () => `${process.env.E2E_DATA_DIR || '.data/e2e'}/verdict.log`;
