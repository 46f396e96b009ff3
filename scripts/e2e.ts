/**
 * Browser tests: finds Chromium, prepares a fresh database, makes sure a production build of
 * the current sources exists, then runs Playwright (which starts the console with `npm start`'s
 * own start-up, the built-in simulator included).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedDatabase } from '@/lib/db/embedded';
import { runMigrations } from '@/lib/db/migrate';
import { ensureBuild } from '@/lib/server/build-stamp';
import { LIST_BUDGET_KB, measureJsBudget } from '@/scripts/js-budget';
import { createTestDatabase } from '@/scripts/support/test-database';

/**
 * Seed hooks: every tests/support/e2e/seed/*.ts exports a default `(databaseUrl) => Promise<void>` that
 * writes the data its browser test needs into the run's database before the console starts.
 */
async function runSeeds(dbUrl: string | null, dataDir: string, log: (s: string) => void) {
  const dir = path.resolve('tests/support/e2e/seed');
  const files = fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .sort()
    : [];
  if (!files.length) return;
  // Without a Postgres, the embedded database is prepared in the folder `npm start` will open.
  const embedded = dbUrl ? null : await startEmbeddedDatabase({ dataDir: path.join(dataDir, 'pglite') });
  const url = dbUrl ?? embedded!.url;
  try {
    await runMigrations(url);
    for (const f of files) {
      log(`seed: ${f}`);
      const mod = (await import(path.join(dir, f))) as { default: (url: string) => Promise<void> };
      await mod.default(url);
    }
  } finally {
    await embedded?.close();
  }
}

async function findChromium(): Promise<string | null> {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  for (const c of candidates) if (c && fs.existsSync(c)) return c;
  try {
    // Playwright's own browser, when `npx playwright install chromium` has been run.
    const { chromium } = await import('playwright-core');
    const p = chromium.executablePath();
    if (p && fs.existsSync(p)) return p;
  } catch {
    /* not installed */
  }
  return null;
}

async function main() {
  const chromium = await findChromium();
  if (!chromium) {
    console.error(
      [
        'No Chromium found for the browser tests. Any one of these works:',
        '  - set CHROMIUM_PATH to a Chromium or Chrome binary;',
        '  - on Debian/Ubuntu: sudo apt-get install -y chromium;',
        '  - or: npx playwright install chromium',
      ].join('\n'),
    );
    process.exit(1);
  }
  const log = (s: string) => console.log(`[e2e] ${s}`);
  await ensureBuild(process.env, log);
  // The list's JavaScript budget, on the build the browser tests use: a client import that drags
  // in a server-side library (zod through a form's limit) fails here, not in a later measurement.
  const budget = measureJsBudget();
  if (budget) {
    log(`JavaScript of /executions: ${budget.routeKb.toFixed(1)} KB gzipped (budget ${LIST_BUDGET_KB} KB)`);
    if (budget.routeKb > LIST_BUDGET_KB) {
      console.error(`The executions list's JavaScript is over its budget: \`npm run js:budget\` lists it.`);
      process.exit(1);
    }
  }
  const db = process.env.TEST_DATABASE_URL ? await createTestDatabase('e2e') : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-e2e-'));
  log(`Chromium: ${chromium}; database: ${db ? 'Postgres from TEST_DATABASE_URL' : 'embedded PGlite'}`);
  await runSeeds(db?.url ?? null, dataDir, log);
  // Specs use server modules as the console does (the service's client in web-capture.spec.ts):
  // `server-only` resolves under the react-server condition, which Playwright's workers inherit.
  const r = spawnSync(
    process.execPath,
    [
      '--conditions=react-server',
      path.resolve('node_modules/@playwright/test/cli.js'),
      'test',
      ...process.argv.slice(2),
    ],
    {
      stdio: 'inherit',
      env: { ...process.env, CHROMIUM_PATH: chromium, E2E_DATABASE_URL: db?.url ?? '', E2E_DATA_DIR: dataDir },
    },
  );
  await db?.drop().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
