import fs from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import * as schema from '@/lib/db/schema';
import { imageFor } from '@/lib/simulator/images';
import { ingestMany } from '@/lib/sync/ingest';
import { FIXTURE_IMAGES, generatedExecutions, unusualExecutions } from '../fixtures/review';

/** The database the console under test uses: the run's Postgres, or its embedded PGlite. */
export function e2eDatabaseUrl(): string {
  if (process.env.E2E_DATABASE_URL) return process.env.E2E_DATABASE_URL;
  const file = path.join(process.env.E2E_DATA_DIR || '.data/e2e', 'pglite.url');
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * The fixtures are not at the service (the simulator), so a backfill that reaches its end would
 * take them for executions deleted there and purge their personal data. Seeding after the
 * start-up backfill has finished keeps them whole for the run (and the simulator's executions
 * are in the cache by then, so lists do not change under the tests).
 */
async function waitForStartupBackfill(pool: Pool, timeoutMs = 180_000) {
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
export async function seedReviewData(url = e2eDatabaseUrl(), generated = 120) {
  // One connection: the embedded database serves one at a time.
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    await waitForStartupBackfill(pool);
    const db = drizzle(pool, { schema });
    const now = new Date();
    const inputs = [...unusualExecutions(now), ...generatedExecutions(generated, now)].map((x) => ({
      ...x,
      fetchedAt: now,
    }));
    await ingestMany(db as never, inputs);
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
  } finally {
    await pool.end();
  }
}
