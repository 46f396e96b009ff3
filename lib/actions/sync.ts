'use server';
import { and, inArray, isNull } from 'drizzle-orm';
import { revalidatePath } from 'next/cache';
import { audit } from '@/lib/audit';
import { defineAction, type ActionResult } from '@/lib/auth/guards';
import { db } from '@/lib/db/client';
import { syncRuns } from '@/lib/db/schema';
import { env } from '@/lib/env';
import { getBoss } from '@/lib/jobs/boss';
import { syncOptionsFromEnv } from '@/lib/sync/config';
import { listFailedFetches, markFailuresRetrying } from '@/lib/sync/failures';
import { enqueueFetch, enqueueRun } from '@/lib/sync/jobs';
import { openRun } from '@/lib/sync/runs';
import { retryFailedSchema, startSyncRunSchema } from './schemas/sync';

const LABEL = { backfill: 'backfill', reconcile: 'reconciliation' } as const;

/** Queues a backfill or a reconciliation for the worker; an open one of the same kind is resumed, not doubled. */
export const startSyncRunAction = defineAction(
  { name: 'sync.start_run', role: 'admin', schema: startSyncRunSchema },
  async ({ kind }, user): Promise<ActionResult<{ runId: number }>> => {
    const options = syncOptionsFromEnv(env());
    const { run, created } = await openRun(db(), kind, {
      startedBy: user.email,
      overlapMs: options.overlapMs,
      pageSize: options.pageSize,
    });
    await enqueueRun(await getBoss(), run.id);
    await audit({
      action: 'sync.start_run',
      actor: user,
      targetType: 'sync_run',
      targetId: String(run.id),
      details: { kind, created },
    });
    revalidatePath('/sync');
    const what = LABEL[kind];
    return {
      ok: true,
      data: { runId: run.id },
      message: created
        ? `The ${what} is queued; its progress shows below.`
        : `A ${what} was already open (at page ${run.nextPage}); it goes on from there.`,
    };
  },
);

/** Queues again every fetch that gave up, and resumes failed or interrupted runs. */
export const retryFailedAction = defineAction(
  { name: 'sync.retry_failed', role: 'admin', schema: retryFailedSchema },
  async (_input, user): Promise<ActionResult<{ fetches: number; runs: number }>> => {
    const boss = await getBoss();
    const failed = await listFailedFetches(db());
    for (const f of failed)
      await enqueueFetch(boss, {
        executionId: f.executionId,
        accountId: f.accountId ?? undefined,
        reason: 'retry',
        attempt: 0,
      });
    await markFailuresRetrying(
      db(),
      failed.map((f) => f.id),
    );
    const stopped = await db()
      .select({ id: syncRuns.id })
      .from(syncRuns)
      .where(and(isNull(syncRuns.finishedAt), inArray(syncRuns.state, ['failed', 'interrupted'])));
    for (const r of stopped) await enqueueRun(boss, r.id);
    await audit({
      action: 'sync.retry_failed',
      actor: user,
      details: { fetches: failed.length, runs: stopped.length },
    });
    revalidatePath('/sync');
    const parts = [
      failed.length ? `${failed.length} execution${failed.length === 1 ? '' : 's'} queued again` : null,
      stopped.length ? `${stopped.length} run${stopped.length === 1 ? '' : 's'} resumed` : null,
    ].filter(Boolean);
    return {
      ok: true,
      data: { fetches: failed.length, runs: stopped.length },
      message: parts.length ? `${parts.join(', ')}.` : 'Nothing to retry.',
    };
  },
);
