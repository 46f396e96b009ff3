import 'server-only';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { Db, Tx } from '@/lib/db/client';
import { caseRematchRuns, executions } from '@/lib/db/schema';
import { jobDb, QUEUES } from '@/lib/jobs/boss';
import { matchCases, matchQueues } from './match';

/**
 * After a queue is created, changed, archived or reordered, every unresolved execution is matched
 * again (./match.ts) by a pg-boss job that walks the executions by id in batches. Its run row
 * shows the progress on the queues page and lets a restarted job resume where it stopped.
 */

const BATCH = 1000;

/** Records a run and queues its job in the caller's transaction: both exist, or neither. */
export async function startRematch(
  tx: Tx,
  boss: PgBoss,
  opts: { queueId: string | null; startedBy: string | null },
): Promise<string> {
  const [run] = await tx
    .insert(caseRematchRuns)
    .values({ queueId: opts.queueId, startedBy: opts.startedBy })
    .returning({ id: caseRematchRuns.id });
  await boss.insert([{ name: QUEUES.rematchCases, data: { runId: run.id } }], { db: jobDb(tx) });
  return run.id;
}

/** Runs (or resumes) one re-match; returns the executions walked. */
export async function runRematch(db: Db, runId: string): Promise<number> {
  const [run] = await db.select().from(caseRematchRuns).where(eq(caseRematchRuns.id, runId));
  if (!run || run.state === 'completed') return 0;
  if (run.total === null) {
    const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(executions);
    await db.update(caseRematchRuns).set({ total: n, state: 'running' }).where(eq(caseRematchRuns.id, runId));
  } else await db.update(caseRematchRuns).set({ state: 'running' }).where(eq(caseRematchRuns.id, runId));
  let lastId = run.lastId;
  let done = run.done;
  let requeued = 0;
  let created = 0;
  let withdrawn = 0;
  try {
    for (;;) {
      const ids = (
        await db
          .select({ id: executions.id })
          .from(executions)
          .where(lastId ? gt(executions.id, lastId) : undefined)
          .orderBy(asc(executions.id))
          .limit(BATCH)
      ).map((r) => r.id);
      if (!ids.length) break;
      const r = await db.transaction(async (tx) => {
        // The same per-execution locks as ingest: a re-match never interleaves with a write of the execution.
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtext(x)) from unnest(${sql.param(ids)}::text[]) as x order by x`,
        );
        // Read inside the transaction: a queue changed meanwhile is matched as it is now.
        const out = await matchCases(tx, ids, await matchQueues(tx));
        lastId = ids[ids.length - 1];
        done += ids.length;
        await tx
          .update(caseRematchRuns)
          .set({ lastId, done })
          .where(and(eq(caseRematchRuns.id, runId)));
        return out;
      });
      created += r.created;
      requeued += r.requeued;
      withdrawn += r.withdrawn.length;
    }
    await db
      .update(caseRematchRuns)
      .set({
        state: 'completed',
        finishedAt: sql`now()`,
        details: { ...(run.details ?? {}), created, requeued, withdrawn },
      })
      .where(eq(caseRematchRuns.id, runId));
  } catch (err) {
    await db
      .update(caseRematchRuns)
      .set({ state: 'failed', details: { error: err instanceof Error ? err.name : 'Error' } })
      .where(eq(caseRematchRuns.id, runId));
    throw err;
  }
  return done;
}
