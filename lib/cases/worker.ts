import 'server-only';
import type PgBoss from 'pg-boss';
import { QUEUES } from '@/lib/jobs/boss';
import { logError } from '@/lib/log';
import { releaseExpiredClaims } from './claim';
import { runRematch } from './rematch';

/**
 * Starts the case workers on a started pg-boss: re-match runs and the minute-by-minute return
 * of forgotten claims. Called by the worker runtime (scripts/services.ts, scripts/worker.ts).
 */
export async function registerCaseWorkers(
  boss: PgBoss,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<string[]> {
  const ids: string[] = [];
  ids.push(
    await boss.work<{ runId?: unknown }>(
      QUEUES.rematchCases,
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
      async ([job]) => {
        const id = typeof job.data?.runId === 'string' ? job.data.runId : '';
        if (/^[0-9a-f-]{36}$/i.test(id)) await runRematch(id);
      },
    ),
  );
  await boss.schedule(QUEUES.releaseClaims, '* * * * *');
  ids.push(
    await boss.work(QUEUES.releaseClaims, async () => {
      await releaseExpiredClaims().catch((err) => logError('case claims release', err));
    }),
  );
  return ids;
}
