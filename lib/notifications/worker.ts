import 'server-only';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { QUEUES } from '@/lib/jobs/boss';
import { sendNotificationEmail } from './email';

export interface NotificationWorkerOptions {
  /** The database the notices are read from and marked sent in (the worker runtime's). */
  db: Db;
  pollingIntervalSeconds?: number;
}

/**
 * Starts the e-mail sender on a started pg-boss (lib/workers/index.ts, which gives the database).
 * The job names a notice by its numeric id; anything else names nothing and is dropped.
 */
export async function registerNotificationWorkers(boss: PgBoss, options: NotificationWorkerOptions): Promise<string[]> {
  const { db } = options;
  return [
    await boss.work<Record<string, unknown>>(
      QUEUES.notificationEmail,
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        const id = job.data?.notificationId;
        if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) await sendNotificationEmail(db, id);
      },
    ),
  ];
}
