import 'server-only';
import type PgBoss from 'pg-boss';
import { QUEUES } from '@/lib/jobs/boss';
import { sendNotificationEmail } from './email';

/**
 * Starts the e-mail sender on a started pg-boss (scripts/services.ts, scripts/worker.ts). The job
 * names a notice by its numeric id; anything else names nothing and is dropped.
 */
export async function registerNotificationWorkers(
  boss: PgBoss,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<string[]> {
  return [
    await boss.work<Record<string, unknown>>(
      QUEUES.notificationEmail,
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        const id = job.data?.notificationId;
        if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) await sendNotificationEmail(id);
      },
    ),
  ];
}
