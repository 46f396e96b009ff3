import { and, inArray, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import { db } from '@/lib/db/client';
import { cases } from '@/lib/db/schema';
import { runQaSampling, startQaSampling } from '@/lib/qa/sample';

/**
 * Keeps these executions' resolutions inside `week` (a Monday, YYYY-MM-DD): a test reads its week
 * before resolving, and should Monday 00:00 UTC pass in between, the draw of that week would find
 * none of them. A no-op on any other day.
 */
export async function keepResolvedInWeek(executionIds: string[], week: string) {
  const weekEnd = sql`(${week}::date + 7)::timestamp at time zone 'UTC'`;
  await db()
    .update(cases)
    .set({ resolvedAt: sql`${weekEnd} - interval '1 millisecond'` })
    .where(and(inArray(cases.executionId, executionIds), sql`${cases.resolvedAt} >= ${weekEnd}`));
}

/**
 * The real weekly draw of `week`, run to its end: at least 3 of each person's resolutions that
 * week (so every one of a test's first analyst's few), as `actor` (a manager).
 */
export async function sampleWeek(boss: PgBoss, week: string, actor: { id: string; email: string }) {
  const { runId } = await db().transaction((tx) =>
    startQaSampling(tx, boss, {
      week,
      settings: { ratePercent: 0.1, minPerAnalyst: 3, enabled: true },
      trigger: 'manual',
      actor,
    }),
  );
  await runQaSampling(runId);
}
