import { randomUUID } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { db } from '@/lib/db/client';
import { getTrendsData } from '@/lib/trends/queries';
import { resolveTrendsFilters } from '@/lib/trends/shared';
import { ingestMany } from '@/lib/sync/ingest';
import { trendExecution } from '../support/fixtures/trends';

/**
 * Pages that run their queries in parallel (the trends page: 15 jobs at once) check out the
 * whole process-wide pool while the other processes hold their own connections. On the
 * embedded database (PGlite behind pglite-socket) every connection must be accepted and its
 * queries queued, never reset (ECONNRESET when the server's connection limit was below the
 * sum of the pools). Run with `TEST_DATABASE_URL=` for the embedded path (tests/support/vitest starts
 * PGlite then); on a Postgres server it checks the same thing there.
 */
const run = randomUUID().slice(0, 6);
const K = `wf-par-${run}`;
// What `npm start`'s other pools hold besides the console's pool: its pg-boss (4) and the
// worker's pg-boss (3), sync (4) and feedback (4) pools.
const OTHER_CONNECTIONS = 15;

describe(`parallel page queries on the ${inject('databaseKind')} database`, () => {
  const others = new Pool({ connectionString: process.env.DATABASE_URL, max: OTHER_CONNECTIONS });
  let held: PoolClient[] = [];

  beforeAll(async () => {
    const xs = Array.from({ length: 12 }, (_, i) =>
      trendExecution({
        createdAt: `2032-01-${String(1 + i).padStart(2, '0')}T10:00:00.000Z`,
        decision: i % 3 ? 'PASSED' : 'REJECTED',
        score: 10 * (i % 10),
        definitionKey: K,
        country: 'DEU',
        docType: 'PASSPORT',
      }),
    );
    await ingestMany(
      db(),
      xs.map((x) => ({ ...x, fetchedAt: new Date() })),
    );
    held = await Promise.all(Array.from({ length: OTHER_CONNECTIONS }, () => others.connect()));
    // Each held connection answers, so the server really has them all open.
    await Promise.all(held.map((c) => c.query('select 1')));
  });
  afterAll(async () => {
    held.forEach((c) => c.release());
    await others.end();
  });

  it('several trends pages at once all answer, with the same numbers', async () => {
    const f = resolveTrendsFilters(
      { range: 'custom', from: '2032-01-01', to: '2032-01-31', definitionKey: K },
      '2032-02-01',
    );
    const pages = await Promise.all(Array.from({ length: 4 }, () => getTrendsData(f)));
    for (const p of pages) {
      expect(p.kpis.current).toMatchObject({ executions: 12, passed: 8, rejected: 4 });
      expect({ ...p, asOf: null }).toEqual({ ...pages[0], asOf: null });
    }
    // The held connections still work after the burst.
    await Promise.all(held.map((c) => c.query('select 1')));
  });
});
