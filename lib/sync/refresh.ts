import { eq } from 'drizzle-orm';
import { executions } from '@/lib/db/schema';
import { isRetryable } from '@/lib/idv/errors';
import { fetchExecution, type SyncDeps } from './fetch';
import { enqueueFetch } from './jobs';
import { describe } from './runs';

export type RefreshResult =
  | { kind: 'refreshed'; status: string; complete: boolean; changed: boolean; retryInSec?: number }
  | { kind: 'gone' }
  | { kind: 'not-cached' }
  /** The service did not answer in time: a fetch job was queued instead. */
  | { kind: 'queued'; error: string };

/**
 * "Refresh now" on one cached execution: fetched at once (R2 + R7 + R8), or queued when the
 * service is unavailable, so that the analyst's click is not lost.
 */
export async function refreshExecution(
  deps: SyncDeps,
  executionId: string,
  opts: { timeoutMs?: number } = {},
): Promise<RefreshResult> {
  const id = executionId.toLowerCase();
  const [row] = await deps.db.select({ accountId: executions.accountId }).from(executions).where(eq(executions.id, id));
  if (!row) return { kind: 'not-cached' };
  const job = { executionId: id, accountId: row.accountId, reason: 'refresh' as const, attempt: 0 };
  try {
    const r = await fetchExecution(deps, job, { signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000) });
    if (r.kind === 'gone') return { kind: 'gone' };
    if (r.kind === 'not-found') return { kind: 'gone' };
    return {
      kind: 'refreshed',
      status: r.status,
      complete: r.complete,
      changed: r.outcome === 'updated' || r.outcome === 'inserted',
      retryInSec: r.retryInSec,
    };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
    if (!(timedOut || isRetryable(err)) || !deps.jobs) throw err;
    await enqueueFetch(deps.jobs, { ...job, reason: 'retry' });
    return { kind: 'queued', error: describe(err) };
  }
}
