/**
 * Fetching one execution: result (R2), steps (R7) and rule executions (R8) together, written
 * in one transaction through `ingestExecution`. Used by the fetch job (callbacks, polls,
 * retries) and by "Refresh now".
 *
 * Service quirks honoured (service-facts): a result is complete only once PROCESSED; right
 * after a callback the result may still be "not ready" or even 404, so the fetch is tried
 * again on the vendor's schedule (40, 60, 100 ... 940 s); steps and rules 404 when the
 * execution is not processed or its data was wiped.
 */
import { and, eq, isNull, lte } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { callbacks, executions } from '@/lib/db/schema';
import type { IdvClient } from '@/lib/idv/client';
import { isNotFound } from '@/lib/idv/errors';
import {
  isTerminalWorkflowStatus,
  type RuleExecutionsResponse,
  type StepsResponse,
  type WorkflowExecutionResult,
} from '@/lib/idv/schemas';
import type { SyncOptions } from './config';
import { recordFetchFailure, resolveFetchFailures } from './failures';
import { ingestExecution } from './ingest';
import type { IngestOutcome } from './map';
import { markGoneAtService } from './purge';
import { enqueueFetch, type FetchJob, type JobSender } from './jobs';

export interface SyncDeps {
  db: Db;
  idv: IdvClient;
  /** Sends follow-up jobs (the not-ready schedule). Without it no follow-up is queued. */
  jobs?: JobSender;
  options: SyncOptions;
  log?: (line: string) => void;
}

export type FetchOutcome =
  /** Written (or found unchanged). `retryInSec` when parts were not ready and a later fetch is queued. */
  | { kind: 'stored'; outcome: IngestOutcome; status: string; complete: boolean; retryInSec?: number }
  /** 404 right after a callback: tried again later (`retryInSec`), or given up (null). */
  | { kind: 'not-found'; retryInSec: number | null }
  /** 404 for an execution we hold: deleted or wiped at the service; metadata kept, personal data dropped. */
  | { kind: 'gone' };

/** Jobs from these follow the not-ready schedule; polls and reconciliations come back on their own. */
const FOLLOWS_SCHEDULE = new Set<FetchJob['reason']>(['callback', 'refresh']);

export async function fetchExecution(
  deps: SyncDeps,
  job: FetchJob,
  opts: { signal?: AbortSignal } = {},
): Promise<FetchOutcome> {
  const { db, idv } = deps;
  const id = job.executionId.toLowerCase();
  const [cached] = await db
    .select({ accountId: executions.accountId, status: executions.status })
    .from(executions)
    .where(eq(executions.id, id));
  let accountId = cached?.accountId ?? job.accountId?.toLowerCase();
  const call = { signal: opts.signal };
  // The time the requests were sent: an older response never overwrites a newer one.
  const fetchedAt = new Date();

  let result: WorkflowExecutionResult;
  let steps: PromiseSettledResult<StepsResponse> | undefined;
  let rules: PromiseSettledResult<RuleExecutionsResponse> | undefined;
  try {
    if (!accountId) {
      result = await idv.getExecutionById(id, call);
      accountId = result.account.id;
    } else if (job.hint === 'PROCESSED' || cached?.status === 'PROCESSED' || job.reason === 'refresh') {
      // Most likely processed: all three at once.
      const a = accountId;
      const [r2, r7, r8] = await Promise.allSettled([
        idv.getExecution(a, id, call),
        idv.getSteps(a, id, call),
        idv.getRules(a, id, call),
      ]);
      if (r2.status === 'rejected') throw r2.reason;
      result = r2.value;
      [steps, rules] = [r7, r8];
    } else {
      result = await idv.getExecution(accountId, id, call);
    }
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return notFound(deps, job, Boolean(cached));
  }

  const status = result.workflow.status ?? '';
  const wiped = Boolean(result.wipedOutAt);
  const wantsDetails = status === 'PROCESSED' && !wiped;
  if (wantsDetails && !steps) {
    const a = accountId;
    [steps, rules] = await Promise.allSettled([idv.getSteps(a, id, call), idv.getRules(a, id, call)]);
  }
  // A 404 on steps or rules of a processed result: not ready yet. Any other failure: the job is retried.
  const failed = [steps, rules].find((r) => r?.status === 'rejected' && !isNotFound(r.reason)) as
    PromiseRejectedResult | undefined;
  const value = <T>(r: PromiseSettledResult<T> | undefined) =>
    wantsDetails && r?.status === 'fulfilled' ? r.value : undefined;
  const input = { result, steps: value(steps), rules: value(rules), fetchedAt };
  const complete =
    isTerminalWorkflowStatus(status) && (!wantsDetails || (input.steps !== undefined && input.rules !== undefined));

  const outcome = await db.transaction(async (tx) => {
    const r = await ingestExecution(tx, input);
    // A stale mark set before these requests went out is answered by them, also when nothing
    // changed (an unchanged result writes no row, so the write's own reset does not happen).
    if (r.outcome === 'unchanged')
      await tx
        .update(executions)
        .set({ staleSince: null })
        .where(and(eq(executions.id, id), lte(executions.staleSince, fetchedAt)));
    await tx
      .update(callbacks)
      .set({ processedAt: new Date(), error: null })
      .where(and(eq(callbacks.executionId, id), isNull(callbacks.processedAt)));
    if (complete) await resolveFetchFailures(tx, [id]);
    return r.outcome;
  });
  if (failed) throw failed.reason;

  let retryInSec: number | undefined;
  if (!complete) {
    const next = await scheduleRetry(deps, job, accountId);
    if (next === null && FOLLOWS_SCHEDULE.has(job.reason)) {
      await recordFetchFailure(db, {
        executionId: id,
        accountId,
        state: 'failed',
        error: `Still ${status || 'without a status'}${wantsDetails ? ' without steps or rules' : ''} after ${job.attempt + 1} tries over the retry schedule`,
      });
    }
    retryInSec = next ?? undefined;
  }
  return { kind: 'stored', outcome, status, complete, retryInSec };
}

async function notFound(deps: SyncDeps, job: FetchJob, cached: boolean): Promise<FetchOutcome> {
  const id = job.executionId.toLowerCase();
  // Right after a callback the service may not serve the result yet: try again on its schedule.
  if (job.reason === 'callback') {
    const next = await scheduleRetry(deps, job, job.accountId);
    if (next !== null) return { kind: 'not-found', retryInSec: next };
  }
  if (cached) {
    await deps.db.transaction(async (tx) => {
      await markGoneAtService(tx, id, new Date());
      await tx
        .update(callbacks)
        .set({ processedAt: new Date(), error: null })
        .where(and(eq(callbacks.executionId, id), isNull(callbacks.processedAt)));
      await resolveFetchFailures(tx, [id]);
    });
    return { kind: 'gone' };
  }
  const error = 'The service does not know this execution (404)';
  await deps.db.transaction(async (tx) => {
    await tx
      .update(callbacks)
      .set({ processedAt: new Date(), error })
      .where(and(eq(callbacks.executionId, id), isNull(callbacks.processedAt)));
    await recordFetchFailure(tx, { executionId: id, accountId: job.accountId, state: 'failed', error });
  });
  return { kind: 'not-found', retryInSec: null };
}

/** Queues the next try of the not-ready schedule; null when the schedule is used up (or no queue). */
async function scheduleRetry(deps: SyncDeps, job: FetchJob, accountId: string | undefined): Promise<number | null> {
  if (!FOLLOWS_SCHEDULE.has(job.reason) || !deps.jobs) return null;
  const delaySec = deps.options.retryScheduleSec[job.attempt];
  if (delaySec === undefined) return null;
  await enqueueFetch(
    deps.jobs,
    { ...job, accountId, attempt: job.attempt + 1 },
    { delayMs: Math.max(1, delaySec * 1000) },
  );
  return delaySec;
}
