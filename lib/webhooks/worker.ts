import 'server-only';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import type { Env } from '@/lib/env';
import { QUEUES } from '@/lib/jobs/boss';
import { logError } from '@/lib/log';
import { deliverWebhook, type WebhookDeliveryOptions } from './deliver';
import { pumpWebhooks } from './pump';

export interface WebhookSettings extends WebhookDeliveryOptions {
  /** Requests in flight in this process (WEBHOOK_CONCURRENCY). Default 4. */
  concurrency?: number;
  /** How often an idle delivery worker looks for jobs. Default 1 s. */
  pollingIntervalSeconds?: number;
  /** How often the outbox is pumped into the queue. Default 1 s. */
  pumpIntervalMs?: number;
}

export interface WebhookWorkerOptions extends WebhookSettings {
  /** The database the deliveries and the pump work on (the worker's, not the process-wide `db()`). */
  db: Db;
}

/** The worker's settings from the configuration (lib/env/index.ts). */
export function webhookOptionsFromEnv(
  env: Pick<Env, 'WEBHOOK_CONCURRENCY' | 'WEBHOOK_TIMEOUT_MS' | 'WEBHOOK_RETRY_HOURS'>,
): WebhookSettings {
  return {
    concurrency: env.WEBHOOK_CONCURRENCY,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    retryForMs: env.WEBHOOK_RETRY_HOURS * 3_600_000,
  };
}

export interface WebhookWorker {
  stop(): Promise<void>;
}

/**
 * Starts outgoing webhooks on a started pg-boss: `concurrency` delivery loops (one job each, so a
 * slow receiver takes one of them) and the outbox pump. The events themselves are emitted by the
 * domains that cause them (the minute's watch for spikes and sync incidents: lib/sync/watch.ts).
 * Everything runs on `options.db`; the settings come from `webhookOptionsFromEnv(env)`.
 */
export async function registerWebhookWorkers(boss: PgBoss, options: WebhookWorkerOptions): Promise<WebhookWorker> {
  const { db, ...delivery } = options;
  const ids: string[] = [];
  let inFlight = 0;
  let stopped = false;
  for (let i = 0; i < Math.max(1, options.concurrency ?? 4); i++) {
    ids.push(
      await boss.work<{ deliveryId?: unknown }>(
        QUEUES.deliverWebhook,
        { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
        async ([job]) => {
          const id = Number(job.data?.deliveryId);
          if (!Number.isSafeInteger(id) || id <= 0) return;
          // pg-boss can hand over a job it fetched just as offWork ran; a stopped worker gives it back
          // (a failure pg-boss retries in 5 s, on whichever worker is running) instead of sending late.
          if (stopped) throw new Error('webhook worker stopped before this delivery started');
          inFlight++;
          try {
            await deliverWebhook(db, boss, id, delivery);
          } finally {
            inFlight--;
          }
        },
      ),
    );
  }
  let running = false;
  const pump = async () => {
    if (running || stopped) return;
    running = true;
    try {
      await pumpWebhooks(db, boss);
    } catch (err) {
      logError('webhook pump', err);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void pump(), options.pumpIntervalMs ?? 1_000);
  await pump();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const id of ids) await boss.offWork({ id }).catch(() => undefined);
      // offWork does not wait for running handlers: a stopped worker has no request in flight.
      while (running || inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    },
  };
}
