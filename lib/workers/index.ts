import 'server-only';
import type PgBoss from 'pg-boss';
import { registerAuthWorkers } from '@/lib/auth/worker';
import { registerCaseWorkers } from '@/lib/cases/worker';
import { setProcessDatabase } from '@/lib/db/client';
import type { Env } from '@/lib/env';
import { auditSigningKey } from '@/lib/evidence/signing';
import { registerEvidenceWorkers } from '@/lib/evidence/worker';
import { registerFeedbackWorkers } from '@/lib/feedback/worker';
import { registerNotificationWorkers } from '@/lib/notifications/worker';
import type { IdvClient } from '@/lib/idv/client';
import { ingestExecution } from '@/lib/sync/ingest';
import { startProcessWorker } from '@/lib/sync/process';
import type { SyncWorker } from '@/lib/sync/worker';
import { registerWatchWorker } from '@/lib/sync/watch';
import { registerWebhookWorkers, webhookOptionsFromEnv } from '@/lib/webhooks/worker';

/*
 * The one place where a process's background work is put together: `npm start`'s worker
 * (scripts/services.ts) and `npm run worker` (scripts/worker.ts) both call `startWorkers`, so the
 * two cannot drift. Every domain registers its own queues on the same pg-boss; what one domain
 * needs of another that sits above it (feedback's refresh through sync's ingest) is given here,
 * the only layer that sees them all.
 */

export interface WorkerDeps {
  env: Env;
  /** The database the queues, the sync's own pool and the process-wide `db()` use. */
  databaseUrl: string;
  /** Connections of the process-wide pool (the domains' jobs); default DB_POOL_MAX, else 10. */
  databasePoolMax?: number;
  /** DATA_DIR, resolved: the audit signing key lives there. */
  dataDir: string;
  /** The process's client of the service (one token cache and one set of limiters). */
  idv: IdvClient;
  log: (line: string) => void;
}

export interface Workers {
  boss: PgBoss;
  deps: SyncWorker['deps'];
  /** Stops taking jobs, lets running ones finish (or hands them back), then closes the sync's pool. */
  stop(): Promise<void>;
}

export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const { env, idv, log } = deps;
  // Feedback, cases and webhooks reach the database through the process-wide `db()`: it opens this one.
  setProcessDatabase(deps.databaseUrl, deps.databasePoolMax);
  // The sync worker starts the process's pg-boss; the other domains register on it.
  const sync = await startProcessWorker({ env, databaseUrl: deps.databaseUrl, idv, log: (s) => log(`sync: ${s}`) });
  await registerFeedbackWorkers(sync.boss, {
    idv: () => idv,
    refresh: (fetched) => ingestExecution(sync.deps.db, fetched),
    log: (s) => log(`feedback: ${s}`),
  });
  // Checkpoints and verification of the audit chain, signed with a key kept outside the database.
  const evidence = await registerEvidenceWorkers(sync.boss, {
    db: sync.deps.db,
    key: auditSigningKey(deps.dataDir),
    log: (s) => log(`audit: ${s}`),
  });
  // Outgoing webhooks: the outbox pump and deliveries; the minute's watch for spikes and sync incidents.
  const hooks = await registerWebhookWorkers(sync.boss, {
    ...webhookOptionsFromEnv(env),
    log: (s) => log(`webhooks: ${s}`),
  });
  await registerWatchWorker(sync.boss, { syncFailedAfterMinutes: env.SYNC_FAILED_AFTER_MINUTES });
  await registerCaseWorkers(sync.boss);
  await registerNotificationWorkers(sync.boss);
  await registerAuthWorkers(sync.boss);
  return {
    boss: sync.boss,
    deps: sync.deps,
    async stop() {
      await hooks.stop();
      await evidence.stop();
      await sync.stop();
    },
  };
}
