import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { and, count, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { hashPassword } from '@/lib/auth/password';
import * as schema from '@/lib/db/schema';
import { withE2eDb } from '../support/e2e/db';
import { signIn } from '../support/e2e/helpers';

/**
 * Step-up in a real Chromium (issue 21): an admin of the test's own (the console runs with
 * MFA_REQUIRED=privileged) enrols TOTP; a reveal right after needs nothing more. Then the
 * session's factor time is moved 16 minutes back in the database (what the clock would have
 * done; no test hook exists in the console): the reveal asks for the factor again and goes
 * through once it is given, and the reveal, API-key and role actions called directly (server
 * action POSTs, as a script would) are refused with STEP_UP and write nothing.
 */
const PASSWORD = 'Velvet-Harbor-Quartz-42';
const totp = (secret: string, stepOffset: number) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + stepOffset * 30_000,
  });

async function newUser(role: 'admin' | 'analyst') {
  const email = `stepup-${role}-${randomUUID().slice(0, 8)}@example.test`;
  const passwordHash = await hashPassword(PASSWORD);
  const [u] = await withE2eDb((db) =>
    db.insert(schema.users).values({ email, name: 'Stella Step', role, passwordHash }).returning(),
  );
  return u;
}

/** Moves the factor of every session of `userId` 16 minutes back: STEP_UP_MINUTES (15) have passed. */
const ageFactor = (userId: string) =>
  withE2eDb((db) =>
    db
      .update(schema.userSessions)
      .set({ factorAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(schema.userSessions.userId, userId)),
  );

/** The id of a server action and a page whose bundle holds it, from the build's manifest. */
function serverAction(file: string, name: string) {
  const manifest = JSON.parse(fs.readFileSync('.next/server/server-reference-manifest.json', 'utf8')) as {
    node: Record<string, { workers: Record<string, unknown>; filename?: string; exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(
    ([, a]) => a.exportedName === name && a.filename?.replace(/^(?:.*\/)?(?=lib\/)/, '') === file,
  );
  if (!found) throw new Error(`${file}#${name} is not in the build`);
  const worker = Object.keys(found[1].workers)[0];
  const page = `/${worker
    .replace(/^app\//, '')
    .replace(/\/page$/, '')
    .split('/')
    .filter((s) => !(s.startsWith('(') && s.endsWith(')')))
    // A dynamic segment takes any id: the action, not the page, is what answers.
    .map((s) => (s.startsWith('[') ? randomUUID() : s))
    .join('/')}`;
  return { id: found[0], page };
}

async function callAction(page: Page, file: string, name: string, input: unknown) {
  const a = serverAction(file, name);
  const r = await page.request.post(a.page, {
    headers: { 'Next-Action': a.id, 'Content-Type': 'text/plain;charset=UTF-8', Accept: 'text/x-component' },
    data: JSON.stringify([input]),
    maxRedirects: 0,
  });
  return r.text();
}

test('a reveal 16 minutes after the factor asks for it again; direct calls without a fresh factor are refused and write nothing', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const admin = await newUser('admin');
  const target = await newUser('analyst');
  const [execution] = await withE2eDb((db) =>
    db
      .select({ id: schema.executions.id })
      .from(schema.executions)
      .where(eq(schema.executions.hasPersonalData, true))
      .limit(1),
  );
  expect(execution, 'an execution to reveal').toBeTruthy();

  await signIn(page, admin.email, PASSWORD);
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click({ timeout: 20_000 });
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill(totp(secret, 0));
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  await page.getByRole('button', { name: 'I have saved them, continue' }).click();
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible({ timeout: 20_000 });

  // A fresh factor: the reveal goes through without a question.
  await page.goto(`/executions/${execution.id}`);
  await page.getByRole('button', { name: 'Reveal personal data' }).click();
  let dialog = page.getByRole('dialog', { name: 'Reveal personal data' });
  await dialog.getByLabel('Reason').fill('Step-up check, first reveal with a fresh factor');
  await dialog.getByRole('button', { name: 'Reveal for 15 minutes' }).click();
  await expect(page.getByText(/Personal data is revealed to you until/)).toBeVisible();
  await page.getByRole('button', { name: 'Hide personal data' }).click();
  await expect(page.getByRole('button', { name: 'Reveal personal data' })).toBeVisible();

  // 16 minutes later: the same reveal asks for the factor again, and goes through with it.
  await ageFactor(admin.id);
  await page.getByRole('button', { name: 'Reveal personal data' }).click();
  dialog = page.getByRole('dialog', { name: 'Reveal personal data' });
  await dialog.getByLabel('Reason').fill('Step-up check, second reveal after 16 minutes');
  await dialog.getByRole('button', { name: 'Reveal for 15 minutes' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(confirm).toBeVisible();
  await confirm.getByLabel('Code').fill(totp(secret, 1));
  await confirm.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(/Personal data is revealed to you until/)).toBeVisible();
  const reveals = () =>
    withE2eDb(
      async (db) =>
        (await db.select({ n: count() }).from(schema.piiReveals).where(eq(schema.piiReveals.userId, admin.id)))[0].n,
    );
  expect(await reveals()).toBe(2);
  await page.getByRole('button', { name: 'Hide personal data' }).click();
  await expect(page.getByRole('button', { name: 'Reveal personal data' })).toBeVisible();

  // Direct calls of the actions, without the dialog, once the factor is old again.
  await ageFactor(admin.id);
  const keysBefore = await withE2eDb(async (db) => (await db.select({ n: count() }).from(schema.apiKeys))[0].n);
  const answers = {
    reveal: await callAction(page, 'lib/actions/review.ts', 'revealPersonalDataAction', {
      executionId: execution.id,
      reason: 'A direct call without a fresh factor',
    }),
    apiKey: await callAction(page, 'lib/actions/api-keys.ts', 'createApiKeyAction', {
      name: 'step-up direct call',
      days: '30',
    }),
    role: await callAction(page, 'lib/actions/users.ts', 'changeRoleAction', { userId: target.id, role: 'admin' }),
  };
  for (const [what, body] of Object.entries(answers))
    expect(body, `${what} without a fresh factor`).toContain('STEP_UP');
  expect(await reveals()).toBe(2);
  expect(await withE2eDb(async (db) => (await db.select({ n: count() }).from(schema.apiKeys))[0].n)).toBe(keysBefore);
  const [after] = await withE2eDb((db) => db.select().from(schema.users).where(eq(schema.users.id, target.id)));
  expect(after.role).toBe('analyst');
  const refused = await withE2eDb(
    async (db) =>
      (
        await db
          .select({ n: count() })
          .from(schema.auditLog)
          .where(
            and(
              eq(schema.auditLog.actorId, admin.id),
              eq(schema.auditLog.action, 'auth.step_up'),
              eq(schema.auditLog.outcome, 'denied'),
            ),
          )
      )[0].n,
  );
  expect(refused).toBeGreaterThanOrEqual(3);
});
