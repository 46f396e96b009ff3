/**
 * `npm run worker`: the sync worker on its own, for deployments with several console instances
 * (run the consoles with WORKER=off and one or more of these; pg-boss hands each job to one).
 *
 * SIGTERM or SIGINT stops it gracefully and it exits 0: it takes no new jobs, a running backfill
 * ends at a page boundary and is queued again for another worker, running fetches and
 * deliveries finish (or are released to the queue after the grace time), then the pools close.
 */
import path from 'node:path';
import { closeDb } from '@/lib/db/client';
import { lineLogger, log as logger, startProcessLog } from '@/lib/log';
import { runMigrations } from '@/lib/db/migrate';
import { isRealServiceConfigured } from '@/lib/env';
import { loadConfigOrExit, openDatabase, persistentSecret } from '@/lib/server/runtime';
import { cliIdvClient } from '@/lib/sync/process';
import { startWorkers } from '@/lib/workers';
import { startMetricsListener } from '@/lib/server/metrics-listener';
import { startTracing, stopTracing } from '@/lib/telemetry/tracing';

const log = lineLogger('worker');

async function main() {
  startProcessLog('worker');
  const env = loadConfigOrExit();
  await startTracing('verdict-worker');
  // Without a service address it works for `npm start`'s simulator: demo mode, as the consoles.
  process.env.VERDICT_DEMO ||= isRealServiceConfigured(env) ? '' : '1';
  const dataDir = path.resolve(env.DATA_DIR);
  const database = await openDatabase({ dataDir, own: false });
  await runMigrations(database.url);
  // The address goes where it is used (the client's shared limits, startWorkers), not into process.env.
  const idv = cliIdvClient(env, dataDir, database.url);
  // The same key as the consoles' (WEBHOOK_SECRET_KEY, or the one `npm start` keeps in DATA_DIR).
  process.env.WEBHOOK_SECRET_KEY ||= persistentSecret(dataDir, 'webhook-key');
  // Ring link keys are hashed with the consoles' key too (lib/rings/link-keys.ts).
  process.env.LINK_KEY_SECRET ||= persistentSecret(dataDir, 'link-key');
  const workers = await startWorkers({ env, databaseUrl: database.url, dataDir, idv, log });
  const metricsListener = await startMetricsListener();
  log(`Sync worker running (poll every ${env.SYNC_POLL_MINUTES} min). Press Ctrl+C to stop.`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping (no new jobs; a running backfill resumes at its next page on another worker)…`);
    let code = 0;
    try {
      await workers.stop();
      await metricsListener?.close();
      await closeDb();
      await stopTracing();
    } catch (err) {
      logger.error({ error: err instanceof Error ? err.constructor.name : typeof err }, 'worker stop failed');
      code = 1;
    }
    const sent = Object.entries(idv.limiters)
      .map(([concern, l]) => `${concern} ${l.granted}`)
      .join(', ');
    log(`Stopped. Requests to the service: ${sent}; token requests ${idv.tokens.tokenRequests}.`);
    process.exit(code);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  logger.fatal({ error: err instanceof Error ? err.message : String(err) }, 'worker start-up failed');
  process.exit(1);
});
