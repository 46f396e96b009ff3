import { expect, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { hashPassword } from '@/lib/auth/password';
import * as schema from '@/lib/db/schema';
import { weekOf } from '@/lib/qa/week';
import { ingestMany } from '@/lib/sync/ingest';
import type { buildExecution } from '../fixtures/execution';
import { withE2eDb } from './db';

/**
 * What a spec with a first analyst of its own starts from: that analyst, who signs in with
 * `first.password` (their only resolutions are the spec's), a queue selecting the executions
 * reported under `queue.tag`, and those executions.
 */
export async function seedFirstAnalyst(
  first: { email: string; name: string; password: string },
  queue: { name: string; priority: number; tag: string },
  executions: Array<ReturnType<typeof buildExecution>>,
) {
  await withE2eDb(async (db) => {
    await db.insert(schema.users).values({
      email: first.email,
      name: first.name,
      role: 'analyst',
      passwordHash: await hashPassword(first.password),
    });
    await db
      .insert(schema.caseQueues)
      .values({ name: queue.name, priority: queue.priority, slaHours: 24, definition: `criteria=${queue.tag}` });
    await ingestMany(
      db,
      executions.map((x) => ({ result: x.result, steps: x.steps, rules: x.rules, fetchedAt: new Date() })),
    );
  });
}

/**
 * A manager sets the sampling rate (5 %, at least 1 a person) on the quality page and samples the
 * week in which `executionId`'s case was resolved ("this week" unless a Monday 00:00 UTC passed
 * since), waiting for the job's progress line to give its count.
 */
export async function sampleWeekOfCase(manager: Page, executionId: string) {
  await manager.goto('/quality');
  const rate = manager.getByRole('form', { name: 'Sampling rate' });
  await rate.getByLabel(/Rate/).fill('5');
  await rate.getByLabel(/At least/).fill('1');
  await rate.getByRole('button', { name: 'Save rate' }).click();
  // Saved, or already so (another test set the same rate).
  await expect(rate.getByRole('status')).toContainText(/Sampling rate saved\.|Nothing changed\./);
  const resolvedAt = await withE2eDb(
    async (db) =>
      (await db.select().from(schema.cases).where(eq(schema.cases.executionId, executionId)))[0].resolvedAt!,
  );
  const sample = manager.getByRole('form', { name: 'Sample now' });
  await sample.getByLabel('Week').selectOption(weekOf(resolvedAt));
  // The status line starts with the newest earlier run, and another spec may be sampling the same
  // week: "Sample now" then answers with that run, which listed its people before this case was
  // resolved. So the case is awaited in the database, and sampled again if that run missed it.
  const sampledRows = () =>
    withE2eDb(
      async (db) =>
        (await db.select().from(schema.qaReviews).where(eq(schema.qaReviews.executionId, executionId))).length,
    );
  for (let attempt = 1; ; attempt++) {
    await sample.getByRole('button', { name: 'Sample now' }).click();
    try {
      await expect.poll(sampledRows, { timeout: 20_000 }).toBeGreaterThan(0);
      break;
    } catch (err) {
      if (attempt === 4) throw err;
    }
  }
  await expect(sample.getByTestId('qa-run')).toContainText(/cases? sampled from \d+ (person|people)/, {
    timeout: 30_000,
  });
}
