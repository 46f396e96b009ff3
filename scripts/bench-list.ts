/**
 * `npm run bench:list`: seeds a dedicated Postgres database with one million executions (the
 * simulator's generator, mapped by ingest's `toRows()`, written straight into Postgres, no HTTP),
 * then measures the executions list as the app runs it (keyset page + cheap total) for common
 * filter, sort and search combinations and deep pages, against OFFSET paging with an exact
 * count(*) measured in the same run. Prints p50/p95 per scenario and the ratio.
 *
 * Checked while measured (exit 1 when wrong): the keyset page holds the same rows, in the same
 * order, as the OFFSET page at the same depth; an exact total equals count(*); an "about N"
 * estimate is within ESTIMATE_BOUND times the exact count either way (its error is printed per
 * scenario). `--break=estimate` multiplies every estimate by 1,000 and `--break=keyset` reads
 * the deep pages one row off, so that the checks fail.
 *
 *   npm run bench:list                      # 1,000,000 rows, database dropped afterwards
 *   npm run bench:list -- --rows 200000     # smaller
 *   npm run bench:list -- --keep            # keep the database (its name is printed)
 *   npm run bench:list -- --reuse <db>      # measure an already seeded database
 *   npm run bench:list -- --serve           # also time GET /executions on the production build
 *   npm run bench:list -- --break=estimate  # show that the estimate check fails (exit 1)
 *
 * The database server comes from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
 * postgres://postgres@127.0.0.1:5432/postgres; only a local server is accepted.
 */
import { spawn } from 'node:child_process';
import { sql, type SQL } from 'drizzle-orm';
import { Client } from 'pg';
import { createDb, type Db } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { LIST_BUDGET_KB, measureJsBudget } from './js-budget';
import { listScenarios, runScenario } from './bench/list-scenarios';
import { seed } from './bench/seed';
import { benchFlag, benchOption } from './bench/cli';
import { benchDatabase, benchDatabaseName, benchServerUrl, breakOption, Checks, timeIt } from './bench/verdict';

const ROWS = Number(benchOption('rows') ?? 1_000_000);
const ITER = Number(benchOption('iterations') ?? 40);
const TARGET_P95_MS = 25;
const BREAK = breakOption(['estimate', 'keyset'] as const);
const checks = new Checks();
const log = (s: string) => console.log(s);

// ---------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------

async function main() {
  const base = benchServerUrl();
  let dbName = benchOption('reuse');
  const created = !dbName;
  if (!dbName) {
    dbName = benchDatabaseName(`list_${Date.now().toString(36)}`);
    log(`Creating database ${dbName} on ${base.host}`);
    await benchDatabase(dbName).create();
  }
  const database = benchDatabase(dbName);
  const url = database.url.toString();
  let dropped = false;
  const drop = async () => {
    if (dropped || !created || benchFlag('keep')) return;
    dropped = true;
    await database.drop();
    log(`Dropped ${dbName}.`);
  };
  process.on('SIGINT', () => void drop().finally(() => process.exit(130)));
  try {
    if (created) {
      await runMigrations(url);
      log(`Seeding ${ROWS.toLocaleString('en-US')} executions…`);
      const s = await seed(url, ROWS, { threads: benchOption('threads'), withJson: benchFlag('with-json') });
      log(`Seed total: ${(s.totalMs / 1000).toFixed(1)} s\n`);
    }
    const d = createDb(url, 4);
    await measure(d);
    if (benchFlag('serve')) await measureServe(url);
    await d.$client.end();
  } finally {
    await drop();
  }
  checks.finish();
  const budget = measureJsBudget();
  if (budget)
    log(
      `\nJavaScript for /executions (gzip): ${budget.routeKb.toFixed(1)} KB (target ≤ ${LIST_BUDGET_KB} KB) — ${budget.routeKb <= LIST_BUDGET_KB ? 'OK' : 'OVER'}; detail page ${budget.detailKb.toFixed(1)} KB`,
    );
  else log('\n(no production build in .next: run `npm run build` to also measure the JavaScript budget)');
}

async function measure(d: Db) {
  const one = async <T>(q: SQL) => (await d.execute<T & Record<string, unknown>>(q)).rows[0] as T;
  const total = (await one<{ n: number }>(sql`select count(*)::int as n from executions`)).n;
  // Warm cache, as in shared/reference/performance.md: the table and its indexes are read once
  // into the operating system's cache (shared_buffers here is far smaller than the table).
  const tw = performance.now();
  await d.execute(sql`create extension if not exists pg_prewarm`);
  await d.execute(
    sql`select pg_prewarm(c.oid, 'read') from pg_class c where c.oid = 'executions'::regclass or c.oid in (select indexrelid from pg_index where indrelid = 'executions'::regclass)`,
  );
  log(`Table and indexes read into the OS cache in ${((performance.now() - tw) / 1000).toFixed(1)} s.`);
  log(`Measuring on ${total.toLocaleString('en-US')} executions; ${ITER} runs per scenario after 3 warm-ups.\n`);

  const scenarios = await listScenarios(d);

  const header = `${'scenario'.padEnd(42)} ${'rows'.padStart(6)} ${'total'.padStart(14)} | ${'keyset p50'.padStart(10)} ${'p95'.padStart(7)} | ${'OFFSET+count p50'.padStart(16)} ${'p95'.padStart(8)} | ${'ratio p50'.padStart(9)} ${'p95'.padStart(7)}`;
  log(header);
  log('-'.repeat(header.length));
  let worst = 0;
  const failures: string[] = [];
  for (const s of scenarios) {
    const r = await runScenario(d, s, { iterations: ITER, baseline: !benchFlag('quick'), checks, broken: BREAK });
    if (!r) {
      log(`${s.name.padEnd(42)} skipped: fewer than ${s.depth?.toLocaleString('en-US')} matching rows at this size`);
      continue;
    }
    const { keyset, baseline, rowsOnPage, totalLabel } = r;
    worst = Math.max(worst, keyset.p95);
    if (keyset.p95 > TARGET_P95_MS) failures.push(s.name);
    log(
      `${s.name.padEnd(42)} ${String(rowsOnPage).padStart(6)} ${totalLabel.padStart(14)} | ${keyset.p50.toFixed(2).padStart(10)} ${keyset.p95.toFixed(2).padStart(7)} | ${baseline.p50.toFixed(1).padStart(16)} ${baseline.p95.toFixed(1).padStart(8)} | ${(baseline.p50 / keyset.p50).toFixed(1).padStart(8)}x ${(baseline.p95 / keyset.p95).toFixed(1).padStart(6)}x`,
    );
  }
  log(
    `\nWorst keyset p95: ${worst.toFixed(2)} ms (target ≤ ${TARGET_P95_MS} ms): ${failures.length ? `OVER in ${failures.join('; ')}` : 'every scenario within target'}`,
  );
}

/** Times GET /executions on the production build against the seeded database. */
async function measureServe(url: string) {
  const { encode } = await import('next-auth/jwt');
  const { randomBytes, randomUUID } = await import('node:crypto');
  const secret = randomBytes(32).toString('hex');
  const c = new Client({ connectionString: url });
  await c.connect();
  const userId = randomUUID();
  const sid = randomBytes(24).toString('base64url');
  await c.query(`insert into users (id, email, name, role) values ($1, $2, 'Bench analyst', 'analyst')`, [
    userId,
    `bench-${sid.slice(0, 6)}@verdict.local`,
  ]);
  await c.query(`insert into user_sessions (id, user_id, expires_at) values ($1, $2, now() + interval '2 hours')`, [
    sid,
    userId,
  ]);
  const cookie = `next-auth.session-token=${await encode({ token: { sid, sub: userId }, secret })}`;
  const port = 3390;
  log(`\nServing the production build on :${port} against the seeded database…`);
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '-p', String(port)], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      NEXTAUTH_SECRET: secret,
      NEXTAUTH_URL: `http://localhost:${port}`,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    const pages = [
      '/executions',
      '/executions?decision=REJECTED&sort=risk',
      '/executions?feedback=none&decision=WARNING&size=100',
    ];
    for (const path of pages) {
      const t = await timeIt(
        async () => {
          const r = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { cookie } });
          if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status}`);
          await r.text();
        },
        20,
        3,
      );
      log(
        `  GET ${path.padEnd(52)} p50 ${t.p50.toFixed(1)} ms  p95 ${t.p95.toFixed(1)} ms (target ≤ 150 ms) — ${t.p95 <= 150 ? 'OK' : 'OVER'}`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await c.query('delete from user_sessions where id = $1', [sid]);
    await c.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
