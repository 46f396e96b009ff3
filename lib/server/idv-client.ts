import 'server-only';
import { databaseUrl, db } from '@/lib/db/client';
import { IdvClient, type IdvClientDeps } from '@/lib/idv/client';
import { idvConfigFromEnv } from '@/lib/idv/config';
import { postgresSlotStore } from '@/lib/idv/shared-rate-limit';

/*
 * The process's client of the service. lib/idv knows nothing of the database: the store that
 * holds every console's and worker's calls to the customer's limits together is given to it
 * here, where a process is put together.
 */

const SINGLETON = Symbol.for('verdict.idv.client');
type GlobalWithClient = typeof globalThis & { [SINGLETON]?: IdvClient };

/**
 * The process-wide client, created from the environment on first use. Kept on `globalThis` so
 * Next's dev reloads share one token cache and one set of rate limiters.
 */
export function getIdvClient(): IdvClient {
  const g = globalThis as GlobalWithClient;
  g[SINGLETON] ??= new IdvClient(idvConfigFromEnv(), processLimitDeps());
  return g[SINGLETON];
}

let sharedLimitWarned = false;

/**
 * The deps that hold a process's client to the customer's limits together with every other
 * console and worker: the shared limits in the process's database (`url`, by default the one
 * `db()` opens). A worker passes the address it resolved at start-up, before its `startWorkers`
 * points `db()` at the same one.
 */
export function processLimitDeps(
  log: (line: string) => void = console.warn,
  url: string | undefined = databaseUrl(),
): IdvClientDeps {
  if (!url) return {};
  return {
    sharedLimits: postgresSlotStore(() => db().$client),
    onSharedLimitError: (err) => {
      if (sharedLimitWarned) return;
      sharedLimitWarned = true;
      log(
        `[idv] shared rate limits unreachable, using this process's own until the database answers (${err instanceof Error ? err.message : err})`,
      );
    },
  };
}

/** Replaces (or with no argument, forgets) the process-wide client; for tests of code that calls `getIdvClient()`. */
export function setIdvClient(client?: IdvClient): void {
  (globalThis as GlobalWithClient)[SINGLETON] = client;
}
