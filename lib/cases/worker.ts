import 'server-only';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { QUEUES, workById } from '@/lib/jobs/boss';
import { logError } from '@/lib/log';
import { releaseExpiredQaClaims } from '@/lib/cases/qa-review';
import { registerQaWorkers } from '@/lib/qa/worker';
import { releaseExpiredClaims } from './claim';
import { runRematch } from './rematch';
import { sendCaseReminders } from './reminders';

export interface CaseWorkerOptions {
  /** The database every case and QA job works on (the worker runtime's, not the process-wide `db()`). */
  db: Db;
  pollingIntervalSeconds?: number;
}

/**
 * Starts the case workers on a started pg-boss: re-match runs, the minute-by-minute return
 * of forgotten claims (case and QA), the reminders of lapsing claims and near SLAs, and the QA sampling jobs. Called by the worker runtime (lib/workers/index.ts), which gives the database.
 */
export async function registerCaseWorkers(boss: PgBoss, options: CaseWorkerOptions): Promise<string[]> {
  const { db, pollingIntervalSeconds } = options;
  const ids: string[] = [];
  ids.push(
    await workById(boss, QUEUES.rematchCases, 'runId', (runId) => runRematch(db, runId), { pollingIntervalSeconds }),
  );
  await boss.schedule(QUEUES.releaseClaims, '* * * * *');
  ids.push(
    await boss.work(QUEUES.releaseClaims, async () => {
      await releaseExpiredClaims(db).catch((err) => logError('case claims release', err));
      await releaseExpiredQaClaims(db).catch((err) => logError('QA claims release', err));
    }),
  );
  await boss.schedule(QUEUES.caseReminders, '* * * * *');
  ids.push(
    await boss.work(QUEUES.caseReminders, async () => {
      await sendCaseReminders(db).catch((err) => logError('case reminders', err));
    }),
  );
  ids.push(...(await registerQaWorkers(boss, { db, pollingIntervalSeconds })));
  return ids;
}
