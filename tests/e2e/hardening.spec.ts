import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { withE2eDb } from '../support/e2e/db';
import { PASSWORD, USERS } from '../support/e2e/helpers';
import { SIGN_IN_REFUSED } from '../../lib/auth/sign-in-messages';

/**
 * Attacks tried against the running console over real HTTP, the way the browser and a script
 * reach it: through `npm start`'s own server in front of Next.
 */
test.describe('hardening at the edge', () => {
  const query = <T extends Record<string, unknown>>(text: string, params: unknown[]) =>
    withE2eDb(async (db) => (await db.$client.query<T>(text, params)).rows);

  test('a forged X-Forwarded-For reaches neither the audit log, the throttle nor the session record', async ({
    browser,
  }) => {
    const forged = '203.0.113.66';
    const context = await browser.newContext({
      extraHTTPHeaders: { 'X-Forwarded-For': forged, 'X-Real-IP': forged, Forwarded: `for=${forged}` },
    });
    const page = await context.newPage();
    const stranger = `spoof-${Date.now()}@verdict.local`;

    await page.goto('/login');
    await page.getByLabel('E-mail').fill(stranger);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: SIGN_IN_REFUSED })).toBeVisible();

    await page.getByLabel('E-mail').fill(USERS.analyst);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();

    const failure = await query<{ ip: string | null }>(
      `select ip from audit_log where actor_email = $1 and action = 'auth.sign_in'`,
      [stranger],
    );
    expect(failure).toHaveLength(1);
    expect(failure[0].ip).toMatch(/^(127\.0\.0\.1|::1)$/);
    const throttle = await query(`select key from login_throttle where key = $1`, [`ip:${forged}`]);
    expect(throttle).toHaveLength(0);
    const forgedAnywhere = await query<{ n: number }>(
      `select (select count(*) from audit_log where ip = $1)::int + (select count(*) from user_sessions where ip = $1)::int as n`,
      [forged],
    );
    expect(forgedAnywhere[0].n).toBe(0);
    await context.close();
  });

  test('listens on the loopback interface only (HOST unset)', async ({ baseURL }) => {
    // The kernel's table of listening sockets (Linux), read instead of dialling another address.
    test.skip(!fs.existsSync('/proc/net/tcp'), 'no /proc/net/tcp on this system');
    const port = Number(new URL(baseURL!).port).toString(16).toUpperCase().padStart(4, '0');
    const listening = ['/proc/net/tcp', '/proc/net/tcp6']
      .filter((f) => fs.existsSync(f))
      .flatMap((f) => fs.readFileSync(f, 'utf8').trim().split('\n').slice(1))
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols[1].endsWith(`:${port}`) && cols[3] === '0A')
      .map((cols) => cols[1].split(':')[0]);
    expect(listening.length).toBeGreaterThan(0);
    // 127.0.0.1 is 0100007F; ::1 is 00000000000000000000000001000000. Never 0.0.0.0 or ::.
    for (const addr of listening) expect(['0100007F', '00000000000000000000000001000000']).toContain(addr);
  });

  test('after a real sign-in, next=/\\host and next=/<TAB>/host stay on the origin', async ({ browser, baseURL }) => {
    for (const next of ['/\\evil.example/', '/\t/evil.example/']) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('E-mail').fill(USERS.analyst);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible();
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
      await context.close();
    }
  });
});
