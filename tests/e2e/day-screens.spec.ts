import fs from 'node:fs';
import path from 'node:path';
import { test, type Page } from '@playwright/test';
import { and, eq, isNull } from 'drizzle-orm';
import * as schema from '@/lib/db/schema';
import { FX } from '../support/fixtures/review';
import { withE2eDb } from '../support/e2e/db';
import { USERS, storageState, type RoleName } from '../support/e2e/helpers';

/**
 * Screenshots of the analyst's day at 1440 x 900, for review by eye: the start page, the executions
 * list ("My cases" and a queue view), notifications, times read in Europe/Berlin (list, detail, audit),
 * the date inputs with their format (audit, trends, the filter panel) and the case-reason selects.
 * Runs only when SHOTS_DIR is set:
 * `SHOTS_DIR=/tmp/shots SHOTS_TAG=after npm run test:e2e -- tests/e2e/day-screens.spec.ts`.
 */
// playwright.config.ts ignores this file unless SHOTS_DIR is set.
const dir = process.env.SHOTS_DIR as string;
const tag = process.env.SHOTS_TAG || 'shot';

type Shot = {
  name: string;
  role: RoleName;
  url: string | (() => Promise<string>);
  then?: (page: Page) => Promise<void>;
};

const openCaseUrl = async () => {
  const [c] = await withE2eDb((db) =>
    db
      .select({ id: schema.cases.executionId })
      .from(schema.cases)
      .where(and(eq(schema.cases.state, 'open'), isNull(schema.cases.assigneeId)))
      .limit(1),
  );
  return `/executions/${c.id}`;
};

/** A reason as long as a label may be (80 characters), to see it whole where it is chosen. */
const LONG_REASON = 'Document photo edited around the date of birth and the portrait, seen under UV';

const PAGES: Shot[] = [
  { name: 'overview-analyst', role: 'analyst', url: '/' },
  { name: 'overview-manager', role: 'manager', url: '/' },
  { name: 'executions-my-cases', role: 'analyst', url: '/executions?assignee=me' },
  { name: 'executions-default', role: 'analyst', url: '/executions' },
  { name: 'notifications', role: 'analyst', url: '/notifications' },
  { name: 'berlin-executions', role: 'manager', url: '/executions' },
  { name: 'berlin-detail', role: 'manager', url: `/executions/${FX.every}` },
  { name: 'berlin-audit', role: 'manager', url: '/audit' },
  { name: 'date-trends', role: 'manager', url: '/trends' },
  {
    name: 'date-filter-panel',
    role: 'manager',
    url: '/executions',
    then: async (page) => {
      await page.getByRole('button', { name: /^Filters/ }).click();
      await page.waitForTimeout(500);
    },
  },
  {
    name: 'date-audit-export',
    role: 'manager',
    url: '/audit',
    then: async (page) => {
      await page.getByText('Export for an examiner').click();
      await page.getByLabel('From', { exact: true }).last().scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'reason-resolve-panel',
    role: 'manager',
    url: openCaseUrl,
    then: async (page) => {
      const decline = page.getByRole('radio', { name: 'Decline' }).first();
      await decline.check();
      const reason = page.getByLabel('Reason', { exact: true }).first();
      await reason.selectOption({ label: LONG_REASON });
      await reason.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(300);
    },
  },
  { name: 'reason-admin', role: 'admin', url: '/admin/reasons' },
  { name: 'date-audit-bad-day', role: 'manager', url: '/audit?from=03%2F04%2F2026' },
];

test('the analyst day screens at 1440 x 900', async ({ browser }) => {
  test.setTimeout(300_000);
  fs.mkdirSync(dir, { recursive: true });
  // The manager reads times in Berlin; the analyst stays on UTC.
  await withE2eDb(async (db) => {
    await db.update(schema.users).set({ timeZone: 'Europe/Berlin' }).where(eq(schema.users.email, USERS.manager));
    await db
      .insert(schema.caseReasons)
      .values({ code: 'E2E_LONG_REASON', label: LONG_REASON, outcomes: ['decline'], sortOrder: 5 })
      .onConflictDoNothing();
  });
  try {
    for (const p of PAGES) {
      const context = await browser.newContext({
        storageState: storageState(p.role),
        viewport: { width: 1440, height: 900 },
      });
      const page = await context.newPage();
      try {
        await page.goto(typeof p.url === 'string' ? p.url : await p.url());
        await page.waitForLoadState('networkidle');
        await p.then?.(page);
        await page.screenshot({ path: path.join(dir, `${p.name}-${tag}.png`) });
      } catch (e) {
        console.log(`shot ${p.name} failed: ${String(e)}`);
      }
      await context.close();
    }
  } finally {
    await withE2eDb(async (db) => {
      await db.update(schema.users).set({ timeZone: null }).where(eq(schema.users.email, USERS.manager));
      await db.delete(schema.caseReasons).where(eq(schema.caseReasons.code, 'E2E_LONG_REASON'));
    });
  }
});
