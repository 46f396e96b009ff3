import 'server-only';
/**
 * Building the sync's parts for a process from its configuration: used by `npm start`
 * (scripts/services.ts), `npm run worker` and `npm run sync`.
 */
import type PgBoss from 'pg-boss';
import { createDb } from '@/lib/db/client';
import { isRealServiceConfigured, type Env } from '@/lib/env';
import { IdvClient } from '@/lib/idv/client';
import { processLimitDeps } from '@/lib/server/idv-client';
import { idvConfigFromEnv } from '@/lib/idv/config';
import { simulatorEnv } from '@/lib/server/service-address';
import { syncOptionsFromEnv } from './config';
import { startWorker, type SyncWorker } from './worker';

/**
 * The service client of a command-line process: the configured service, or `npm start`'s
 * simulator. Its limits are shared through `databaseUrl` (default: the process's `db()`).
 */
export function cliIdvClient(env: Env, dataDir: string, databaseUrl?: string): IdvClient {
  const source = { ...process.env };
  if (!isRealServiceConfigured(env)) {
    const sim = simulatorEnv(dataDir);
    if (!sim.IDV_BASE_URL) {
      throw new Error(
        'No service configured (IDV_BASE_URL ...) and no built-in simulator running: start Verdict with `npm start` first, or set the IDV_* variables.',
      );
    }
    Object.assign(source, sim);
  }
  // The customer's rate limits are held in the database for all processes together.
  return new IdvClient(idvConfigFromEnv(source), processLimitDeps(console.warn, databaseUrl));
}

/**
 * The sync of a process on the process's pg-boss (lib/workers owns and stops it), with a small
 * pool of its own: the embedded database runs one statement at a time for all processes.
 */
export async function startProcessWorker(opts: {
  env: Env;
  databaseUrl: string;
  boss: PgBoss;
  idv: IdvClient;
  log: (line: string) => void;
}): Promise<SyncWorker> {
  const db = createDb(opts.databaseUrl, 4);
  const worker = await startWorker({
    db,
    boss: opts.boss,
    idv: opts.idv,
    options: syncOptionsFromEnv(opts.env),
    retentionFallbackDays: opts.env.RETENTION_DAYS,
    graceMs: opts.env.SHUTDOWN_GRACE_MS,
    log: opts.log,
  });
  return {
    ...worker,
    async stop(o) {
      await worker.stop(o);
      await db.$client.end().catch(() => undefined);
    },
  };
}
