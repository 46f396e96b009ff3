import 'server-only';
import { count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { callbacks, settings, syncFailures, syncRuns } from '@/lib/db/schema';
import { QUEUES } from '@/lib/jobs/boss';
import { queueDepth } from '@/lib/sync/jobs';
import { SERVICE_COUNT_KEY, type ServiceCount, type SyncRun } from '@/lib/sync/runs';

export type { SyncRun, ServiceCount };

export interface SyncOverview {
  /** Executions at the service: the last full walk's count or the last probe (R12 has no total). */
  service: ServiceCount | null;
  cached: { count: number; exact: boolean };
  lastCallback: {
    receivedAt: Date;
    executionId: string;
    status: string | null;
    processedAt: Date | null;
    error: string | null;
  } | null;
  callbacks24h: number;
  /** Callbacks stored but whose fetch has not run yet. */
  callbacksWaiting: number;
  /** Median seconds from a callback's arrival to its execution in the cache, over the last 100. */
  callbackLagSec: number | null;
  queue: { fetchWaiting: number; fetchRunning: number; fetchRetrying: number; other: number };
  /** The open walk (backfill, reconciliation, poll), if any. */
  activeRun: SyncRun | null;
  runs: SyncRun[];
  failures: { total: number; rows: Array<typeof syncFailures.$inferSelect> };
}

export async function getSyncOverview(): Promise<SyncOverview> {
  const d = db();
  // Runs first: a run is marked completed after its count is saved, so a completed run read
  // here always comes with its count below (the page stops refreshing once nothing runs).
  const runs = await d.select().from(syncRuns).orderBy(desc(syncRuns.startedAt), desc(syncRuns.id)).limit(10);
  const [service] = await d.select({ value: settings.value }).from(settings).where(eq(settings.key, SERVICE_COUNT_KEY));
  const cached = await cachedCount();
  const [last] = await d
    .select({
      receivedAt: callbacks.receivedAt,
      executionId: callbacks.executionId,
      status: callbacks.status,
      processedAt: callbacks.processedAt,
      error: callbacks.error,
    })
    .from(callbacks)
    .orderBy(desc(callbacks.receivedAt))
    .limit(1);
  const [day] = await d
    .select({ n: count() })
    .from(callbacks)
    .where(gt(callbacks.receivedAt, sql`now() - interval '24 hours'`));
  const [waiting] = await d.select({ n: count() }).from(callbacks).where(isNull(callbacks.processedAt));
  const lag = await d.execute<{ p50: number | null }>(sql`
    select percentile_cont(0.5) within group (order by extract(epoch from processed_at - received_at))::float as p50
    from (select processed_at, received_at from callbacks where processed_at is not null and error is null order by received_at desc limit 100) c`);
  const depth = await queueDepth(d);
  const fetchCount = (states: string[]) =>
    depth.filter((x) => x.name === QUEUES.fetchExecution && states.includes(x.state)).reduce((n, x) => n + x.count, 0);
  const activeRun = runs.find((r) => !r.finishedAt && (r.state === 'running' || r.state === 'queued')) ?? null;
  const [failTotal] = await d.select({ n: count() }).from(syncFailures).where(isNull(syncFailures.resolvedAt));
  const failures = await d
    .select()
    .from(syncFailures)
    .where(isNull(syncFailures.resolvedAt))
    .orderBy(desc(syncFailures.lastAt))
    .limit(50);
  return {
    service: (service?.value as ServiceCount | undefined) ?? null,
    cached,
    lastCallback: last ?? null,
    callbacks24h: day.n,
    callbacksWaiting: waiting.n,
    callbackLagSec: lag.rows[0]?.p50 ?? null,
    queue: {
      fetchWaiting: fetchCount(['created']),
      fetchRetrying: fetchCount(['retry']),
      fetchRunning: fetchCount(['active']),
      other: depth.filter((x) => x.name !== QUEUES.fetchExecution).reduce((n, x) => n + x.count, 0),
    },
    activeRun,
    runs,
    failures: { total: failTotal.n, rows: failures },
  };
}

/** Exact below 100,000 rows; the planner's estimate above (an exact count is too slow per page view). */
async function cachedCount(): Promise<{ count: number; exact: boolean }> {
  const r = await db().execute<{ estimate: string }>(
    sql`select reltuples::bigint as estimate from pg_class where oid = 'executions'::regclass`,
  );
  const estimate = Number(r.rows[0]?.estimate ?? -1);
  if (estimate >= 100_000) return { count: estimate, exact: false };
  const c = await db().execute<{ n: string }>(sql`select count(*) as n from executions where gone_at is null`);
  return { count: Number(c.rows[0].n), exact: true };
}
