import 'server-only';
import type PgBoss from 'pg-boss';
import { QUEUES } from '@/lib/jobs/boss';
import { logError } from '@/lib/log';
import { flushDeniedCalls } from './denied-calls';

/**
 * Starts the access workers on a started pg-boss: every minute, the refused calls of unknown
 * callers counted in the minute before become one audit entry per address (./denied-calls.ts).
 * Called by the worker runtime (scripts/services.ts, scripts/worker.ts).
 */
export async function registerAuthWorkers(boss: PgBoss): Promise<string[]> {
  await boss.schedule(QUEUES.flushDeniedCalls, '* * * * *');
  return [
    await boss.work(QUEUES.flushDeniedCalls, async () => {
      await flushDeniedCalls().catch((err) => logError('denied calls flush', err));
    }),
  ];
}
