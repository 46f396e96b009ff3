import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { syncFailures } from '@/lib/db/schema';
import type { DbOrTx } from '@/lib/db/client';

/** One open failure per execution: a repeat bumps its attempts and keeps the latest error. */
export async function recordFetchFailure(
  db: DbOrTx,
  f: { executionId: string; accountId?: string | null; error: string; state: 'retrying' | 'failed' },
): Promise<void> {
  const error = f.error.slice(0, 2000);
  await db
    .insert(syncFailures)
    .values({
      kind: 'fetch',
      executionId: f.executionId.toLowerCase(),
      accountId: f.accountId ?? null,
      error,
      state: f.state,
    })
    .onConflictDoUpdate({
      target: syncFailures.executionId,
      targetWhere: sql`${syncFailures.resolvedAt} is null and ${syncFailures.executionId} is not null`,
      set: {
        error,
        state: f.state,
        attempts: sql`${syncFailures.attempts} + 1`,
        lastAt: sql`now()`,
        accountId: sql`coalesce(excluded.account_id, ${syncFailures.accountId})`,
      },
    });
}

/** A later success (or a deliberate give-up) closes the execution's open failure. */
export async function resolveFetchFailures(db: DbOrTx, executionIds: string[]): Promise<void> {
  if (!executionIds.length) return;
  await db
    .update(syncFailures)
    .set({ resolvedAt: sql`now()` })
    .where(
      and(
        inArray(
          syncFailures.executionId,
          executionIds.map((s) => s.toLowerCase()),
        ),
        isNull(syncFailures.resolvedAt),
      ),
    );
}

/** Open failures that have given up (what "retry failed" picks up). */
export async function listFailedFetches(
  db: Db,
  limit = 1000,
): Promise<Array<{ id: number; executionId: string; accountId: string | null }>> {
  const rows = await db
    .select({ id: syncFailures.id, executionId: syncFailures.executionId, accountId: syncFailures.accountId })
    .from(syncFailures)
    .where(and(isNull(syncFailures.resolvedAt), eq(syncFailures.state, 'failed'), eq(syncFailures.kind, 'fetch')))
    .orderBy(syncFailures.lastAt)
    .limit(limit);
  return rows.filter((r): r is { id: number; executionId: string; accountId: string | null } => r.executionId !== null);
}

export async function markFailuresRetrying(db: DbOrTx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await db
    .update(syncFailures)
    .set({ state: 'retrying', lastAt: sql`now()` })
    .where(inArray(syncFailures.id, ids));
}
