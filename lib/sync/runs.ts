/**
 * Backfill, reconciliation and poll: walks of the service's list (R12, newest first).
 *
 * - A run's progress lives in `sync_runs` (next page, counts) and is committed with each page's
 *   rows, so a run stopped anywhere (Ctrl+C, a killed worker, a database restart) resumes at
 *   the next page. Pages shift when executions are created meanwhile; that only makes a run
 *   see some executions twice, never skip one, and writing them again is harmless (idempotent).
 * - Who runs a run is a lease: `owner`, renewed through `updated_at`. A run whose owner stopped
 *   renewing is taken over by the next worker that looks (several consoles, one worker each).
 * - Incremental runs (backfill, poll) stop at the page that reaches below the newest execution
 *   of the last completed run (less an overlap): there they meet what the cache already has.
 *   A reconciliation walks to the end, then compares: every cached execution the walk did not
 *   see is checked at the service (404: deleted there, marked gone).
 * - R12 has no total: `countServiceExecutions` finds it with an exponential and binary search
 *   over `size=1` pages (about 2·log2(n) tiny requests).
 */
import { hostname } from 'node:os';
import { and, count, desc, eq, inArray, isNotNull, isNull, lt, max, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { executions, settings, syncRuns, syncSeen } from '@/lib/db/schema';
import { IdvError, IdvHttpError, IdvParseError, isNotFound, isRetryable } from '@/lib/idv/errors';
import { isTerminalWorkflowStatus, type WorkflowExecutionResult } from '@/lib/idv/schemas';
import { fetchExecution, type SyncDeps } from './fetch';
import { resolveFetchFailures } from './failures';
import type { Tx } from '@/lib/db/client';
import { ingestMany, prepareInput } from './ingest';
import { toRows, type IngestInput, type IngestOutcome } from './map';

export type RunKind = 'backfill' | 'reconcile' | 'poll';
export type SyncRun = typeof syncRuns.$inferSelect;

/** settings key of the last count of executions at the service. */
export const SERVICE_COUNT_KEY = 'sync.service_count';
export interface ServiceCount {
  count: number;
  at: string;
  /** `walk`: distinct executions a run listed to the end; `probe`: the binary search. */
  source: 'walk' | 'probe';
}

export function workerOwnerId(prefix = 'worker'): string {
  return `${prefix}:${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

class LeaseLost extends Error {
  constructor() {
    super('Another process took over this run.');
  }
}

/**
 * The open run of `kind`, or a new one. At most one run per kind is open (a unique index), so a
 * second "start a backfill" resumes the first instead of walking the list twice.
 */
export async function openRun(
  db: Db,
  kind: RunKind,
  opts: { startedBy?: string; overlapMs: number; pageSize: number },
): Promise<{ run: SyncRun; created: boolean }> {
  const [open] = await db
    .select()
    .from(syncRuns)
    .where(and(eq(syncRuns.kind, kind), isNull(syncRuns.finishedAt)));
  if (open) return { run: open, created: false };
  let stopBefore: Date | null = null;
  if (kind !== 'reconcile') {
    const [w] = await db
      .select({ head: max(syncRuns.headCreatedAt) })
      .from(syncRuns)
      .where(eq(syncRuns.state, 'completed'));
    if (w?.head) stopBefore = new Date(new Date(w.head).getTime() - opts.overlapMs);
  }
  const [created] = await db
    .insert(syncRuns)
    .values({ kind, state: 'queued', startedBy: opts.startedBy ?? null, stopBefore, pageSize: opts.pageSize })
    .onConflictDoNothing()
    .returning();
  if (created) return { run: created, created: true };
  const [raced] = await db
    .select()
    .from(syncRuns)
    .where(and(eq(syncRuns.kind, kind), isNull(syncRuns.finishedAt)));
  return { run: raced, created: false };
}

/** Open runs whose owner stopped renewing the lease (or that were queued and never started). */
export async function listStaleRuns(db: Db, leaseMs: number): Promise<SyncRun[]> {
  return db
    .select()
    .from(syncRuns)
    .where(
      and(
        isNull(syncRuns.finishedAt),
        inArray(syncRuns.state, ['queued', 'running']),
        or(isNull(syncRuns.owner), lt(syncRuns.updatedAt, sql`now() - make_interval(secs => ${leaseMs / 1000})`)),
      ),
    );
}

async function acquireLease(db: Db, runId: number, owner: string, leaseMs: number): Promise<SyncRun | null> {
  const [run] = await db
    .update(syncRuns)
    .set({ owner, state: 'running', updatedAt: sql`now()`, error: null })
    .where(
      and(
        eq(syncRuns.id, runId),
        isNull(syncRuns.finishedAt),
        or(
          isNull(syncRuns.owner),
          eq(syncRuns.owner, owner),
          lt(syncRuns.updatedAt, sql`now() - make_interval(secs => ${leaseMs / 1000})`),
        ),
      ),
    )
    .returning();
  return run ?? null;
}

interface PageData {
  page: number;
  listedAt: Date;
  items: WorkflowExecutionResult[];
  inputs: IngestInput[];
  /** Records the list returned without usable ids (kept out; counted). */
  skipped: number;
}

type Counters = Record<IngestOutcome | 'skipped' | 'unusable', number>;

export interface ExecuteRunOptions {
  owner: string;
  signal?: AbortSignal;
  onProgress?: (run: SyncRun) => void;
  /** After each page's commit: when its list request was sent and how many executions it had (benchmarks). */
  onPage?: (page: { page: number; listedAt: Date; committedAt: Date; executions: number }) => void;
}

/**
 * Executes (or resumes) a run. Returns the run as it ended, or null when another owner holds
 * it. Never throws for the service or the database: a run that cannot go on is left `failed`
 * with its error (resumable), an aborted one `interrupted`.
 */
export async function executeRun(deps: SyncDeps, runId: number, opts: ExecuteRunOptions): Promise<SyncRun | null> {
  const { db, options } = deps;
  let run = await acquireLease(db, runId, opts.owner, options.leaseMs);
  if (!run) return null;
  const ctl = new AbortController();
  const abort = () => ctl.abort(opts.signal?.reason);
  if (opts.signal?.aborted) abort();
  opts.signal?.addEventListener('abort', abort, { once: true });
  let lost = false;
  const heartbeat = setInterval(
    () => {
      db.update(syncRuns)
        .set({ updatedAt: sql`now()` })
        .where(and(eq(syncRuns.id, runId), eq(syncRuns.owner, opts.owner)))
        .returning({ id: syncRuns.id })
        .then((r) => {
          if (!r.length) {
            lost = true;
            ctl.abort(new LeaseLost());
          }
        })
        .catch(() => undefined); // the database is away: the page loop notices and retries
    },
    Math.max(250, options.leaseMs / 3),
  );
  const signal = ctl.signal;
  const counters: Counters = {
    inserted: 0,
    updated: 0,
    unchanged: 0,
    stale: 0,
    skipped: 0,
    unusable: 0,
    ...(run.details?.counters as Partial<Counters>),
  };

  try {
    // Only a full walk knows its length up front; an incremental one ends where it meets the cache.
    if (run.totalEstimate === null && run.nextPage === 1 && run.stopBefore === null) {
      const total = await countServiceExecutions(deps, signal).catch(() => null);
      if (total !== null)
        [run] = await db.update(syncRuns).set({ totalEstimate: total }).where(eq(syncRuns.id, runId)).returning();
    }
    let page = run.nextPage;
    const size = run.pageSize;
    // Pages ahead are fetched while this one is written (pages are written in order, so a resumed
    // run never skips one). An incremental run fetches one ahead: it may stop at any page.
    const depth = run.stopBefore === null ? Math.max(1, options.prefetchPages) : 1;
    const loads = new AbortController();
    const loadSignal = AbortSignal.any([signal, loads.signal]);
    const pending = new Map<number, Promise<PageData>>();
    const ensure = (from: number) => {
      for (let p = from; p < from + depth; p++) {
        if (pending.has(p)) continue;
        const promise = withRunRetries(deps, loadSignal, () => loadPage(deps, run!, p, loadSignal));
        promise.catch(() => undefined);
        pending.set(p, promise);
      }
    };
    let reachedEnd = false;
    try {
      for (;;) {
        ensure(page);
        const data = await pending.get(page)!;
        pending.delete(page);
        const last = data.items.length + data.skipped < size;
        const oldest = oldestCreatedAt(data.items);
        const met = run.stopBefore !== null && oldest !== null && oldest < run.stopBefore;
        const more = !last && !met && !signal.aborted;
        if (more) ensure(page + 1);
        run = await withRunRetries(deps, signal, () => writePage(deps, run!, data, opts.owner, counters));
        opts.onPage?.({
          page: data.page,
          listedAt: data.listedAt,
          committedAt: new Date(),
          executions: data.items.length,
        });
        opts.onProgress?.(run);
        if (last) reachedEnd = true;
        if (!more) break;
        page += 1;
      }
    } finally {
      loads.abort(new Error('run ended'));
    }
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    return await completeRun(deps, run, opts.owner, reachedEnd, counters, signal);
  } catch (err) {
    deps.log?.(`run ${runId} stopped: ${describe(err)}`);
    if (lost || err instanceof LeaseLost) return run;
    const interrupted = signal.aborted;
    const [ended] = await db
      .update(syncRuns)
      .set({
        state: interrupted ? 'interrupted' : 'failed',
        error: interrupted ? null : describe(err),
        owner: null,
        updatedAt: sql`now()`,
      })
      .where(and(eq(syncRuns.id, runId), eq(syncRuns.owner, opts.owner)))
      .returning()
      .catch(() => [run]);
    if (!interrupted) deps.log?.(`sync run ${runId} (${run?.kind}) failed: ${describe(err)}`);
    return ended ?? run;
  } finally {
    clearInterval(heartbeat);
    opts.signal?.removeEventListener('abort', abort);
  }
}

function oldestCreatedAt(items: WorkflowExecutionResult[]): Date | null {
  let oldest: number | null = null;
  for (const i of items) {
    const t = i.createdAt ? Date.parse(i.createdAt) : NaN;
    if (!Number.isNaN(t) && (oldest === null || t < oldest)) oldest = t;
  }
  return oldest === null ? null : new Date(oldest);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function loadPage(deps: SyncDeps, run: SyncRun, page: number, signal: AbortSignal): Promise<PageData> {
  const { db, idv, options } = deps;
  const listedAt = new Date();
  const list = await idv.listExecutions({ page, size: run.pageSize }, { signal });
  const items = list.workflowExecutions.filter((r) => UUID.test(r.workflow.id) && UUID.test(r.account.id));
  const skipped = list.skipped.length + (list.workflowExecutions.length - items.length);
  // Steps and rules do not change once an execution is processed: the stored ones are reused, so
  // an unchanged execution hashes the same and is not written again.
  const ids = items.map((i) => i.workflow.id.toLowerCase());
  const stored = ids.length
    ? await db
        .select({ id: executions.id, rawSteps: executions.rawSteps, rawRules: executions.rawRules })
        .from(executions)
        .where(and(inArray(executions.id, ids), eq(executions.status, 'PROCESSED'), isNotNull(executions.rawSteps)))
    : [];
  const known = new Map(stored.map((s) => [s.id, s]));
  const inputs = await mapPool(items, options.detailConcurrency, async (result): Promise<IngestInput> => {
    const id = result.workflow.id.toLowerCase();
    if (result.workflow.status !== 'PROCESSED' || result.wipedOutAt) return { result, fetchedAt: listedAt };
    const k = known.get(id);
    if (k) return { result, steps: k.rawSteps, rules: k.rawRules ?? undefined, fetchedAt: listedAt };
    const a = result.account.id;
    // A result that carries its rule executions needs no R8 (half the requests under the service's 15/s).
    const needRules = !result.rules?.executions?.length;
    const [steps, rules] = await Promise.allSettled([
      idv.getSteps(a, id, { signal }),
      needRules ? idv.getRules(a, id, { signal }) : Promise.resolve(undefined),
    ]);
    for (const r of [steps, rules]) if (r.status === 'rejected' && !isNotFound(r.reason)) throw r.reason;
    return {
      result,
      steps: steps.status === 'fulfilled' ? steps.value : undefined,
      rules: rules.status === 'fulfilled' ? rules.value : undefined,
      fetchedAt: listedAt,
    };
  });
  // Mapped now, while the previous page is being written, not in this page's transaction.
  for (const input of inputs) prepareInput(input);
  return { page, listedAt, items, inputs, skipped };
}

/** ingestMany, but one unusable record does not block its page: it is left out and counted. */
async function ingestPage(
  tx: Tx,
  inputs: IngestInput[],
): Promise<{ outcomes: Array<{ id: string; outcome: IngestOutcome }>; unusable: number }> {
  try {
    return { outcomes: await ingestMany(tx, inputs), unusable: 0 };
  } catch (err) {
    if (!(err instanceof IdvParseError)) throw err;
    const usable = inputs.filter((i) => {
      try {
        toRows(i);
        return true;
      } catch {
        return false;
      }
    });
    return { outcomes: await ingestMany(tx, usable), unusable: inputs.length - usable.length };
  }
}

async function writePage(
  deps: SyncDeps,
  run: SyncRun,
  data: PageData,
  owner: string,
  counters: Counters,
): Promise<SyncRun> {
  const { db } = deps;
  return db.transaction(async (tx) => {
    const { outcomes, unusable } = await ingestPage(tx, data.inputs);
    const ids = data.items.map((i) => i.workflow.id.toLowerCase());
    if (ids.length) {
      await tx
        .insert(syncSeen)
        .values([...new Set(ids)].map((executionId) => ({ executionId, runId: run.id, listedAt: data.listedAt })))
        .onConflictDoUpdate({
          target: syncSeen.executionId,
          set: { runId: sql`excluded.run_id`, listedAt: sql`excluded.listed_at` },
        });
    }
    const complete = data.inputs
      .filter((i) => {
        const r = i.result as WorkflowExecutionResult;
        return (
          isTerminalWorkflowStatus(r.workflow.status) &&
          (r.workflow.status !== 'PROCESSED' ||
            r.wipedOutAt ||
            (i.steps !== undefined && (i.rules !== undefined || r.rules?.executions?.length)))
        );
      })
      .map((i) => (i.result as WorkflowExecutionResult).workflow.id);
    await resolveFetchFailures(tx, complete);
    const next = { ...counters };
    for (const o of outcomes) next[o.outcome] += 1;
    next.skipped += data.skipped;
    next.unusable += unusable;
    const written = outcomes.filter((o) => o.outcome === 'inserted' || o.outcome === 'updated').length;
    const head = data.page === 1 ? newestCreatedAt(data.items) : null;
    const [updated] = await tx
      .update(syncRuns)
      .set({
        nextPage: data.page + 1,
        seen: sql`${syncRuns.seen} + ${data.items.length}`,
        written: sql`${syncRuns.written} + ${written}`,
        failed: sql`${syncRuns.failed} + ${unusable + data.skipped}`,
        ...(head ? { headCreatedAt: head } : {}),
        details: { ...run.details, counters: next },
        updatedAt: sql`now()`,
      })
      .where(and(eq(syncRuns.id, run.id), eq(syncRuns.owner, owner)))
      .returning();
    if (!updated) throw new LeaseLost();
    Object.assign(counters, next);
    return updated;
  });
}

function newestCreatedAt(items: WorkflowExecutionResult[]): Date | null {
  let newest: number | null = null;
  for (const i of items) {
    const t = i.createdAt ? Date.parse(i.createdAt) : NaN;
    if (!Number.isNaN(t) && (newest === null || t > newest)) newest = t;
  }
  return newest === null ? null : new Date(newest);
}

async function completeRun(
  deps: SyncDeps,
  run: SyncRun,
  owner: string,
  reachedEnd: boolean,
  counters: Counters,
  signal: AbortSignal,
): Promise<SyncRun> {
  const { db } = deps;
  let serviceTotal: number | null = null;
  let cacheTotal: number | null = null;
  const details: Record<string, unknown> = { ...run.details, counters, reachedEnd };
  if (reachedEnd) {
    // Cached executions this walk did not list, created before it started: deleted at the service?
    const missing = await db
      .select({ id: executions.id, accountId: executions.accountId })
      .from(executions)
      .where(
        and(
          isNull(executions.goneAt),
          lt(executions.createdAt, run.startedAt),
          notExists(
            db
              .select({ one: sql`1` })
              .from(syncSeen)
              .where(and(eq(syncSeen.executionId, executions.id), eq(syncSeen.runId, run.id))),
          ),
        ),
      )
      .limit(1000);
    let gone = 0;
    for (const m of missing) {
      if (signal.aborted) break;
      const r = await withRunRetries(deps, signal, () =>
        fetchExecution(
          { ...deps, jobs: undefined },
          { executionId: m.id, accountId: m.accountId, reason: 'reconcile', attempt: 0 },
          { signal },
        ),
      );
      if (r.kind === 'gone') gone += 1;
    }
    details.missingChecked = missing.length;
    details.gone = gone;
    const [seen] = await db.select({ n: count() }).from(syncSeen).where(eq(syncSeen.runId, run.id));
    const [cached] = await db.select({ n: count() }).from(executions).where(isNull(executions.goneAt));
    serviceTotal = seen.n;
    cacheTotal = cached.n;
    await saveServiceCount(db, { count: serviceTotal, at: new Date().toISOString(), source: 'walk' });
  }
  const [done] = await db
    .update(syncRuns)
    .set({
      state: 'completed',
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
      owner: null,
      error: null,
      serviceTotal,
      cacheTotal,
      details,
    })
    .where(and(eq(syncRuns.id, run.id), eq(syncRuns.owner, owner)))
    .returning();
  return done ?? run;
}

export async function saveServiceCount(db: Db, value: ServiceCount): Promise<void> {
  await db
    .insert(settings)
    .values({ key: SERVICE_COUNT_KEY, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: sql`now()` } });
}

/**
 * Executions at the service. R12 has no total, but with `size=1` page n exists exactly when
 * there are at least n executions: doubling finds an upper bound, bisection the count.
 */
export async function countServiceExecutions(deps: Pick<SyncDeps, 'idv'>, signal?: AbortSignal): Promise<number> {
  const present = async (n: number) => {
    const r = await deps.idv.listExecutions({ page: n, size: 1 }, { signal });
    return r.workflowExecutions.length + r.skipped.length > 0;
  };
  if (!(await present(1))) return 0;
  let lo = 1;
  let hi = 2;
  while (await present(hi)) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (await present(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Runs `fn`, waiting and trying again while the service or the database is away (the client
 * has already retried each request). Gives up at once on what another try cannot fix.
 */
async function withRunRetries<T>(deps: SyncDeps, signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  const delays = deps.options.runRetryDelaysMs;
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw signal.reason ?? new Error('aborted');
    try {
      return await fn();
    } catch (err) {
      if (signal.aborted || err instanceof LeaseLost) throw err;
      const transient = isTransient(err);
      if (!transient || attempt >= delays.length) throw err;
      deps.log?.(`sync: ${describe(err)}; trying again in ${delays[attempt] / 1000} s`);
      await sleep(delays[attempt], signal);
    }
  }
}

/**
 * Worth another try later: what the client calls retryable, a 401 (a token the service expired
 * early; the next try fetches a new one, while wrong credentials keep failing and give up), and
 * database errors (a restart, a dropped connection).
 */
export function isTransient(err: unknown): boolean {
  if (err instanceof IdvHttpError && err.status === 401) return true;
  if (err instanceof IdvError) return isRetryable(err);
  return !(err instanceof TypeError || err instanceof RangeError);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Maps with at most `limit` promises in flight, keeping order. */
export async function mapPool<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  });
  await Promise.all(workers);
  return out;
}

export function describe(err: unknown): string {
  // drizzle wraps driver errors in "Failed query: <sql> params: ..."; the cause says what went wrong.
  if (err instanceof Error && err.message.startsWith('Failed query') && err.cause instanceof Error)
    return `database: ${err.cause.message}`.slice(0, 1000);
  if (err instanceof Error) return err.message.slice(0, 1000);
  return String(err).slice(0, 1000);
}

/** Newest runs first, for the sync page and the CLI. */
export async function listRuns(db: Db, limit = 10): Promise<SyncRun[]> {
  return db.select().from(syncRuns).orderBy(desc(syncRuns.startedAt), desc(syncRuns.id)).limit(limit);
}
