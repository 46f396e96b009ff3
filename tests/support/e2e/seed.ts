import type { Pool } from 'pg';
import * as schema from '@/lib/db/schema';
import { imageFor } from '@/lib/simulator/images';
import { ingestMany } from '@/lib/sync/ingest';
import { withE2eDb } from './db';
import { FIXTURE_IMAGES, generatedExecutions, unusualExecutions } from '../fixtures/review';

/**
 * The fixtures are not at the service (the simulator), so a backfill that reaches its end would
 * take them for executions deleted there and purge their personal data. Seeding after the
 * start-up backfill has finished keeps them whole for the run (and the simulator's executions
 * are in the cache by then, so lists do not change under the tests).
 */
async function waitForStartupBackfill(pool: Pool, timeoutMs = 420_000) {
  const until = Date.now() + timeoutMs;
  let sawRun = false;
  while (Date.now() < until) {
    const r = await pool.query<{ open: number; done: number }>(
      `select count(*) filter (where finished_at is null)::int as open, count(*) filter (where finished_at is not null)::int as done from sync_runs where kind = 'backfill'`,
    );
    if (r.rows[0].done > 0 && r.rows[0].open === 0) return;
    sawRun ||= r.rows[0].open > 0;
    // No sync worker in this run (none started a backfill within 15 s): nothing to wait for.
    if (!sawRun && Date.now() > until - timeoutMs + 15_000) return;
    await new Promise((res) => setTimeout(res, 1000));
  }
  console.warn('[e2e seed] the start-up backfill did not finish in time; seeding anyway');
}

/**
 * Seeds the review workspace's fixtures through ingest (the app's one mapping), and caches the
 * fixtures' images so the image route serves them without the service.
 */
export async function seedReviewData(generated = 120) {
  await withE2eDb(async (db) => {
    await waitForStartupBackfill(db.$client);
    const now = new Date();
    const inputs = [...unusualExecutions(now), ...generatedExecutions(generated, now)].map((x) => ({
      ...x,
      fetchedAt: now,
    }));
    await ingestMany(db, inputs);
    for (const img of FIXTURE_IMAGES) {
      const { bytes, contentType } = imageFor(img.kind, img.variant);
      await db
        .insert(schema.partImages)
        .values({
          executionId: img.executionId,
          credentialId: img.credentialId,
          classifier: img.classifier,
          contentType,
          bytes,
        })
        .onConflictDoNothing();
    }
  });
}
