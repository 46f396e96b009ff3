/**
 * `npm run bench:sync -- --n 5000 [--concurrency 16] [--page-size 100] [--token-lifetime 3600] [--break=drop-row]`
 *
 * Syncs N executions from the in-process simulator (rate limits off) into a fresh database
 * (the Postgres in TEST_DATABASE_URL when set, else an embedded PGlite) with the real backfill
 * (lib/sync/runs.ts), then does the same N with the fair baseline in the same run: a client with
 * the same concurrency but no batching (each of `--concurrency` workers takes the next listed
 * execution, fetches R2, R7, R8 and ingests it in a transaction of its own), and prints
 * throughput, per-execution latency, requests, token requests and the ratio. A benchmark, not a
 * test: machines here are noisy, compare the ratio.
 *
 * Checked while measured (exit 1 when wrong): each client leaves exactly N executions in the
 * cache, and both leave the same capability entries, steps and rule results.
 * `--break=drop-row` deletes one execution after the backfill, so the first check fails.
 * `--token-lifetime` shortens the simulator's access tokens (seconds) to show that the client
 * asks for one token per lifetime (it renews `refreshMarginSec` early, at most half a lifetime).
 *
 * The backfill runs twice: with queue matching on (the default queues of a fresh install, so
 * ingest opens cases in its transaction, lib/cases/match.ts) and, in a second fresh database,
 * with every filter queue archived (matching off), so the cost of matching is printed beside the target.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDb, type Db } from '@/lib/db/client';
import { IdvClient } from '@/lib/idv/client';
import { IDV_CONFIG_DEFAULTS } from '@/lib/idv/config';
import { isNotFound } from '@/lib/idv/errors';
import { renewAfterMs } from '@/lib/idv/tokens';
import { startSimulator } from '@/lib/simulator';
import { DEFAULT_SYNC_OPTIONS } from '@/lib/sync/config';
import { ingestExecution } from '@/lib/sync/ingest';
import { CASE_FIGURE_TABLES } from '@/lib/db/schema/case-figures';
import { ROLLUP_TABLE_LIST } from '@/lib/sync/rollup';
import { executeRun, openRun } from '@/lib/sync/runs';
import { createTestDatabase } from '@/scripts/support/test-database';
import { benchDatabaseName, breakOption, Checks } from './bench/verdict';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '5000' },
    break: { type: 'string' },
    concurrency: { type: 'string', default: '16' },
    'page-size': { type: 'string', default: '100' },
    'token-lifetime': { type: 'string', default: '3600' },
  },
});
const N = Number(values.n);
const BREAK = breakOption(['drop-row'] as const);
const checks = new Checks('[bench] ');
const CONCURRENCY = Number(values.concurrency);
const PAGE = Number(values['page-size']);
const TOKEN_LIFETIME = Number(values['token-lifetime']);
/** When the client renews a token of that lifetime (seconds), with its default margin. */
const RENEW_AFTER = renewAfterMs(TOKEN_LIFETIME * 1000) / 1000;

function client(url: string, id: string, secret: string): IdvClient {
  const unlimited = 100_000;
  return new IdvClient({
    ...IDV_CONFIG_DEFAULTS,
    authUrl: url,
    accountUrl: url,
    apiUrl: url,
    retrievalUrl: url,
    clientId: id,
    clientSecret: secret,
    userAgent: 'Verdict bench/1.0',
    retrievalRatePerSec: unlimited,
    retrievalBurst: unlimited,
    accountRatePerSec: unlimited,
    accountBurst: unlimited,
    apiRatePerSec: unlimited,
    apiBurst: unlimited,
    tokenRatePerSec: unlimited,
    tokenBurst: unlimited,
  });
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function counts(db: Db) {
  const r = await db.execute<{ e: number; c: number; s: number; r: number }>(sql`
    select (select count(*)::int from executions) as e, (select count(*)::int from capability_entries) as c,
           (select count(*)::int from steps) as s, (select count(*)::int from rule_results) as r`);
  return r.rows[0];
}

/** Empties the cache. The cascade reaches the append-only feedback tables, whose triggers refuse
 * TRUNCATE; this throwaway database may bypass triggers for the reset (as
 * tests/support/sync.ts). */
async function emptyCache(db: Db) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql.raw(`truncate executions, ${ROLLUP_TABLE_LIST}, ${CASE_FIGURE_TABLES} cascade`));
  });
}

/** One real backfill of every simulated execution; its throughput and page latencies. */
async function backfill(db: Db, sim: Awaited<ReturnType<typeof startSimulator>>, label: string) {
  const idv = client(sim.url, sim.clientId, sim.clientSecret);
  const options = { ...DEFAULT_SYNC_OPTIONS, detailConcurrency: CONCURRENCY, pageSize: PAGE };
  const { run } = await openRun(db, 'backfill', { overlapMs: options.overlapMs, pageSize: PAGE });
  const before = sim.stats();
  const latencies: number[] = [];
  const started = performance.now();
  const done = await executeRun({ db, idv, options }, run.id, {
    owner: 'bench',
    onPage: (p) => {
      const ms = p.committedAt.getTime() - p.listedAt.getTime();
      for (let i = 0; i < p.executions; i++) latencies.push(ms);
    },
    onProgress: (r) => process.stdout.write(`\r[bench] backfill, ${label}: ${r.seen}/${N}   `),
  });
  const elapsed = (performance.now() - started) / 1000;
  process.stdout.write('\n');
  if (done?.state !== 'completed') throw new Error(`backfill ended ${done?.state}: ${done?.error}`);
  const after = sim.stats();
  if (BREAK === 'drop-row' && label === 'matching on')
    await db.execute(sql`delete from executions where id = (select id from executions limit 1)`);
  const c = await counts(db);
  latencies.sort((a, b) => a - b);
  checks.check(`backfill, ${label}: every execution in the cache`, c.e === N, `${c.e} of ${N}`);
  return {
    counts: c,
    stats: {
      executions: c.e,
      seconds: elapsed,
      perSec: c.e / elapsed,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      requests: after.requests - before.requests,
      tokens: idv.tokens.tokenRequests,
    },
  };
}

async function main() {
  const log = (s: string) => console.log(`[bench] ${s}`);
  const database = await createTestDatabase(benchDatabaseName('sync').replace(/^verdict_/, ''));
  log(
    `database: ${database.kind === 'postgres' ? 'Postgres (TEST_DATABASE_URL)' : 'embedded PGlite'}; simulator: ${N} executions, rate limits off`,
  );
  const sim = await startSimulator({
    port: 0,
    seed: 'bench',
    executions: N,
    rateLimits: false,
    anchor: new Date('2026-06-01T12:00:00Z'),
    tokenLifetimeSec: TOKEN_LIFETIME,
  });
  const db = createDb(database.url, 8);
  try {
    // ---- the real backfill, queue matching on, then off --------------------------------------
    const on = await backfill(db, sim, 'matching on');
    const fast = on.stats;
    const c = on.counts;
    const opened = (await db.execute<{ n: number }>(sql`select count(*)::int as n from cases`)).rows[0].n;
    // Matching off: a second fresh database (a backfill resumes from the last run's position),
    // every filter queue archived.
    const offDatabase = await createTestDatabase(benchDatabaseName('sync').replace(/^verdict_/, ''));
    const offDb = createDb(offDatabase.url, 8);
    let off: typeof fast;
    try {
      await offDb.execute(sql`update case_queues set archived = true where kind = 'filter'`);
      off = (await backfill(offDb, sim, 'matching off')).stats;
    } finally {
      await offDb.$client.end().catch(() => undefined);
      await offDatabase.drop();
    }

    // ---- the fair baseline: the same concurrency, one transaction per execution, no batching ----
    await emptyCache(db);
    const naiveIdv = client(sim.url, sim.clientId, sim.clientSecret);
    const naiveBefore = sim.stats();
    const naiveLat: number[] = [];
    const nStart = performance.now();
    // The list is read page by page as the workers need it (one lister at a time), as the
    // backfill reads it; each listed execution is taken by exactly one worker.
    const listed: Array<{ a: string; w: string }> = [];
    let page = 0;
    let listing: Promise<void> | null = null;
    let exhausted = false;
    const nextItem = async (): Promise<{ a: string; w: string } | null> => {
      while (!listed.length && !exhausted) {
        listing ??= naiveIdv.listExecutions({ page: ++page, size: PAGE }).then((list) => {
          for (const x of list.workflowExecutions) listed.push({ a: x.account.id, w: x.workflow.id });
          if (!list.workflowExecutions.length) exhausted = true;
          listing = null;
        });
        await listing;
      }
      return listed.shift() ?? null;
    };
    let synced = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let item = await nextItem(); item && synced < N; item = await nextItem()) {
          const t = performance.now();
          const fetchedAt = new Date();
          const result = await naiveIdv.getExecution(item.a, item.w);
          const steps = await naiveIdv
            .getSteps(item.a, item.w)
            .catch((e) => (isNotFound(e) ? undefined : Promise.reject(e)));
          const rules = await naiveIdv
            .getRules(item.a, item.w)
            .catch((e) => (isNotFound(e) ? undefined : Promise.reject(e)));
          await ingestExecution(db, { result, steps, rules, fetchedAt });
          naiveLat.push(performance.now() - t);
          synced += 1;
          if (synced % 100 === 0) process.stdout.write(`\r[bench] baseline: ${synced}/${N}   `);
        }
      }),
    );
    const nElapsed = (performance.now() - nStart) / 1000;
    process.stdout.write('\n');
    naiveLat.sort((x, y) => x - y);
    const nc = await counts(db);
    const naive = {
      executions: nc.e,
      seconds: nElapsed,
      perSec: nc.e / nElapsed,
      p50: percentile(naiveLat, 50),
      p95: percentile(naiveLat, 95),
      requests: sim.stats().requests - naiveBefore.requests,
      tokens: naiveIdv.tokens.tokenRequests,
    };
    checks.check('baseline: every execution in the cache', nc.e === N, `${nc.e} of ${N}`);
    checks.check(
      'both clients stored the same capability entries, steps and rule results',
      nc.c === c.c && nc.s === c.s && nc.r === c.r,
      `${c.c}/${c.s}/${c.r} and ${nc.c}/${nc.s}/${nc.r}`,
    );

    const row = (name: string, r: typeof fast) =>
      `${name.padEnd(22)} ${String(r.executions).padStart(6)} ${r.seconds.toFixed(1).padStart(8)} ${r.perSec.toFixed(1).padStart(9)} ${r.p50.toFixed(0).padStart(8)} ${r.p95.toFixed(0).padStart(8)} ${String(r.requests).padStart(9)} ${String(r.tokens).padStart(7)}`;
    console.log('');
    console.log(
      `${'client'.padEnd(22)} ${'execs'.padStart(6)} ${'seconds'.padStart(8)} ${'execs/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'requests'.padStart(9)} ${'tokens'.padStart(7)}`,
    );
    console.log(row(`backfill (c=${CONCURRENCY}, page ${PAGE})`, fast));
    console.log(row('backfill, no matching', off));
    console.log(row(`baseline (c=${CONCURRENCY}, no batch)`, naive));
    console.log('');
    console.log(
      `ratio, ${N} executions each at concurrency ${CONCURRENCY}: ${(fast.perSec / naive.perSec).toFixed(2)}x the baseline's throughput (latencies are not comparable: a page against one execution)  (target: at least 200 executions/s; ${fast.perSec >= 200 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `queue matching: ${fast.perSec.toFixed(1)} executions/s with it (${opened} cases opened in ingest), ${off.perSec.toFixed(1)} without (${((1 - fast.perSec / off.perSec) * 100).toFixed(0)} % slower with it; target with it: at least 200 executions/s, ${fast.perSec >= 200 ? 'met' : 'NOT met'})`,
    );
    const expected = 1 + Math.floor(fast.seconds / RENEW_AFTER);
    console.log(
      `token requests: ${fast.tokens} for the backfill over ${fast.seconds.toFixed(1)} s (token lifetime ${TOKEN_LIFETIME} s, renewed after ${RENEW_AFTER} s: ${expected} expected; ${fast.tokens <= expected && fast.tokens >= expected - 1 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `cache: ${c.e} executions, ${c.c} capability entries, ${c.s} steps, ${c.r} rule results (latency = list request sent to page committed; baseline: R2 sent to commit)`,
    );
    checks.finish();
  } finally {
    await db.$client.end().catch(() => undefined);
    await sim.close();
    await database.drop();
  }
}

main().catch((err) => {
  console.error('[bench]', err);
  process.exit(1);
});
