/**
 * The sync's jobs on the one queue (lib/jobs/boss.ts): their data and how they are sent.
 */
import type PgBoss from 'pg-boss';
import { QUEUES, queueSchemaName } from '@/lib/jobs/boss';
import type { Db } from '@/lib/db/client';

export type FetchReason = 'callback' | 'refresh' | 'poll' | 'retry' | 'reconcile';

export interface FetchJob {
  executionId: string;
  /** From the cache or the callback; without it the execution is fetched by id alone (R4). */
  accountId?: string;
  reason: FetchReason;
  /** Index into the not-ready retry schedule (0 = first try). */
  attempt: number;
  /** The status a callback announced (a hint only: the result is always fetched). */
  hint?: string;
}

export interface RunJob {
  runId: number;
}

/** Anything that can send a job: the process's pg-boss, or one bound to a transaction. */
export type JobSender = Pick<PgBoss, 'send'>;

/**
 * Queues a fetch. Immediate fetches of one execution share a singleton key, so a duplicate
 * callback adds nothing while one is queued; a delayed retry has its own key, so a callback
 * arriving meanwhile is still fetched at once. `db` sends inside a caller's transaction.
 */
export function enqueueFetch(
  boss: JobSender,
  job: FetchJob,
  opts: { delayMs?: number; db?: PgBoss.Db } = {},
): Promise<string | null> {
  const delayed = (opts.delayMs ?? 0) > 0;
  return boss.send(
    QUEUES.fetchExecution,
    { ...job, executionId: job.executionId.toLowerCase() },
    {
      singletonKey: `${job.executionId.toLowerCase()}${delayed ? ':later' : ''}`,
      ...(delayed ? { startAfter: new Date(Date.now() + opts.delayMs!) } : {}),
      ...(opts.db ? { db: opts.db } : {}),
    },
  );
}

/**
 * Queues immediate fetches in one statement (the callback inbox's batch): the same singleton key
 * per execution as `enqueueFetch`, so one already queued absorbs the new one.
 */
export async function enqueueFetches(
  boss: Pick<PgBoss, 'insert'>,
  jobs: FetchJob[],
  opts: { db?: PgBoss.Db } = {},
): Promise<void> {
  if (!jobs.length) return;
  await boss.insert(
    jobs.map((job) => {
      const executionId = job.executionId.toLowerCase();
      return { name: QUEUES.fetchExecution, data: { ...job, executionId }, singletonKey: executionId };
    }),
    opts.db ? { db: opts.db } : {},
  );
}

export function enqueueRun(boss: JobSender, runId: number, opts: { db?: PgBoss.Db } = {}): Promise<string | null> {
  return boss.send(QUEUES.backfill, { runId } satisfies RunJob, {
    singletonKey: `run:${runId}`,
    ...(opts.db ? { db: opts.db } : {}),
  });
}

/** Jobs waiting or running, by queue and state (for the sync page). Empty when the queue was never installed. */
export async function queueDepth(
  db: Db,
  schema = queueSchemaName(),
): Promise<Array<{ name: string; state: string; count: number }>> {
  if (!/^[a-z_][a-z0-9_]*$/i.test(schema)) throw new Error(`invalid queue schema name ${schema}`);
  try {
    const r = await db.$client.query<{ name: string; state: string; count: string }>(
      `select name, state::text as state, count(*)::text as count from "${schema}".job where state < 'completed' group by name, state`,
    );
    return r.rows.map((x) => ({ name: x.name, state: x.state, count: Number(x.count) }));
  } catch (err) {
    // 42P01 undefined table, 3F000 undefined schema: no worker has installed the queue yet.
    if (['42P01', '3F000'].includes((err as { code?: string }).code ?? '')) return [];
    throw err;
  }
}
