import 'server-only';
import { sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';

/** Counts for the overview; an exact count of a large table is too slow for a page view. */
export async function getOverview() {
  const r = await db().execute<{ estimate: string; last24h: string; rejected24h: string; newest: string | null }>(sql`
    select
      (select reltuples::bigint from pg_class where oid = 'executions'::regclass) as estimate,
      (select count(*) from executions where created_at > now() - interval '24 hours') as last24h,
      (select count(*) from executions where created_at > now() - interval '24 hours' and decision_type = 'REJECTED') as "rejected24h",
      (select max(created_at) from executions) as newest`);
  const row = r.rows[0];
  let total = Number(row.estimate);
  let exact = false;
  // The planner's estimate is -1 before the first ANALYZE and rough on small tables.
  if (total < 100_000) {
    const c = await db().execute<{ n: string }>(sql`select count(*) as n from executions`);
    total = Number(c.rows[0].n);
    exact = true;
  }
  return { total, exact, last24h: Number(row.last24h), rejected24h: Number(row.rejected24h), newest: row.newest };
}
