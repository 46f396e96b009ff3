import 'server-only';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { QUEUES } from '@/lib/jobs/boss';
import { lineLogger, logError } from '@/lib/log';
import { runVerification, writeCheckpoint } from './checkpoint';
import { sealAuditLog } from './seal';
import type { SigningKey } from './signing';

export interface EvidenceWorkerOptions {
  db: Db;
  key: SigningKey;
  log?: (line: string) => void;
  /** Cron of the checkpoint (default every 15 minutes) and of the full verification (hourly). */
  checkpointCron?: string;
  verifyCron?: string;
  /** Milliseconds between two sealing rounds (default 1,000). */
  sealEveryMs?: number;
}

/**
 * The audit chain's schedule: sealing new entries every second, and on the worker's pg-boss a
 * signed checkpoint of the head every 15 minutes and a full verification every hour whose result
 * the audit page shows. pg-boss runs each scheduled job once across all workers; its schedules
 * are per minute, so the sealing round is a timer of each worker, and a round that finds another
 * worker sealing skips (lib/evidence/seal.ts).
 */
export async function registerEvidenceWorkers(
  boss: PgBoss,
  o: EvidenceWorkerOptions,
): Promise<{ stop(): Promise<void> }> {
  const log = o.log ?? lineLogger('audit');
  let round: Promise<unknown> = Promise.resolve();
  let failing = false;
  let busy = false;
  const timer = setInterval(() => {
    // A round longer than the interval (a large backlog) is not joined by the next one.
    if (busy) return;
    busy = true;
    round = sealAuditLog(o.db, { wait: false })
      .then(
        () => {
          if (failing) log('sealing works again');
          failing = false;
        },
        (err) => {
          // Once per outage, not every second.
          if (!failing) logError('audit seal', err);
          failing = true;
        },
      )
      .finally(() => {
        busy = false;
      });
  }, o.sealEveryMs ?? 1000);
  timer.unref();
  await boss.work(QUEUES.auditCheckpoint, { batchSize: 1 }, async () => {
    const { checkpoint, verification } = await writeCheckpoint(o.db, o.key);
    if (!verification.ok) log(`checkpoint refused: ${verification.failure?.reason}`);
    else if (checkpoint) log(`checkpoint ${checkpoint.id} signed at position ${checkpoint.seq}`);
  });
  await boss.work(QUEUES.auditVerify, { batchSize: 1 }, async () => {
    const r = await runVerification(o.db, o.key, 'job');
    if (!r.ok) log(`verification FAILED at position ${r.failure?.seq}: ${r.failure?.reason}`);
  });
  await boss.schedule(QUEUES.auditCheckpoint, o.checkpointCron ?? '*/15 * * * *');
  await boss.schedule(QUEUES.auditVerify, o.verifyCron ?? '41 * * * *');
  // A first verification at start, so the page has a result before the first hour.
  await boss.send(QUEUES.auditVerify, {}).catch((err) => logError('audit verify', err));
  return {
    async stop() {
      clearInterval(timer);
      // The round under way finishes (its transaction commits or rolls back) before the pool closes.
      await round;
    },
  };
}
