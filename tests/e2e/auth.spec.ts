import { expect, test } from '@playwright/test';
import { PAGE_ACCESS } from '../../lib/auth/access';
import { signIn, signInAs, signOut, storageState, USERS } from '../support/e2e/helpers';
import { SIGN_IN_REFUSED } from '../../lib/auth/sign-in-messages';

/** Chosen by the new user through the one-time link: passes the password rule (lib/auth/password-policy.ts). */
const PASSWORD_OF_TEMP = 'Velvet-Harbor-Quartz-42';

test.describe('sign-in and roles', () => {
  test('each role signs in, sees only what it may open, and signs out', async ({ page }) => {
    const expected = {
      analyst: { visible: ['My work'], hidden: ['Audit log', 'Users'] },
      manager: { visible: ['My work', 'Audit log'], hidden: ['Users'] },
      admin: { visible: ['My work', 'Audit log', 'Users'], hidden: [] as string[] },
    };
    for (const role of ['analyst', 'manager', 'admin'] as const) {
      await signInAs(page, role);
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const label of expected[role].visible) await expect(nav.getByRole('link', { name: label })).toBeVisible();
      for (const label of expected[role].hidden) await expect(nav.getByRole('link', { name: label })).toHaveCount(0);
      await signOut(page);
      await page.goto('/');
      await expect(page).toHaveURL(/\/login/);
    }
  });

  test('a signed-out visitor is sent to /login from every page', async ({ page }) => {
    for (const [route, access] of Object.entries(PAGE_ACCESS)) {
      if (access === 'public' || route.includes('[')) continue;
      await page.goto(route);
      await expect(page, `visiting ${route}`).toHaveURL(/\/login/);
      await expect(page.getByRole('heading', { name: 'Sign in to Verdict' })).toBeVisible();
    }
  });

  test('bad sign-in input gets a clear message, never an error page', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByText('Enter your e-mail address.')).toBeVisible();
    await expect(page.getByText('Enter your password.')).toBeVisible();

    await signIn(page, USERS.analyst, 'not-the-password');
    await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_REFUSED })).toBeVisible();

    await signIn(page, 'nobody@verdict.local', 'whatever-password');
    await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_REFUSED })).toBeVisible();

    await signIn(page, `${'a'.repeat(300)}@verdict.local`, 'whatever-password');
    await expect(page.getByRole('alert').filter({ hasText: 'That e-mail address is too long.' })).toBeVisible();
  });

  test('a tampered session cookie is treated as signed out, never an error', async ({ page, context, baseURL }) => {
    await context.addCookies([
      {
        name: 'next-auth.session-token',
        value: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..tampered.tampered.tampered',
        url: baseURL!,
      },
    ]);
    const res = await page.goto('/');
    expect(res?.status()).toBeLessThan(500);
    await expect(page).toHaveURL(/\/login/);
    const api = await page.request.get('/api/health');
    expect(api.status()).toBe(200);
  });

  test('an analyst opening an admin page gets a clear 403 page', async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageState('analyst') });
    const page = await context.newPage();
    const res = await page.goto('/admin/users');
    expect(res?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
    const audit = await page.goto('/audit');
    expect(audit?.status()).toBe(403);
    await context.close();
  });

  test('an admin creates a user; deactivating them ends their session and blocks sign-in; failures lock the account', async ({
    browser,
  }) => {
    // Six failed sign-ins wait for the account's growing delay (up to 5 s each) before their check.
    test.setTimeout(180_000);
    const email = `temp-${Date.now()}@example.test`;
    const adminCtx = await browser.newContext({ storageState: storageState('admin') });
    const admin = await adminCtx.newPage();
    await admin.goto('/admin/users');
    const form = admin.locator('form').filter({ has: admin.getByRole('button', { name: 'Add user' }) });
    // Invalid first: the form shows per-field errors and creates nothing.
    await form.getByLabel('E-mail').fill('not-an-email');
    await form.getByLabel('Name').fill('Temp');
    await form.getByRole('button', { name: 'Add user' }).click();
    await expect(form.getByText('Enter a valid e-mail address.')).toBeVisible();

    // The admin never sets the password: the new user chooses it through the one-time link.
    await form.getByLabel('E-mail').fill(email);
    await form.getByRole('button', { name: 'Add user' }).click();
    await expect(admin.getByText(`${email} was added as analyst.`, { exact: false })).toBeVisible();
    await expect(admin.getByRole('cell', { name: `Temp ${email}` })).toBeVisible();
    const link = await form.getByLabel('One-time link (shown only now)').inputValue();

    const userCtx = await browser.newContext();
    const user = await userCtx.newPage();
    await user.goto(link);
    await user.getByLabel('New password').fill(PASSWORD_OF_TEMP);
    await user.getByLabel('Repeat it').fill(PASSWORD_OF_TEMP);
    await user.getByRole('button', { name: 'Set password' }).click();
    await expect(user.getByText(`Your password is set for ${email}.`)).toBeVisible();
    await signIn(user, email, PASSWORD_OF_TEMP);
    await expect(user.getByRole('button', { name: /Account menu/ })).toBeVisible();

    await admin.getByRole('button', { name: `Deactivate ${email}`, exact: true }).click();
    // Deactivation asks first, naming the person.
    await admin.getByRole('dialog', { name: 'Deactivate Temp?' }).getByRole('button', { name: 'Deactivate' }).click();
    await expect(admin.getByRole('button', { name: `Activate ${email}`, exact: true })).toBeVisible();

    // A new request with the old cookie: its session has ended on the server.
    const after = await user.request.get('/', { maxRedirects: 0 });
    expect(after.status()).toBe(307);
    // Revoked by the deactivation, or found inactive by a request that raced it: either ends the session.
    expect(after.headers().location).toMatch(/\/login\?reason=(revoked|inactive)/);
    // The right password of a deactivated account gets the same answer as a wrong one (no oracle).
    await signIn(user, email, PASSWORD_OF_TEMP);
    await expect(user.getByRole('alert').filter({ hasText: SIGN_IN_REFUSED })).toBeVisible();

    await admin.getByRole('button', { name: `Activate ${email}`, exact: true }).click();
    await expect(admin.getByRole('button', { name: `Deactivate ${email}`, exact: true })).toBeVisible();
    for (let i = 0; i < 5; i++) {
      // Each failure is answered (after its growing delay) before the next attempt.
      await signIn(user, email, `wrong-password-${i}`);
      await expect(
        user.getByRole('alert').filter({ hasText: /Wrong e-mail or password|Too many failed sign-ins/ }),
      ).toBeVisible({ timeout: 15_000 });
    }
    await expect(user.getByRole('alert').filter({ hasText: /Too many failed sign-ins/ })).toBeVisible();
    await signIn(user, email, PASSWORD_OF_TEMP);
    await expect(user.getByRole('alert').filter({ hasText: /Too many failed sign-ins/ })).toBeVisible();

    // The lock holds for this address only (tests/integration/auth.test.ts signs in from another);
    // the admin sees it on the Users page and lifts it.
    await admin.reload();
    const row = admin.getByRole('row').filter({ hasText: email });
    await expect(row.getByText('Sign-in locked from 1 address')).toBeVisible();
    const unlock = row.getByRole('button', { name: `Unlock sign-in of ${email}` });
    await unlock.focus();
    await admin.keyboard.press('Enter');
    await expect(row.getByText(/Sign-in locked/)).toHaveCount(0);
    await expect(unlock).toHaveCount(0);
    await signIn(user, email, PASSWORD_OF_TEMP);
    await expect(user.getByRole('button', { name: /Account menu/ })).toBeVisible({ timeout: 15_000 });
    await adminCtx.close();
    await userCtx.close();
  });

  test('the audit page shows the sign-ins of this run, filtered by user and action', async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageState('manager') });
    const page = await context.newPage();
    await page.goto(`/audit?action=auth.sign_in&user=${encodeURIComponent(USERS.analyst)}`);
    const rows = page.getByRole('row').filter({ hasText: USERS.analyst });
    await expect(rows.first()).toBeVisible();
    await expect(rows.filter({ hasText: 'success' }).first()).toBeVisible();
    await expect(rows.filter({ hasText: 'failure' }).first()).toBeVisible();
    await page.goto('/audit?action=user.deactivate');
    await expect(page.getByRole('row').filter({ hasText: 'admin@verdict.local' }).first()).toBeVisible();
    await context.close();
  });
});
