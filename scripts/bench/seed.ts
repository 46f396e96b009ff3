/**
 * Seeding of the benchmarks that need a million executions or more, no HTTP:
 * - `seed()`: the simulator's generator, mapped by ingest's `toRows()`, written by worker threads
 *   with multi-row INSERTs (./seed-worker.ts); every execution generated (`npm run bench:list`,
 *   `bench:cases`, `bench:rings`, which also writes the ring link keys);
 * - `seedByCopy()`: a pool of generated executions varied per row and written with COPY
 *   (./seed-copy-worker.ts): ten million executions in minutes (`npm run bench:growth`).
 * Both load the table without its secondary indexes and build them once afterwards, which is
 * several times faster than maintaining 17 indexes (three of them GIN) row by row.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import cliProgress from 'cli-progress';
import { Client } from 'pg';
import type { CopySeedJob } from './seed-copy-worker';
import type { SeedJob } from './seed-worker';

const log = (s: string) => console.log(s);

export interface SeedTimes {
  loadMs: number;
  indexMs: number;
  totalMs: number;
}

const threadCount = (threads?: string) => Math.max(1, Math.min(4, Number(threads ?? os.availableParallelism())));

/** Runs one worker thread per job with a progress bar of the rows they report written. */
async function runThreads(file: string, jobs: object[], total: number, label: string) {
  const bar = new cliProgress.SingleBar(
    {
      format: `  ${label} {bar} {percentage}% | {value}/{total} rows | {rate} rows/s | eta {eta_formatted}`,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const t0 = performance.now();
  bar.start(total, 0, { rate: 0 });
  let done = 0;
  const workerFile = new URL(file, import.meta.url).href;
  await Promise.all(
    jobs.map(
      (job) =>
        new Promise<void>((resolve, reject) => {
          // tsx's loader is registered inside the worker: workers do not inherit it.
          const w = new Worker(
            `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerFile)}); })`,
            { eval: true, workerData: job },
          );
          w.on('message', (m: { done?: number; finished?: unknown; error?: string }) => {
            if (m.done) {
              done += m.done;
              bar.update(done, { rate: Math.round(done / ((performance.now() - t0) / 1000)) });
            }
            if (m.error) reject(new Error(m.error));
            if (m.finished !== undefined) resolve();
          });
          w.on('error', reject);
        }),
    ),
  );
  bar.stop();
  return performance.now() - t0;
}

/** Drops the executions' secondary indexes (and their search postings'), runs `load`, builds them again and analyzes. */
async function withoutIndexes(url: string, load: () => Promise<number>, what: string): Promise<SeedTimes> {
  const t0 = performance.now();
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    // The search postings' index too (migration 0034): their trigger writes them with each COPY,
    // into a table that then has no index to keep. Largest first (their size before the load
    // stands for their build time), so that the two builders below finish together instead of one
    // building a large index alone at the end.
    const idx = await c.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes
       where tablename in ('executions', 'execution_search_postings') and indexname <> 'executions_pkey'
       order by pg_relation_size(format('%I.%I', schemaname, indexname)::regclass) desc, indexname`,
    );
    for (const i of idx.rows) await c.query(`drop index ${i.indexname}`);
    const loadMs = await load();
    log(`  rows written in ${(loadMs / 1000).toFixed(1)} s (${what})`);
    const t1 = performance.now();
    // Two builders: GIN builds use one core each, B-tree builds take parallel workers of their own.
    const queue = [...idx.rows];
    const built: string[] = [];
    await Promise.all(
      [0, 1].map(async () => {
        const b = new Client({ connectionString: url });
        await b.connect();
        await b.query(`set maintenance_work_mem = '1GB'`);
        for (let i = queue.shift(); i; i = queue.shift()) {
          const at = performance.now();
          await b.query(i.indexdef);
          built.push(`${i.indexname} ${((performance.now() - at) / 1000).toFixed(0)} s`);
        }
        await b.end();
      }),
    );
    const indexMs = performance.now() - t1;
    log(`  ${idx.rows.length} indexes built in ${(indexMs / 1000).toFixed(1)} s (${built.join(', ')})`);
    const t2 = performance.now();
    await c.query('vacuum analyze executions');
    await c.query('vacuum analyze execution_search_postings');
    log(`  vacuum analyze in ${((performance.now() - t2) / 1000).toFixed(1)} s`);
    return { loadMs, indexMs, totalMs: performance.now() - t0 };
  } finally {
    await c.end();
  }
}

export async function seed(
  url: string,
  rows: number,
  opts: { threads?: string; withJson?: boolean; withLinks?: boolean; upTo?: number; anchor?: Date; seed?: string } = {},
): Promise<SeedTimes> {
  const threads = threadCount(opts.threads);
  const anchor = opts.anchor ?? new Date();
  if (!opts.anchor) anchor.setUTCMinutes(0, 0, 0);
  const jobs: SeedJob[] = Array.from({ length: threads }, (_, k) => ({
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
  }));
  return withoutIndexes(
    url,
    () => runThreads('./seed-worker.ts', jobs, Math.min(rows, opts.upTo ?? rows), 'seeding'),
    `${threads} threads, generator + toRows + INSERT`,
  );
}

/**
 * Writes the executions of a year of `count` whose index `i` has `i % every` in `phases` (all of
 * them by default) with COPY, from a pool of generated executions (./seed-copy-worker.ts).
 */
export async function seedByCopy(
  url: string,
  count: number,
  opts: {
    every?: number;
    phases?: number[];
    anchor: Date;
    tag: string;
    threads?: string;
    pool?: number;
    seed?: string;
  },
): Promise<SeedTimes> {
  const threads = threadCount(opts.threads);
  const every = opts.every ?? 1;
  const phases = opts.phases ?? [0];
  const share = Math.ceil(count / threads);
  const jobs: CopySeedJob[] = Array.from({ length: threads }, (_, k) => ({
    url,
    seed: opts.seed ?? 'verdict-bench',
    count,
    days: 365,
    anchor: opts.anchor.toISOString(),
    tag: opts.tag,
    from: k * share,
    to: Math.min(count, (k + 1) * share),
    every,
    phases,
    pool: Math.ceil((opts.pool ?? 20_000) / threads),
    perCopy: 250_000,
  }));
  const total = Math.round((count * phases.length) / every);
  return withoutIndexes(
    url,
    () => runThreads('./seed-copy-worker.ts', jobs, total, 'copying'),
    `${threads} threads, a pool of ${(opts.pool ?? 20_000).toLocaleString('en')} generated executions, COPY`,
  );
}
