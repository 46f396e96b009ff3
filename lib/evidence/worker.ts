import 'server-only';
import type PgBoss from 'pg-boss';
import type { Db } from '@/lib/db/client';
import { QUEUES } from '@/lib/jobs/boss';
import { logError } from '@/lib/log';
import { runVerification, writeCheckpoint } from './checkpoint';
import type { SigningKey } from './signing';

export interface EvidenceWorkerOptions {
  db: Db;
  key: SigningKey;
  log?: (line: string) => void;
  /** Cron of the checkpoint (default every 15 minutes) and of the full verification (hourly). */
  checkpointCron?: string;
  verifyCron?: string;
}

/**
 * The audit chain's schedule on the worker's pg-boss: a signed checkpoint of the head every
 * 15 minutes, and a full verification every hour whose result the audit page shows. pg-boss
 * runs each scheduled job once across all workers.
 */
export async function registerEvidenceWorkers(boss: PgBoss, o: EvidenceWorkerOptions): Promise<string[]> {
  const log = o.log ?? ((s: string) => console.log(`[audit] ${s}`));
  const ids = [
    await boss.work(QUEUES.auditCheckpoint, { batchSize: 1 }, async () => {
      const { checkpoint, verification } = await writeCheckpoint(o.db, o.key);
      if (!verification.ok) log(`checkpoint refused: ${verification.failure?.reason}`);
      else if (checkpoint) log(`checkpoint ${checkpoint.id} signed at position ${checkpoint.seq}`);
    }),
    await boss.work(QUEUES.auditVerify, { batchSize: 1 }, async () => {
      const r = await runVerification(o.db, o.key, 'job');
      if (!r.ok) log(`verification FAILED at position ${r.failure?.seq}: ${r.failure?.reason}`);
    }),
  ];
  await boss.schedule(QUEUES.auditCheckpoint, o.checkpointCron ?? '*/15 * * * *');
  await boss.schedule(QUEUES.auditVerify, o.verifyCron ?? '41 * * * *');
  // A first verification at start, so the page has a result before the first hour.
  await boss.send(QUEUES.auditVerify, {}).catch((err) => logError('audit verify', err));
  return ids;
}
