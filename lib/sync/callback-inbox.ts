/**
 * The work behind a callback, done in batches after the service got its 200 (callbacks.ts only
 * stores it). A worker claims a batch of undispatched callbacks, and for each execution they name
 * (one decision per execution, however often a batch names it):
 *
 * - cached under another account: refused (error on the callback), nothing fetched;
 * - not cached: one status call (R5, short timeout) asks the service; 404 refuses it, as the
 *   receiver did before (the service retries undelivered callbacks and the poll catches anything
 *   missed); no answer (timeout, outage) lets the fetch job decide;
 * - otherwise: marked stale and one fetch queued (a singleton per execution, so a storm of
 *   repeated callbacks queues one fetch each).
 *
 * The batch's outcome (dispatch marks, stale marks, every fetch job) commits in one transaction,
 * so a worker that dies mid-batch leaves the callbacks undispatched: its claim runs out and
 * another worker takes them. Status calls happen before that transaction, never inside it (on
 * the embedded database a transaction holds the whole database).
 */
import type PgBoss from 'pg-boss';
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { callbacks, executions } from '@/lib/db/schema';
import type { IdvClient } from '@/lib/idv/client';
import { isNotFound } from '@/lib/idv/errors';
import { jobDb } from '@/lib/jobs/boss';
import { claimDue, type LeasedTable } from '@/lib/jobs/lease';
import { enqueueFetches, type FetchJob } from './jobs';
import { mapPool } from './runs';

export interface InboxOptions {
  /** Callbacks one batch claims at most. */
  batchSize: number;
  /** A claim older than this is taken over (its worker died mid-batch). */
  claimMs: number;
  /** Status checks (R5) of unknown executions in flight at once. */
  verifyConcurrency: number;
  verifyTimeoutMs: number;
  /** Wait between looks at an empty inbox. */
  idleMs: number;
}

export const DEFAULT_INBOX_OPTIONS: InboxOptions = {
  batchSize: 500,
  claimMs: 60_000,
  verifyConcurrency: 4,
  verifyTimeoutMs: 2_500,
  idleMs: 200,
};

export interface InboxDeps {
  db: Db;
  idv: IdvClient;
  boss: Pick<PgBoss, 'insert'>;
  log?: (line: string) => void;
}

/** An undispatched callback is held by the worker that claimed it, for `claimMs` from its claim. */
const inbox = (claimMs: number): LeasedTable => ({
  table: 'callbacks',
  key: 'id',
  lease: 'claimed_at',
  holds: 'since',
  ms: claimMs,
  held: sql`dispatched_at is null and claimed_at is not null`,
});

type Claimed = {
  id: number;
  execution_id: string;
  account_id: string | null;
  status: string | null;
};

/** One batch: claims, decides, dispatches. Returns the number of callbacks dispatched. */
export async function drainCallbacks(
  deps: InboxDeps,
  opts: Partial<InboxOptions> = {},
  signal?: AbortSignal,
): Promise<number> {
  const o = { ...DEFAULT_INBOX_OPTIONS, ...opts };
  const claimed = await claimDue<Claimed>(deps.db, inbox(o.claimMs), {
    due: sql`dispatched_at is null and claimed_at is null`,
    orderBy: sql`id`,
    limit: o.batchSize,
    returning: sql`id, execution_id, account_id, status`,
  });
  if (!claimed.length) return 0;

  // One decision per execution; the newest callback's status is the hint.
  const byExecution = new Map<string, { accountId: string | null; hint: string | null; ids: number[] }>();
  for (const c of claimed.sort((a, b) => Number(a.id) - Number(b.id))) {
    const e = byExecution.get(c.execution_id) ?? { accountId: c.account_id, hint: null, ids: [] };
    e.hint = c.status ?? e.hint;
    e.ids.push(Number(c.id));
    byExecution.set(c.execution_id, e);
  }
  const ids = [...byExecution.keys()];
  const cached = new Map(
    (
      await deps.db
        .select({ id: executions.id, accountId: executions.accountId })
        .from(executions)
        .where(inArray(executions.id, ids))
    ).map((r) => [r.id, r.accountId]),
  );

  const refused = new Map<number, string>();
  const fetches: FetchJob[] = [];
  const stale: string[] = [];
  const unknown = ids.filter((id) => !cached.has(id));
  const known = new Set<string>();
  await mapPool(unknown, o.verifyConcurrency, async (id) => {
    const e = byExecution.get(id)!;
    if (signal?.aborted || !e.accountId) return void known.add(id);
    if ((await verifyAtService(deps, e.accountId, id, o.verifyTimeoutMs)) !== false) known.add(id);
  });
  for (const [id, e] of byExecution) {
    const cachedAccount = cached.get(id);
    let error: string | null = null;
    if (cachedAccount !== undefined && e.accountId && cachedAccount !== e.accountId)
      error = 'This execution belongs to another account.';
    else if (cachedAccount === undefined && !known.has(id))
      error = 'The service does not know this workflow execution (404 on its status).';
    if (error) {
      for (const cb of e.ids) refused.set(cb, error);
      continue;
    }
    if (cachedAccount !== undefined) stale.push(id);
    fetches.push({
      executionId: id,
      accountId: cachedAccount ?? e.accountId ?? undefined,
      reason: 'callback',
      attempt: 0,
      ...(e.hint ? { hint: e.hint } : {}),
    });
  }

  const claimedIds = claimed.map((c) => Number(c.id));
  await deps.db.transaction(async (tx) => {
    if (stale.length)
      await tx
        .update(executions)
        .set({ staleSince: sql`now()` })
        .where(sql`${inArray(executions.id, stale)} and ${executions.staleSince} is null`);
    if (fetches.length) await enqueueFetches(deps.boss, fetches, { db: jobDb(tx) });
    await tx
      .update(callbacks)
      .set({ dispatchedAt: sql`now()` })
      .where(inArray(callbacks.id, claimedIds));
    for (const [error, cbs] of groupByError(refused))
      await tx
        .update(callbacks)
        .set({ processedAt: sql`now()`, error })
        .where(inArray(callbacks.id, cbs));
  });
  if (refused.size) deps.log?.(`callbacks: ${refused.size} refused after checking (see the sync page)`);
  return claimed.length;
}

function groupByError(refused: Map<number, string>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [id, error] of refused) out.set(error, [...(out.get(error) ?? []), id]);
  return out;
}

/** true: known; false: the service says 404; null: could not tell (timeout, outage, rate limit). */
async function verifyAtService(
  deps: InboxDeps,
  accountId: string,
  executionId: string,
  ms: number,
): Promise<boolean | null> {
  try {
    // The client's retries sleep through Retry-After; the race keeps one slow answer from holding the batch.
    const call = deps.idv.getStatus(accountId, executionId, { signal: AbortSignal.timeout(ms) });
    call.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    });
    await Promise.race([call, timeout]).finally(() => clearTimeout(timer));
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    deps.log?.(`callback for ${executionId}: status check failed, fetching anyway (${describeError(err)})`);
    return null;
  }
}

const describeError = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The drain loop of a worker: batches back to back while the inbox has callbacks, a short wait
 * when it is empty. `stop()` ends it after the batch in hand.
 */
export function startCallbackDrain(deps: InboxDeps, opts: Partial<InboxOptions> = {}): { stop(): Promise<void> } {
  const o = { ...DEFAULT_INBOX_OPTIONS, ...opts };
  const ctl = new AbortController();
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!ctl.signal.aborted) {
      let n = 0;
      let failed = false;
      try {
        n = await drainCallbacks(deps, o, ctl.signal);
      } catch (err) {
        failed = true;
        deps.log?.(`callback inbox: ${describeError(err)}; trying again in 2 s`);
      }
      if (n >= o.batchSize || ctl.signal.aborted) continue;
      await new Promise<void>((resolve) => {
        // A database away: one line every 2 s, not one per idle wait.
        const t = setTimeout(resolve, failed ? 2_000 : n ? 0 : o.idleMs);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  })();
  return {
    async stop() {
      ctl.abort();
      wake?.();
      await loop;
    },
  };
}
