import type { Env } from '@/lib/env';

/** The vendor's recommended schedule for pulling a result that is not ready yet (service-facts, "Callback"). */
export const SERVICE_RETRY_SCHEDULE_SEC = [40, 60, 100, 160, 240, 340, 460, 600, 760, 940];

/** Everything the sync's timing depends on. Tests shrink the delays; production takes the defaults. */
export interface SyncOptions {
  /** Delays (s) between fetches of a result that is not ready, or 404 right after its callback; its length is the number of tries. */
  retryScheduleSec: number[];
  /** Fetch jobs one worker runs at once. */
  fetchConcurrency: number;
  /** R7/R8 requests in flight during a backfill page. */
  detailConcurrency: number;
  /** R12 page size (the service allows 1..100). */
  pageSize: number;
  /** Pages a full walk fetches ahead of the one it writes. */
  prefetchPages: number;
  /** A run whose owner has not renewed its lease within this is taken over (the owner died). */
  leaseMs: number;
  /** Waits before a page of a run is tried again after the service or the database failed. */
  runRetryDelaysMs: number[];
  /** An incremental run stops this far below the newest execution of the last completed run (clock skew, equal timestamps). */
  overlapMs: number;
  /** How often workers look for new jobs. */
  pollingIntervalSec: number;
  /** Minutes between polls of R12; hours between reconciliations (0 = never on a schedule). */
  pollMinutes: number;
  reconcileHours: number;
  /** Timeout of the status check (R5) a callback for an unknown execution triggers. */
  verifyTimeoutMs: number;
  /** Largest callback body accepted (the real one is well under 1 KB). */
  callbackMaxBytes: number;
  /** Cached executions not in a terminal state that one poll re-fetches at most. */
  followUpLimit: number;
}

export const DEFAULT_SYNC_OPTIONS: SyncOptions = {
  retryScheduleSec: SERVICE_RETRY_SCHEDULE_SEC,
  fetchConcurrency: 8,
  detailConcurrency: 16,
  pageSize: 100,
  prefetchPages: 3,
  leaseMs: 60_000,
  runRetryDelaysMs: [1_000, 2_000, 5_000, 10_000, 30_000, 60_000],
  overlapMs: 10 * 60_000,
  pollingIntervalSec: 1,
  pollMinutes: 5,
  reconcileHours: 24,
  verifyTimeoutMs: 2_500,
  callbackMaxBytes: 64 * 1024,
  followUpLimit: 200,
};

export function syncOptionsFromEnv(
  env: Pick<Env, 'SYNC_POLL_MINUTES' | 'SYNC_RECONCILE_HOURS' | 'SYNC_CONCURRENCY' | 'SYNC_RETRY_SCHEDULE'>,
  over: Partial<SyncOptions> = {},
): SyncOptions {
  return {
    ...DEFAULT_SYNC_OPTIONS,
    retryScheduleSec: env.SYNC_RETRY_SCHEDULE,
    fetchConcurrency: env.SYNC_CONCURRENCY,
    pollMinutes: env.SYNC_POLL_MINUTES,
    reconcileHours: env.SYNC_RECONCILE_HOURS,
    ...over,
  };
}
