import fs from 'node:fs';
import { chromium, type FullConfig } from '@playwright/test';
import { demoCasesDone } from './db';
import { signInAs, storageState, type RoleName } from './helpers';
import { seedReviewData } from './seed';

/** Signs in once per role and keeps the cookies, so tests start signed in. */
export default async function globalSetup(config: FullConfig) {
  const { baseURL, launchOptions } = config.projects[0].use;
  fs.mkdirSync('tests/e2e/.auth', { recursive: true });
  const browser = await chromium.launch(launchOptions);
  for (const role of ['analyst', 'manager', 'admin'] as RoleName[]) {
    const page = await browser.newPage({ baseURL });
    await signInAs(page, role);
    await page.context().storageState({ path: storageState(role) });
    await page.close();
  }
  await browser.close();
  // Fixture executions for the review workspace (unusual results, hostile text, images).
  await seedReviewData();
  // The demo's case history is written once the backfill is done; tests that make cases of their
  // own come after it. Waited for here, once, instead of racing it in the first test that needs it.
  await demoCasesDone();
}
