import 'server-only';
import type PgBoss from 'pg-boss';
import { QUEUES, workById } from '@/lib/jobs/boss';
import { logError } from '@/lib/log';
import { releaseExpiredQaClaims } from '@/lib/cases/qa-review';
import { registerQaWorkers } from '@/lib/qa/worker';
import { releaseExpiredClaims } from './claim';
import { runRematch } from './rematch';
import { sendCaseReminders } from './reminders';

/**
 * Starts the case workers on a started pg-boss: re-match runs, the minute-by-minute return
 * of forgotten claims (case and QA), the reminders of lapsing claims and near SLAs, and the QA sampling jobs. Called by the worker runtime (scripts/services.ts, scripts/worker.ts).
 */
export async function registerCaseWorkers(
  boss: PgBoss,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<string[]> {
  const ids: string[] = [];
  ids.push(await workById(boss, QUEUES.rematchCases, 'runId', runRematch, options));
  await boss.schedule(QUEUES.releaseClaims, '* * * * *');
  ids.push(
    await boss.work(QUEUES.releaseClaims, async () => {
      await releaseExpiredClaims().catch((err) => logError('case claims release', err));
      await releaseExpiredQaClaims().catch((err) => logError('QA claims release', err));
    }),
  );
  await boss.schedule(QUEUES.caseReminders, '* * * * *');
  ids.push(
    await boss.work(QUEUES.caseReminders, async () => {
      await sendCaseReminders().catch((err) => logError('case reminders', err));
    }),
  );
  ids.push(...(await registerQaWorkers(boss, options)));
  return ids;
}
