/**
 * The background parts that `npm start` runs beside the console: the built-in simulator (when
 * no real service is configured) and the sync worker.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from '@/lib/env';
import { IdvClient } from '@/lib/idv/client';
import { processLimitDeps } from '@/lib/server/idv-client';
import { idvConfigFromEnv } from '@/lib/idv/config';
import { removeSimulatorAddress, writeSimulatorAddress } from '@/lib/server/service-address';
import { runDemoCaptures, startSimulator, type RunningSimulator } from '@/lib/simulator';
import { startWorkers } from '@/lib/workers';

export interface Services {
  env: Record<string, string>;
  stop(): Promise<void>;
  onConsoleReady?(): void;
}

/**
 * The demo data ends at the moment of the first start and stays put afterwards, so that a
 * restart shows the same executions at the same times (new journeys arrive on top).
 */
function demoAnchor(dataDir: string): Date {
  const file = path.join(dataDir, 'sim-anchor');
  const stored = fs.existsSync(file) ? new Date(fs.readFileSync(file, 'utf8').trim()) : null;
  if (stored && !Number.isNaN(stored.getTime())) return stored;
  const now = new Date();
  fs.writeFileSync(file, now.toISOString());
  return now;
}

async function startDemoSimulator(opts: {
  env: Env;
  callbackUrl: string;
  log: (s: string) => void;
}): Promise<RunningSimulator> {
  const common = {
    seed: opts.env.SIM_SEED,
    executions: opts.env.SIM_EXECUTIONS,
    anchor: demoAnchor(path.resolve(opts.env.DATA_DIR)),
    callbackUrl: opts.callbackUrl,
  };
  try {
    return await startSimulator({ ...common, port: opts.env.SIM_PORT });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    opts.log(`Port ${opts.env.SIM_PORT} is taken; the built-in simulator uses a free port instead.`);
    return startSimulator({ ...common, port: 0 });
  }
}

/**
 * Once per data folder, when the console answers (so their callbacks land at once): a journey
 * through the web capture page and one through the SDK, so the demo shows executions of both
 * capture clients. The cache keeps them across restarts; the simulator does not.
 */
async function runDemoCapturesOnce(sim: RunningSimulator, dataDir: string, log: (s: string) => void) {
  const marker = path.join(dataDir, 'demo-captures');
  if (fs.existsSync(marker)) return;
  try {
    const ids = await runDemoCaptures(sim.url, sim.clientId, sim.clientSecret);
    fs.writeFileSync(marker, ids.join('\n'));
    log(`Demo journeys through the web capture page and the SDK: ${ids.join(', ')}`);
  } catch (err) {
    log(`The demo web and SDK journeys failed: ${err instanceof Error ? err.message : err}`);
  }
}

export async function startServices(opts: {
  env: Env;
  demo: boolean;
  databaseUrl: string;
  callbackUrl: string;
  log: (s: string) => void;
}): Promise<Services> {
  const env: Record<string, string> = {};
  const stops: Array<() => Promise<void>> = [];
  let onConsoleReady: (() => void) | undefined;
  if (opts.demo) {
    opts.log('Starting the built-in simulator of the verification service…');
    const sim = await startDemoSimulator(opts);
    onConsoleReady = () => void runDemoCapturesOnce(sim, path.resolve(opts.env.DATA_DIR), opts.log);
    Object.assign(env, { IDV_BASE_URL: sim.url, IDV_CLIENT_ID: sim.clientId, IDV_CLIENT_SECRET: sim.clientSecret });
    Object.assign(process.env, env);
    stops.push(() => sim.close());
    // `npm run sync` and `npm run worker` find the simulator here.
    const dataDir = path.resolve(opts.env.DATA_DIR);
    writeSimulatorAddress(dataDir, { url: sim.url, clientId: sim.clientId, clientSecret: sim.clientSecret });
    stops.push(async () => removeSimulatorAddress(dataDir));
  }
  if (opts.env.WORKER) {
    // The sync worker: callbacks' fetches, the start-up backfill, polls, reconciliation, retention.
    // The customer's rate limits are held in the database for all processes together.
    const idv = new IdvClient(idvConfigFromEnv(process.env), processLimitDeps(console.warn, opts.databaseUrl));
    const workers = await startWorkers({
      env: opts.env,
      databaseUrl: opts.databaseUrl,
      // Feedback delivery and the other domains' jobs use the process-wide pool beside the sync's own.
      databasePoolMax: Number(process.env.DB_POOL_MAX || 4),
      dataDir: path.resolve(opts.env.DATA_DIR),
      idv,
      log: opts.log,
    });
    stops.push(() => workers.stop());
  } else {
    opts.log('WORKER=off: the sync runs in `npm run worker` (callbacks are queued until one runs).');
  }
  return {
    env,
    onConsoleReady,
    async stop() {
      for (const stop of stops.reverse()) await stop().catch((e) => console.error(e));
    },
  };
}
