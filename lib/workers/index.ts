import 'server-only';
import type PgBoss from 'pg-boss';
import { registerAuthWorkers } from '@/lib/auth/worker';
import { registerCaseWorkers } from '@/lib/cases/worker';
import { db as processDb, setProcessDatabase } from '@/lib/db/client';
import type { Env } from '@/lib/env';
import { createBoss, setBoss } from '@/lib/jobs/boss';
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
 * two cannot drift. It owns the process's pg-boss and gives every domain what its jobs use, as
 * explicit deps: the database, the service's client, a log line. Domains register their own queues
 * on that pg-boss; what one domain needs of another that sits above it (feedback's refresh through
 * sync's ingest) is given here, the only layer that sees them all.
 */

export interface WorkerDeps {
  env: Env;
  /** The database of the queues, the sync's own pool and the domains' jobs (the process-wide pool). */
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
  /** Stops taking jobs, lets running ones finish (or hands them back), then stops the pg-boss and the sync's pool. */
  stop(): Promise<void>;
}

export async function startWorkers(deps: WorkerDeps): Promise<Workers> {
  const { env, idv, log } = deps;
  // The domains' jobs are given the process-wide pool (what the process's requests also use);
  // the sync keeps a small pool of its own.
  setProcessDatabase(deps.databaseUrl, deps.databasePoolMax);
  const db = processDb();
  // The process's pg-boss: every domain registers its queues on it, and it stops last, once each
  // domain has stopped taking work. Sends elsewhere in the process (getBoss) use it too.
  const boss = await createBoss({
    url: deps.databaseUrl,
    worker: true,
    max: 3,
    onError: (err) => log(`queue: ${err.message}`),
  });
  setBoss(boss);
  const sync = await startProcessWorker({
    env,
    databaseUrl: deps.databaseUrl,
    boss,
    idv,
    log: (s) => log(`sync: ${s}`),
  });
  await registerFeedbackWorkers(boss, {
    db,
    idv: () => idv,
    refresh: (fetched) => ingestExecution(sync.deps.db, fetched),
    log: (s) => log(`feedback: ${s}`),
  });
  // Checkpoints and verification of the audit chain, signed with a key kept outside the database.
  const evidence = await registerEvidenceWorkers(boss, {
    db: sync.deps.db,
    key: auditSigningKey(deps.dataDir),
    log: (s) => log(`audit: ${s}`),
  });
  // Outgoing webhooks: the outbox pump and deliveries; the minute's watch for spikes and sync incidents.
  const hooks = await registerWebhookWorkers(boss, {
    db,
    ...webhookOptionsFromEnv(env),
    log: (s) => log(`webhooks: ${s}`),
  });
  await registerWatchWorker(boss, { db, syncFailedAfterMinutes: env.SYNC_FAILED_AFTER_MINUTES });
  await registerCaseWorkers(boss, { db });
  await registerNotificationWorkers(boss, { db });
  await registerAuthWorkers(boss, { db });
  return {
    boss,
    deps: sync.deps,
    async stop() {
      await hooks.stop();
      await evidence.stop();
      await sync.stop();
      // The other domains' running jobs finish (or fail, to be retried) within pg-boss's timeout.
      await boss.stop({ graceful: true, wait: true, timeout: env.SHUTDOWN_GRACE_MS + 2_000 });
      setBoss(undefined);
    },
  };
}
