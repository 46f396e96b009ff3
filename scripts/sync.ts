/**
 * `npm run sync -- backfill | reconcile | status`
 *
 * backfill   pages through the service's list (R12) until it meets what the cache already has
 *            (all of it the first time), with a progress bar. Ctrl+C stops at a page boundary;
 *            running it again resumes at the next page, without duplicates.
 * reconcile  walks the whole list, then checks every cached execution the walk did not see and
 *            prints executions at the service against executions cached.
 * status     the last runs, the counts, the queue and the open failures.
 *
 * When the worker already runs the same walk, this follows its progress instead of starting a
 * second one.
 */
import path from 'node:path';
import cliProgress from 'cli-progress';
import { count, eq, isNull } from 'drizzle-orm';
import { createDb, type Db } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { executions, settings, syncFailures, syncRuns } from '@/lib/db/schema';
import type { Env } from '@/lib/env';
import { formatDateTime, formatNumber } from '@/lib/format';
import { loadConfigOrExit, openDatabase } from '@/lib/server/runtime';
import { syncOptionsFromEnv } from '@/lib/sync/config';
import { queueDepth } from '@/lib/sync/jobs';
import { cliIdvClient } from '@/lib/sync/process';
import {
  executeRun,
  listRuns,
  openRun,
  SERVICE_COUNT_KEY,
  workerOwnerId,
  type RunKind,
  type ServiceCount,
  type SyncRun,
} from '@/lib/sync/runs';

const USAGE = 'Usage: npm run sync -- backfill | reconcile | status';

async function main() {
  const cmd = process.argv[2];
  if (!cmd || !['backfill', 'reconcile', 'status'].includes(cmd)) {
    console.error(USAGE);
    process.exit(cmd === '--help' || cmd === '-h' ? 0 : 2);
  }
  const env = loadConfigOrExit();
  const dataDir = path.resolve(env.DATA_DIR);
  const database = await openDatabase({ dataDir, own: false });
  await runMigrations(database.url);
  const db = createDb(database.url, 3);
  try {
    if (cmd === 'status') await status(db);
    else process.exitCode = await walk(db, cmd as RunKind, env, dataDir);
  } finally {
    await db.$client.end().catch(() => undefined);
  }
}

async function walk(db: Db, kind: RunKind, env: Env, dataDir: string): Promise<number> {
  const options = syncOptionsFromEnv(env);
  const idv = cliIdvClient(env, dataDir);
  const { run, created } = await openRun(db, kind, {
    startedBy: 'cli',
    overlapMs: options.overlapMs,
    pageSize: options.pageSize,
  });
  if (!created)
    console.log(
      `Resuming the ${kind} started ${formatDateTime(run.startedAt)} at page ${run.nextPage} (${formatNumber(run.seen)} executions listed so far).`,
    );
  else if (run.stopBefore)
    console.log(
      `Listing new executions down to ${formatDateTime(run.stopBefore)}, where the cache already has everything.`,
    );
  else
    console.log(
      `Listing every execution at the service${kind === 'reconcile' ? ', then comparing with the cache' : ''}.`,
    );

  // A full walk knows its length (the service is counted first); an incremental one does not.
  const full = run.stopBefore === null;
  const bar = new cliProgress.SingleBar(
    {
      format: full
        ? ' {bar} {percentage}% | {value}/{total} executions | page {page} | {speed}/s | ETA {eta_formatted}'
        : ' {value} executions listed | page {page} | {speed}/s',
      barCompleteChar: '█',
      barIncompleteChar: '░',
      hideCursor: true,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  const started = Date.now();
  const startSeen = run.seen;
  const show = (r: SyncRun) => {
    const total = Math.max(r.totalEstimate ?? 0, r.seen, 1);
    const speed = Math.round(((r.seen - startSeen) / Math.max(1, Date.now() - started)) * 1000);
    bar.setTotal(total);
    bar.update(Math.min(r.seen, total), { page: r.nextPage - 1, speed });
  };
  bar.start(Math.max(run.totalEstimate ?? 0, 1), run.seen, { page: run.nextPage - 1, speed: 0 });

  const ctl = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    ctl.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSigint);
  try {
    let ended = await executeRun({ db, idv, options, log: () => undefined }, run.id, {
      owner: workerOwnerId('cli'),
      signal: ctl.signal,
      onProgress: show,
    });
    if (ended === null) {
      bar.stop();
      console.log(
        `The worker is running this ${kind}; following its progress (Ctrl+C stops following, not the ${kind}).`,
      );
      bar.start(Math.max(run.totalEstimate ?? 0, 1), run.seen, { page: run.nextPage - 1, speed: 0 });
      ended = await follow(db, run.id, ctl.signal, show);
    }
    bar.stop();
    return report(db, kind, ended);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function follow(db: Db, runId: number, signal: AbortSignal, show: (r: SyncRun) => void): Promise<SyncRun> {
  for (;;) {
    const [r] = await db.select().from(syncRuns).where(eq(syncRuns.id, runId));
    show(r);
    if (r.finishedAt || r.state === 'failed' || r.state === 'interrupted' || signal.aborted) return r;
    await new Promise((res) => setTimeout(res, 1000));
  }
}

async function report(db: Db, kind: RunKind, run: SyncRun): Promise<number> {
  const c = (run.details?.counters ?? {}) as Record<string, number>;
  if (run.state === 'completed') {
    console.log(
      `Done: ${formatNumber(run.seen)} executions listed, ${formatNumber(c.inserted ?? 0)} new, ${formatNumber(c.updated ?? 0)} updated, ${formatNumber(c.unchanged ?? 0)} unchanged.`,
    );
    if (run.serviceTotal !== null) {
      console.log(
        `At the service: ${formatNumber(run.serviceTotal)}. Cached: ${formatNumber(run.cacheTotal)}.${run.details?.gone ? ` Deleted at the service since: ${run.details.gone}.` : ''}`,
      );
    }
    return 0;
  }
  if (run.state === 'interrupted' || !run.finishedAt) {
    console.log(
      `Stopped at page ${run.nextPage} (${formatNumber(run.seen)} executions listed). Run \`npm run sync -- ${kind}\` again to resume there.`,
    );
    return 130;
  }
  console.error(`The ${kind} failed: ${run.error}. Run it again to resume at page ${run.nextPage}.`);
  return 1;
}

async function status(db: Db) {
  const [cached] = await db.select({ n: count() }).from(executions).where(isNull(executions.goneAt));
  const [svc] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, SERVICE_COUNT_KEY));
  const service = svc?.value as ServiceCount | undefined;
  const [failures] = await db.select({ n: count() }).from(syncFailures).where(isNull(syncFailures.resolvedAt));
  console.log(`Cached executions:  ${formatNumber(cached.n)}`);
  console.log(
    `At the service:     ${service ? `${formatNumber(service.count)} (${service.source === 'walk' ? 'counted by a full walk' : 'estimated'} ${formatDateTime(service.at)})` : 'not counted yet'}`,
  );
  console.log(`Open failures:      ${formatNumber(failures.n)}`);
  const depth = await queueDepth(db);
  console.log(
    `Queue:              ${depth.length ? depth.map((d) => `${d.name} ${d.state} ${d.count}`).join(', ') : 'empty'}`,
  );
  console.log('\nRecent runs:');
  for (const r of await listRuns(db, 8)) {
    console.log(
      `  #${r.id} ${r.kind.padEnd(9)} ${r.state.padEnd(11)} ${formatDateTime(r.startedAt)}  ${formatNumber(r.seen)} listed, ${formatNumber(r.written)} written${r.error ? `  error: ${r.error}` : ''}`,
    );
  }
}

main().catch((err) => {
  console.error('[sync]', err instanceof Error ? err.message : err);
  process.exit(1);
});
