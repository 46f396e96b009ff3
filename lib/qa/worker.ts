import 'server-only';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { QUEUES, workById } from '@/lib/jobs/boss';
import { logError } from '@/lib/log';
import { requestQaSampling, runQaSampling } from './sample';
import { lastWeek } from './week';
import { getQaSettings } from './settings';

export interface QaWorkerOptions {
  /** The database the sampling jobs work on (given by the case workers). */
  db: Db;
  pollingIntervalSeconds?: number;
}

/**
 * The QA jobs on a started pg-boss: sampling runs, and every Monday at 03:00 UTC the sampling of
 * the week that just ended (when sampling is on). Registered with the case workers.
 */
export async function registerQaWorkers(boss: PgBoss, options: QaWorkerOptions): Promise<string[]> {
  const { db, pollingIntervalSeconds } = options;
  const ids: string[] = [];
  ids.push(
    await workById(boss, QUEUES.qaSample, 'runId', (runId) => runQaSampling(db, runId), { pollingIntervalSeconds }),
  );
  await boss.schedule(QUEUES.qaWeekly, '0 3 * * 1', {}, { tz: 'UTC' });
  ids.push(
    await boss.work(QUEUES.qaWeekly, async () => {
      try {
        if (!(await getQaSettings(db)).enabled) return;
        await requestQaSampling(db, { week: lastWeek(), trigger: 'schedule', actor: null }, boss);
      } catch (err) {
        logError('weekly QA sampling', err);
      }
    }),
  );
  return ids;
}
