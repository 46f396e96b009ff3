import 'server-only';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { QUEUES } from '@/lib/jobs/boss';
import { logError } from '@/lib/log';
import { flushDeniedCalls } from './denied-calls';

/**
 * Starts the access workers on a started pg-boss: every minute, the refused calls of unknown
 * callers counted in the minute before become one audit entry per address (./denied-calls.ts).
 * Called by the worker runtime (lib/workers/index.ts), with the database the flush writes to.
 */
export async function registerAuthWorkers(boss: PgBoss, options: { db: Db }): Promise<string[]> {
  await boss.schedule(QUEUES.flushDeniedCalls, '* * * * *');
  return [
    await boss.work(QUEUES.flushDeniedCalls, async () => {
      await flushDeniedCalls(options.db).catch((err) => logError('denied calls flush', err));
    }),
  ];
}
