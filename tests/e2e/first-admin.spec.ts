import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { Client } from 'pg';
import type { RunningSimulator } from '@/lib/simulator';
import { PAGE_ACCESS, ROUTE_ACCESS } from '../../lib/auth/access';
import { startConsole, stopGracefully, type ChildRun } from '../support/processes';
import { startTestSimulator } from '../support/simulator';

/**
 * The first admin of a real deployment (issue 21): a console started by `npm start` with
 * DATABASE_URL (a Postgres database of its own), ADMIN_EMAIL / ADMIN_PASSWORD and the service's
 * addresses set (a simulator run apart, as a real service would be: not demo mode), and
 * MFA_REQUIRED left at its default (`all`). The admin's password sign-in reaches no page of the
 * access map and no route before a second factor is enrolled, and every page after.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100) + 5;
const BASE = `http://localhost:${PORT}`;
const ADMIN_EMAIL = 'first.admin@example.test';
const ADMIN_PASSWORD = 'Velvet-Harbor-Quartz-42';
test.use({ baseURL: BASE, storageState: { cookies: [], origins: [] } });
test.describe.configure({ timeout: 300_000 });

const server = new URL(process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
const dbName = `${server.pathname.slice(1) || 'verdict'}_first_admin`.replace(/[^a-z0-9_]/g, '_');
async function admin(sql: string) {
  const c = new Client({ connectionString: server.toString() });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

let run: ChildRun | undefined;
let sim: RunningSimulator | undefined;
let dataDir: string | undefined;
let postgres = true;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  try {
    await admin(`drop database if exists ${dbName} with (force)`);
    await admin(`create database ${dbName}`);
  } catch {
    postgres = false;
    return;
  }
  sim = await startTestSimulator({ executions: 40 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-first-admin-'));
  const databaseUrl = new URL(server);
  databaseUrl.pathname = `/${dbName}`;
  run = await startConsole({
    PORT: String(PORT),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl.toString(),
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    IDV_BASE_URL: sim.url,
    IDV_CLIENT_ID: sim.clientId,
    IDV_CLIENT_SECRET: sim.clientSecret,
    // The defaults of a deployment: nothing of the run's own console carried over.
    MFA_REQUIRED: '',
    DEMO_PASSWORD: '',
    VERDICT_DEMO: '',
    NEXTAUTH_URL: BASE,
    NEXTAUTH_SECRET: 'first-admin-secret-first-admin-secret-0123',
    METRICS_TOKEN: '',
    METRICS_WORKER_PORT: '0',
    LOG_FILE: '',
    E2E_DATABASE_URL: '',
  });
});

test.afterAll(async () => {
  if (run) await stopGracefully(run);
  await sim?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  if (postgres) await admin(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
});

const concrete = (route: string) => route.replace(/\[\.\.\.[^\]]+\]/g, 'x').replace(/\[[^\]]+\]/g, randomUUID());
const signedInPages = Object.keys(PAGE_ACCESS).filter(
  (p) => PAGE_ACCESS[p] !== 'public' && p !== '/login/second-factor',
);
const sessionRoutes = Object.keys(ROUTE_ACCESS).filter((r) =>
  ['analyst', 'manager', 'admin'].includes(ROUTE_ACCESS[r]),
);

test('the first admin of a real deployment reaches no page before enrolling a second factor, and every page after', async ({
  page,
}) => {
  test.skip(!postgres, 'needs the local Postgres server (TEST_DATABASE_URL) for a deployment with DATABASE_URL');
  await page.goto('/login');
  // Not demo mode: no demo sign-in note, no demo users.
  await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Add a second factor' })).toBeVisible({ timeout: 30_000 });

  // Every page of the access map sends the session back to the enrolment; every route refuses it.
  for (const route of signedInPages) {
    const url = concrete(route);
    const r = await page.request.get(url, { maxRedirects: 0 });
    expect([303, 307, 308], `GET ${url} before enrolment must redirect, got ${r.status()}`).toContain(r.status());
    expect(r.headers().location, `GET ${url} before enrolment`).toMatch(/\/login\/second-factor$/);
  }
  for (const route of sessionRoutes) {
    const url = concrete(route);
    const r = await page.request.get(url, { maxRedirects: 0 });
    expect(r.status() >= 200 && r.status() < 300, `GET ${url} before enrolment answered ${r.status()}`).toBe(false);
  }
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/login\/second-factor$/);

  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
  await page.getByLabel('Code from the app').fill(code);
  await page.getByRole('button', { name: 'Confirm and turn on' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await page.getByRole('button', { name: 'I have saved them, continue' }).click();
  await expect(page.getByRole('button', { name: /Account menu/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Demo sign-in/)).toHaveCount(0);

  // Now every page opens (an unknown record's page answers 404, never the enrolment or an error).
  for (const route of signedInPages) {
    const url = concrete(route);
    const r = await page.request.get(url, { maxRedirects: 0 });
    const expected = route.includes('[') ? [200, 404] : [200];
    expect(expected, `GET ${url} after enrolment answered ${r.status()} ${r.headers().location ?? ''}`).toContain(
      r.status(),
    );
  }
});
