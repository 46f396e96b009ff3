import { and, inArray, sql } from 'drizzle-orm';
import { db } from '@/lib/db/client';
import { cases } from '@/lib/db/schema';

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
