/**
 * `npm run worker`: the sync worker on its own, for deployments with several console instances
 * (run the consoles with WORKER=off and one or more of these; pg-boss hands each job to one).
 */
import path from 'node:path';
import { runMigrations } from '@/lib/db/migrate';
import { loadConfigOrExit, openDatabase } from '@/lib/server/runtime';
import { registerCaseWorkers } from '@/lib/cases/worker';
import { registerFeedbackWorkers } from '@/lib/feedback/worker';
import { cliIdvClient, startProcessWorker } from '@/lib/sync/process';

const log = (s: string) => console.log(`[worker] ${s}`);

async function main() {
  const env = loadConfigOrExit();
  const dataDir = path.resolve(env.DATA_DIR);
  const database = await openDatabase({ dataDir, own: false });
  process.env.DATABASE_URL = database.url;
  await runMigrations(database.url);
  const idv = cliIdvClient(env, dataDir);
  const worker = await startProcessWorker({ env, databaseUrl: database.url, idv, log });
  await registerFeedbackWorkers(worker.boss, { idv: () => idv, log: (s) => log(`feedback: ${s}`) });
  await registerCaseWorkers(worker.boss);
  log(`Sync worker running (poll every ${env.SYNC_POLL_MINUTES} min). Press Ctrl+C to stop.`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    log('Stopping (a running backfill resumes at its next page later)…');
    await worker.stop().catch((e) => console.error(e));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err) => {
  console.error('[worker] Start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
