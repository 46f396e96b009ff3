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
import { runMigrations } from '@/lib/db/migrate';
import { isRealServiceConfigured } from '@/lib/env';
import { loadConfigOrExit, openDatabase, persistentSecret } from '@/lib/server/runtime';
import { auditSigningKey } from '@/lib/evidence/signing';
import { registerEvidenceWorkers } from '@/lib/evidence/worker';
import { registerAuthWorkers } from '@/lib/auth/worker';
import { registerCaseWorkers } from '@/lib/cases/worker';
import { registerFeedbackWorkers } from '@/lib/feedback/worker';
import { cliIdvClient, startProcessWorker } from '@/lib/sync/process';
import { registerWebhookWorkers, webhookOptionsFromEnv } from '@/lib/webhooks/worker';

const log = (s: string) => console.log(`[worker] ${s}`);

async function main() {
  const env = loadConfigOrExit();
  // Without a service address it works for `npm start`'s simulator: demo mode, as the consoles.
  process.env.VERDICT_DEMO ||= isRealServiceConfigured(env) ? '' : '1';
  const dataDir = path.resolve(env.DATA_DIR);
  const database = await openDatabase({ dataDir, own: false });
  process.env.DATABASE_URL = database.url;
  await runMigrations(database.url);
  const idv = cliIdvClient(env, dataDir);
  const worker = await startProcessWorker({ env, databaseUrl: database.url, idv, log });
  await registerFeedbackWorkers(worker.boss, { idv: () => idv, log: (s) => log(`feedback: ${s}`) });
  const evidence = await registerEvidenceWorkers(worker.boss, {
    db: worker.deps.db,
    key: auditSigningKey(dataDir),
    log: (s) => log(`audit: ${s}`),
  });
  // The same key as the consoles' (WEBHOOK_SECRET_KEY, or the one `npm start` keeps in DATA_DIR).
  process.env.WEBHOOK_SECRET_KEY ||= persistentSecret(dataDir, 'webhook-key');
  const hooks = await registerWebhookWorkers(worker.boss, {
    ...webhookOptionsFromEnv(env),
    log: (s) => log(`webhooks: ${s}`),
  });
  await registerCaseWorkers(worker.boss);
  await registerAuthWorkers(worker.boss);
  log(`Sync worker running (poll every ${env.SYNC_POLL_MINUTES} min). Press Ctrl+C to stop.`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping (no new jobs; a running backfill resumes at its next page on another worker)…`);
    let code = 0;
    try {
      await hooks.stop();
      await evidence.stop();
      await worker.stop();
      await closeDb();
    } catch (err) {
      console.error('[worker] Stop failed:', err instanceof Error ? err.message : err);
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
  console.error('[worker] Start-up failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
