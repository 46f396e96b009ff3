/**
 * Seeding of the benchmarks that need a million executions (`npm run bench:list`,
 * `npm run bench:cases`): the simulator's generator, mapped by ingest's `toRows()`, written
 * straight into Postgres by worker threads (./seed-worker.ts), no HTTP.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import { Client } from 'pg';
import type { SeedJob } from './seed-worker';

const log = (s: string) => console.log(s);

export async function seed(
  url: string,
  rows: number,
  opts: { threads?: string; withJson?: boolean; withLinks?: boolean; upTo?: number; anchor?: Date; seed?: string } = {},
) {
  const c = new Client({ connectionString: url });
  await c.connect();
  // Loading into a table without its secondary indexes and building them once afterwards is
  // several times faster than maintaining 17 indexes (two of them GIN) row by row.
  const idx = await c.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where tablename = 'executions' and indexname <> 'executions_pkey'`,
  );
  for (const i of idx.rows) await c.query(`drop index ${i.indexname}`);

  const threads = Math.max(1, Math.min(4, Number(opts.threads ?? os.availableParallelism())));
  const anchor = opts.anchor ?? new Date();
  if (!opts.anchor) anchor.setUTCMinutes(0, 0, 0);
  const bar = new cliProgress.SingleBar(
    {
      format: '  seeding {bar} {percentage}% | {value}/{total} rows | {rate} rows/s | eta {eta_formatted}',
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const t0 = performance.now();
  bar.start(Math.min(rows, opts.upTo ?? rows), 0, { rate: 0 });
  let done = 0;
  const workerFile = new URL('./seed-worker.ts', import.meta.url).href;
  await Promise.all(
    Array.from({ length: threads }, (_, k) => {
      const job: SeedJob = {
        url,
        seed: opts.seed ?? 'verdict-bench',
        count: rows,
        days: 365,
        anchor: anchor.toISOString(),
        start: k,
        stride: threads,
        batch: 2000,
        withJson: Boolean(opts.withJson),
        withLinks: Boolean(opts.withLinks),
        upTo: opts.upTo,
      };
      return new Promise<void>((resolve, reject) => {
        // tsx's loader is registered inside the worker: workers do not inherit it.
        const w = new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerFile)}); })`,
          { eval: true, workerData: job },
        );
        w.on('message', (m: { done?: number; finished?: number; error?: string }) => {
          if (m.done) {
            done += m.done;
            bar.update(done, { rate: Math.round(done / ((performance.now() - t0) / 1000)) });
          }
          if (m.error) reject(new Error(m.error));
          if (m.finished !== undefined) resolve();
        });
        w.on('error', reject);
      });
    }),
  );
  bar.stop();
  const tLoad = performance.now() - t0;
  log(`  rows written in ${(tLoad / 1000).toFixed(1)} s (${threads} threads, generator + toRows + INSERT)`);
  const t1 = performance.now();
  await c.query(`set maintenance_work_mem = '512MB'`);
  for (const i of idx.rows) await c.query(i.indexdef);
  const tIdx = performance.now() - t1;
  log(`  ${idx.rows.length} indexes built in ${(tIdx / 1000).toFixed(1)} s`);
  const t2 = performance.now();
  await c.query('vacuum analyze executions');
  log(`  vacuum analyze in ${((performance.now() - t2) / 1000).toFixed(1)} s`);
  await c.end();
  return { loadMs: tLoad, indexMs: tIdx, totalMs: performance.now() - t0 };
}
