import 'server-only';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { ensureQueue, QUEUES, workById } from '@/lib/jobs/boss';
import { deliverFeedback, rescueStuckFeedback, type DeliveryOptions } from './deliver';
import { logError } from '@/lib/log';
import { metrics } from '@/lib/telemetry/metrics';

/** Runs the stall rescue every minute (pg-boss cron; one run per minute across all workers). */
export const FEEDBACK_RESCUE_QUEUE = 'feedback.rescue';

export interface FeedbackWorkerOptions extends DeliveryOptions {
  /** The database every job of these workers reads and writes (the worker process's own, not `db()`). */
  db: Db;
  /** Deliveries in parallel in this process. Default 2. */
  concurrency?: number;
  /** How often an idle worker looks for jobs. Default 1 s, so "pending" turns "delivered" quickly. */
  pollingIntervalSeconds?: number;
}

/**
 * Starts the feedback workers on a started pg-boss: the delivery of each submission and the
 * minute-by-minute rescue of stalled ones. Called by the worker runtime (scripts/services.ts,
 * scripts/worker.ts). Returns the worker ids (for boss.offWork).
 */
export async function registerFeedbackWorkers(boss: PgBoss, options: FeedbackWorkerOptions): Promise<string[]> {
  const { db } = options;
  const ids: string[] = [];
  for (let i = 0; i < Math.max(1, options.concurrency ?? 2); i++) {
    ids.push(
      await workById(
        boss,
        QUEUES.deliverFeedback,
        'feedbackId',
        async (id) => metrics().feedbackDeliveries.inc({ outcome: await deliverFeedback(db, id, options) }),
        options,
      ),
    );
  }
  await ensureQueue(boss, FEEDBACK_RESCUE_QUEUE);
  await boss.schedule(FEEDBACK_RESCUE_QUEUE, '* * * * *');
  ids.push(await boss.work(FEEDBACK_RESCUE_QUEUE, async () => void (await rescueStuckFeedback(db, options))));
  // Whatever stalled while no worker ran is picked up now, not a minute later.
  await rescueStuckFeedback(db, options).catch((err) => logError('feedback rescue', err));
  return ids;
}
