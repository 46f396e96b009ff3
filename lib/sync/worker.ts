/**
 * The sync worker: processes the sync's jobs on pg-boss and runs its schedules. It runs inside
 * `npm start` (unless WORKER=off) and as `npm run worker`; several workers may run against one
 * database (pg-boss hands each job to one of them; runs are leased, see runs.ts).
 */
import type PgBoss from 'pg-boss';
import { and, count, desc, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { executions, syncRuns } from '@/lib/db/schema';
import type { IdvClient } from '@/lib/idv/client';
import { createBoss, QUEUES } from '@/lib/jobs/boss';
import { startCallbackDrain } from './callback-inbox';
import type { SyncOptions } from './config';
import { recordFetchFailure } from './failures';
import { fetchExecution, type SyncDeps } from './fetch';
import { enqueueFetch, enqueueRun, type FetchJob, type RunJob } from './jobs';
import {
  countServiceExecutions,
  describe,
  executeRun,
  isTransient,
  listStaleRuns,
  openRun,
  saveServiceCount,
  workerOwnerId,
} from './runs';
import { retentionDays, runRetention } from './retention';
import { lineLogger } from '@/lib/log';

export interface StartWorkerOptions {
  db: Db;
  idv: IdvClient;
  options: SyncOptions;
  /**
   * The process's pg-boss, started and stopped by its owner (`startWorkers` in lib/workers). Without
   * it the sync starts a pg-boss of its own and stops it with itself (tests, tools).
   */
  boss?: PgBoss;
  /** Where its own pg-boss connects (default DATABASE_URL). */
  url?: string;
  /** pg-boss schema (tests give each file its own). */
  queueSchema?: string;
  /** RETENTION_DAYS, used when no admin setting exists. */
  retentionFallbackDays?: number;
  /** Resume interrupted runs and start a backfill when the cache is empty or behind. Default true. */
  initialSync?: boolean;
  /** Cron schedules for poll, reconcile and retention. Default true. */
  schedules?: boolean;
  /** Drain the callback inbox (callback-inbox.ts). Default true. */
  callbackInbox?: boolean;
  /** How long a graceful stop lets running fetches finish before cutting them. Default 10 s. */
  graceMs?: number;
  log?: (line: string) => void;
}

export interface SyncWorker {
  boss: PgBoss;
  owner: string;
  deps: SyncDeps;
  /** One poll now (what the schedule does every SYNC_POLL_MINUTES). */
  pollNow(): Promise<void>;
  /** `graceful: false` abandons running jobs as a crash would (tests of take-over). */
  stop(opts?: { graceful?: boolean }): Promise<void>;
}

export async function startWorker(o: StartWorkerOptions): Promise<SyncWorker> {
  const log = o.log ?? lineLogger('sync');
  const ownBoss = !o.boss;
  const boss =
    o.boss ??
    (await createBoss({
      url: o.url,
      schema: o.queueSchema,
      worker: true,
      max: 3,
      onError: (err) => log(`queue: ${err.message}`),
    }));
  // On a pg-boss it does not own, the sync stops its own queues and waits for its own running
  // jobs; the owner stops the pg-boss once every domain has stopped.
  const workIds: string[] = [];
  const running = new Set<Promise<unknown>>();
  const during = (job: () => Promise<void>): Promise<void> => {
    const p = job();
    running.add(p);
    p.then(
      () => running.delete(p),
      () => running.delete(p),
    );
    return p;
  };
  const owner = workerOwnerId();
  // Runs (walks of the list, minutes long) stop at a page boundary on a graceful stop; fetches
  // (a second or two) are let finish, and cut only when the stop's grace time is over.
  const runsCtl = new AbortController();
  const ctl = new AbortController();
  const runSignal = AbortSignal.any([runsCtl.signal, ctl.signal]);
  let stopping = false;
  const deps: SyncDeps = { db: o.db, idv: o.idv, jobs: boss, options: o.options, log };
  const { options } = o;

  const fetchWork = await boss.work<FetchJob>(
    QUEUES.fetchExecution,
    { batchSize: options.fetchConcurrency, pollingIntervalSeconds: options.pollingIntervalSec, includeMetadata: true },
    async (jobs) =>
      // Each job succeeds or fails on its own; the ones not failed here are completed by pg-boss.
      during(async () => {
        await Promise.all(
          jobs.map(async (job) => {
            try {
              await fetchExecution(deps, job.data, { signal: ctl.signal });
            } catch (err) {
              const permanent = !isTransient(err);
              const final = permanent || job.retryCount >= job.retryLimit;
              log(`fetch ${job.data.executionId} failed${final ? '' : ', will retry'}: ${describe(err)}`);
              await recordFetchFailure(o.db, {
                executionId: job.data.executionId,
                accountId: job.data.accountId,
                error: describe(err),
                state: final ? 'failed' : 'retrying',
              }).catch(() => undefined);
              // A permanent error is not retried by the queue (another try cannot fix it): "retry failed" on the sync page can.
              if (!permanent)
                await boss.fail(QUEUES.fetchExecution, job.id, { message: describe(err) }).catch(() => undefined);
            }
          }),
        );
      }),
  );
  const runWork = await boss.work<RunJob>(
    QUEUES.backfill,
    { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSec },
    async ([job]) =>
      during(async () => {
        const ended = await executeRun(deps, job.data.runId, { owner, signal: runSignal });
        // Interrupted by this worker's stop: queued again at once for another worker (or the next to start).
        if (stopping && ended?.state === 'interrupted')
          await enqueueRun(boss, job.data.runId).catch((err) =>
            log(`run ${job.data.runId} not requeued: ${describe(err)}`),
          );
      }),
  );
  const pollWork = await boss.work(
    QUEUES.poll,
    { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSec },
    async () => during(() => pollOnce(deps, boss, owner, runSignal)),
  );
  const reconcileWork = await boss.work(
    QUEUES.reconcile,
    { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSec },
    async () =>
      during(async () => {
        const { run } = await openRun(o.db, 'reconcile', {
          startedBy: 'schedule',
          overlapMs: options.overlapMs,
          pageSize: options.pageSize,
        });
        await enqueueRun(boss, run.id);
      }),
  );
  const retentionWork = await boss.work(
    QUEUES.retention,
    { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSec },
    async () =>
      during(async () => {
        const days = await retentionDays(o.db, o.retentionFallbackDays ?? 0);
        const purged = await runRetention(o.db, days);
        if (purged) log(`retention: purged personal data of ${purged} executions older than ${days} days`);
      }),
  );
  workIds.push(fetchWork, runWork, pollWork, reconcileWork, retentionWork);

  if (o.schedules ?? true) {
    await boss.schedule(QUEUES.poll, `*/${Math.min(options.pollMinutes, 59)} * * * *`);
    await boss.schedule(QUEUES.retention, '7 * * * *');
    if (options.reconcileHours > 0) await boss.schedule(QUEUES.reconcile, reconcileCron(options.reconcileHours));
    else await boss.unschedule(QUEUES.reconcile);
  }
  if (o.initialSync ?? true)
    await kickOff(deps, boss).catch((err) => log(`start-up sync not queued: ${describe(err)}`));
  // Callbacks the console stored: dedupe, status checks, stale marks and fetch jobs, in batches.
  const inbox =
    (o.callbackInbox ?? true)
      ? startCallbackDrain(
          { db: o.db, idv: o.idv, boss, log },
          { verifyTimeoutMs: options.verifyTimeoutMs, idleMs: Math.min(200, options.pollingIntervalSec * 1000) },
        )
      : null;

  let stopped = false;
  return {
    boss,
    owner,
    deps,
    pollNow: () => pollOnce(deps, boss, owner, runSignal),
    async stop(opts = {}) {
      if (stopped) return;
      stopped = true;
      stopping = true;
      const graceful = opts.graceful ?? true;
      if (graceful) {
        // Stop taking work; running runs end `interrupted` at a page boundary (and are queued
        // again), the batch of callbacks in hand and running fetches finish, within the grace time.
        runsCtl.abort(new Error('worker stopping'));
        await inbox?.stop();
        const grace = setTimeout(() => ctl.abort(new Error('worker stopping: grace time over')), o.graceMs ?? 10_000);
        if (ownBoss) {
          // pg-boss waits for the running jobs, fails the ones still running after its timeout (they
          // are retried elsewhere), then closes its pool.
          await boss.stop({ graceful: true, wait: true, timeout: (o.graceMs ?? 10_000) + 2_000 });
        } else {
          // The same on a shared pg-boss, for the sync's own queues: no new jobs, the running ones
          // finish (or are cut by the grace timer above and fail, to be retried); the owner stops it.
          for (const id of workIds) await boss.offWork({ id }).catch(() => undefined);
          await Promise.allSettled([...running]);
        }
        clearTimeout(grace);
      } else {
        // As a crash: the run keeps its owner and is taken over once the lease runs out.
        if (ownBoss) await boss.stop({ graceful: false, wait: true, timeout: 1_000 });
        else for (const id of workIds) await boss.offWork({ id }).catch(() => undefined);
        ctl.abort(new Error('worker killed'));
        void inbox?.stop();
      }
    },
  };
}

function reconcileCron(hours: number): string {
  if (hours < 24) return `23 */${hours} * * *`;
  const days = Math.max(1, Math.round(hours / 24));
  return days === 1 ? '23 3 * * *' : `23 3 */${days} * *`;
}

/** At start: resume what was cut off, and catch up when the cache is empty or behind. */
async function kickOff(deps: SyncDeps, boss: PgBoss): Promise<void> {
  const { db, options } = deps;
  // Open runs without a live owner (a crash, Ctrl+C, a failure): they were wanted, so go on with them.
  const open = await db
    .select()
    .from(syncRuns)
    .where(
      and(
        isNull(syncRuns.finishedAt),
        or(
          isNull(syncRuns.owner),
          lt(syncRuns.updatedAt, sql`now() - make_interval(secs => ${options.leaseMs / 1000})`),
        ),
      ),
    );
  for (const run of open) await enqueueRun(boss, run.id);
  const [{ n }] = await db.select({ n: count() }).from(executions);
  const [recent] = await db
    .select({ id: syncRuns.id })
    .from(syncRuns)
    .where(
      and(
        eq(syncRuns.state, 'completed'),
        gt(syncRuns.finishedAt, sql`now() - make_interval(mins => ${options.pollMinutes})`),
      ),
    )
    .limit(1);
  if (n === 0 || !recent) {
    const { run } = await openRun(db, 'backfill', {
      startedBy: 'start-up',
      overlapMs: options.overlapMs,
      pageSize: options.pageSize,
    });
    await enqueueRun(boss, run.id);
  }
}

/**
 * The periodic poll: take over runs whose owner died, walk the newest pages of the list down to
 * what the cache has, fetch again the cached executions that are not finished (their callback
 * may never come), and count the executions at the service.
 */
export async function pollOnce(deps: SyncDeps, boss: PgBoss, owner: string, signal: AbortSignal): Promise<void> {
  const { db, options } = deps;
  for (const run of await listStaleRuns(db, options.leaseMs)) if (run.kind !== 'poll') await enqueueRun(boss, run.id);

  const [everCompleted] = await db
    .select({ id: syncRuns.id })
    .from(syncRuns)
    .where(eq(syncRuns.state, 'completed'))
    .limit(1);
  const [walking] = await db
    .select({ id: syncRuns.id })
    .from(syncRuns)
    .where(
      and(
        isNull(syncRuns.finishedAt),
        eq(syncRuns.state, 'running'),
        sql`${syncRuns.kind} in ('backfill', 'reconcile')`,
      ),
    )
    .limit(1);
  if (!everCompleted) {
    // Never synced: that is a backfill's job (it shows progress and resumes), not a poll's.
    const { run } = await openRun(db, 'backfill', {
      startedBy: 'poll',
      overlapMs: options.overlapMs,
      pageSize: options.pageSize,
    });
    await enqueueRun(boss, run.id);
  } else if (!walking) {
    const { run } = await openRun(db, 'poll', {
      startedBy: 'schedule',
      overlapMs: options.overlapMs,
      pageSize: options.pageSize,
    });
    await executeRun(deps, run.id, { owner, signal });
  }

  const unfinished = await db
    .select({ id: executions.id, accountId: executions.accountId })
    .from(executions)
    .where(
      and(
        isNull(executions.goneAt),
        or(
          and(lt(executions.statusRank, 3), gt(executions.createdAt, sql`now() - interval '60 days'`)),
          and(isNotNull(executions.staleSince), lt(executions.staleSince, sql`now() - interval '2 minutes'`)),
        ),
      ),
    )
    .orderBy(desc(executions.createdAt))
    .limit(options.followUpLimit);
  for (const e of unfinished)
    await enqueueFetch(boss, { executionId: e.id, accountId: e.accountId, reason: 'poll', attempt: 0 });

  const total = await countServiceExecutions(deps, signal).catch(() => null);
  if (total !== null) await saveServiceCount(db, { count: total, at: new Date().toISOString(), source: 'probe' });
}
