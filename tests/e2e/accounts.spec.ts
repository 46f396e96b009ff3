import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { hashPassword } from '@/lib/auth/password';
import * as schema from '@/lib/db/schema';
import { withE2eDb } from '../support/e2e/db';
import { signIn, signOut } from '../support/e2e/helpers';

/**
 * Second factors in a real Chromium: a manager of the test's own (the console runs with
 * MFA_REQUIRED=privileged) must enrol before any page opens; TOTP codes are computed here from the
 * secret the page shows for manual entry; passkeys go through Chromium's virtual authenticator
 * (DevTools protocol WebAuthn domain).
 */
const PASSWORD = 'Velvet-Harbor-Quartz-42';

async function newManager() {
  const email = `mfa-${randomUUID().slice(0, 8)}@example.test`;
  const passwordHash = await hashPassword(PASSWORD);
  await withE2eDb((db) => db.insert(schema.users).values({ email, name: 'Mia Factor', role: 'manager', passwordHash }));
  return email;
}

const totpCode = (secret: string, stepOffset: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + stepOffset * 30_000,
  });

async function accountFailures(email: string) {
  return withE2eDb(async (db) => {
    const [row] = await db
      .select()
      .from(schema.loginThrottle)
      .where(eq(schema.loginThrottle.key, `acct:${email}`));
    return row?.failures ?? 0;
  });
}

const shell = (page: Page) => page.getByRole('button', { name: /Account menu/ });

test.describe('second factor', () => {
  test('TOTP: enrolment gate at first sign-in, a computed code, a recovery code once and not twice, a wrong code counted', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const email = await newManager();
    await signIn(page, email, PASSWORD);
    await expect(page.getByRole('heading', { name: 'Add a second factor' })).toBeVisible({ timeout: 20_000 });
    // Nothing else opens before the enrolment.
    for (const path of ['/', '/executions', '/audit', '/account']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login\/second-factor$/);
    }

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Code from the app').fill(totpCode(secret, 0));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    const listed = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(listed).toHaveCount(10);
    const codes = await listed.allTextContents();
    expect(codes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them, continue' }).click();
    await expect(shell(page)).toBeVisible({ timeout: 20_000 });
    await signOut(page);

    // A wrong code is refused and counted by the sign-in throttle; the next step's code opens the console.
    await signIn(page, email, PASSWORD);
    await expect(page.getByRole('heading', { name: 'Second factor' })).toBeVisible({ timeout: 20_000 });
    const before = await accountFailures(email);
    const right = totpCode(secret, 1);
    await page.getByLabel('Code').fill(right === '123456' ? '654321' : '123456');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('That code is not right.')).toBeVisible();
    expect(await accountFailures(email)).toBe(before + 1);
    await page.getByLabel('Code').fill(right);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(shell(page)).toBeVisible({ timeout: 20_000 });
    await signOut(page);

    // A recovery code works once...
    await signIn(page, email, PASSWORD);
    await page.getByLabel('Code').fill(codes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(shell(page)).toBeVisible({ timeout: 20_000 });
    await signOut(page);
    // ...and not twice.
    await signIn(page, email, PASSWORD);
    await page.getByLabel('Code').fill(codes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('That code is not right.')).toBeVisible();
    await expect(page).toHaveURL(/\/login\/second-factor$/);
  });

  test('a passkey is enrolled and used through the virtual authenticator', async ({ page }) => {
    test.setTimeout(120_000);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    const email = await newManager();
    await signIn(page, email, PASSWORD);
    await expect(page.getByRole('heading', { name: 'Add a second factor' })).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(page.getByRole('list', { name: 'Recovery codes' })).toBeVisible();
    await page.getByRole('button', { name: 'I have saved them, continue' }).click();
    await expect(shell(page)).toBeVisible({ timeout: 20_000 });
    await signOut(page);

    await signIn(page, email, PASSWORD);
    await expect(page.getByRole('heading', { name: 'Second factor' })).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(shell(page)).toBeVisible({ timeout: 20_000 });
    const used = await withE2eDb(async (db) => {
      const [u] = await db.select().from(schema.users).where(eq(schema.users.email, email));
      return db.select().from(schema.userFactors).where(eq(schema.userFactors.userId, u.id));
    });
    expect(used).toHaveLength(1);
    expect(used[0].kind).toBe('passkey');
    expect(used[0].lastUsedAt).not.toBeNull();
  });

  test('the shell says a demo sign-in is password-only; the access review records "Mark reviewed"', async ({
    page,
  }) => {
    await signIn(page, 'admin@verdict.local');
    await expect(page.getByRole('link', { name: /Demo sign-in: password only/ })).toBeVisible({ timeout: 20_000 });
    await page.goto('/admin/access-review');
    await expect(page.getByRole('cell', { name: /admin@verdict\.local/ })).toBeVisible();
    await page.getByRole('button', { name: 'Mark reviewed' }).click();
    await expect(page.getByText('Review recorded in the audit log')).toBeVisible();
    await page.goto('/audit');
    await expect(page.getByRole('table').getByText('access_review.complete').first()).toBeVisible();
  });
});
