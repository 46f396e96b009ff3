import { expect } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import type { Db } from '@/lib/db/client';
import * as schema from '@/lib/db/schema';
import { e2eDatabaseUrl } from './seed-url';

/**
 * The one way browser tests reach the console's database (to seed what a test needs, or to check
 * what a request wrote): one connection, typed like the app's own handle, closed after `fn`.
 */
export async function withE2eDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const pool = new Pool({ connectionString: e2eDatabaseUrl(), max: 1 });
  try {
    return await fn(drizzle(pool, { schema }));
  } finally {
    await pool.end();
  }
}

/** The settings key the demo history writes when done (DEMO_CASES_KEY, lib/cases/demo.ts: server-only). */
const DEMO_CASES_KEY = 'cases.demo_history';

/**
 * Waits for the console's first demo start to finish rewriting the history of the cases it found
 * (lib/cases/demo.ts), so that a test's own cases come after it.
 */
export async function demoCasesDone() {
  await expect
    .poll(
      () =>
        withE2eDb(
          async (db) => (await db.select().from(schema.settings).where(eq(schema.settings.key, DEMO_CASES_KEY))).length,
        ),
      // Global set-up waits for it first (after a backfill of the demo's 1,000 executions, which
      // takes minutes on a loaded 2-core machine); in a test it is there already.
      { timeout: 240_000 },
    )
    .toBe(1);
}
