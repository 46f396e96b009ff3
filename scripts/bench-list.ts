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
import { decodeCursor, encodeCursor, LIST_COLUMNS, readListWithTotal, type ListRowRaw } from '@/lib/executions/list';
import { resolveSearch } from '@/lib/executions/queries';
import { listWhere } from '@/lib/executions/where';
import { createDb, type Db } from '@/lib/db/client';
import { executions } from '@/lib/db/schema';
import { runMigrations } from '@/lib/db/migrate';
import { DEFAULT_LIST_PARAMS, type ListParams } from '@/lib/executions/list-params';
import { measureJsBudget } from './js-budget';
import { seed } from './bench/seed';
import { benchDatabaseName, benchServerUrl, breakOption, Checks, timeIt } from './bench/verdict';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ROWS = Number(option('rows') ?? 1_000_000);
const ITER = Number(option('iterations') ?? 40);
const TARGET_P95_MS = 25;
/**
 * How far "about N" may be off, as a factor either way. The planner multiplies the selectivities
 * of filters it takes for independent, so a combination of correlated filters can be off by a few
 * times; beyond ten times the label misleads (a "10,000+" that is really 100,000+).
 */
const ESTIMATE_BOUND = 10;
const BREAK = breakOption(['estimate', 'keyset'] as const);
const checks = new Checks();
const log = (s: string) => console.log(s);

async function admin(base: URL, q: string) {
  const c = new Client({ connectionString: base.toString() });
  await c.connect();
  try {
    await c.query(q);
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------

interface Scenario {
  name: string;
  params: Partial<ListParams>;
  search?: string;
  /** Rows to skip: the page is read at this depth (cursor for keyset, OFFSET for the baseline). */
  depth?: number;
}

const SORT_SQL: Record<ListParams['sort'], string> = {
  created: 'created_at',
  completed: 'completed_at',
  risk: 'risk_score',
  // The OFFSET baseline of a due sort reads the same per-row due time the list does.
  due: "(select due_at from cases where cases.execution_id = executions.id and cases.state <> 'resolved')",
};

async function main() {
  const base = benchServerUrl();
  let dbName = option('reuse');
  const created = !dbName;
  if (!dbName) {
    dbName = benchDatabaseName(`list_${Date.now().toString(36)}`);
    log(`Creating database ${dbName} on ${base.host}`);
    await admin(base, `create database "${dbName}"`);
  }
  const u = new URL(base.toString());
  u.pathname = `/${dbName}`;
  const url = u.toString();
  let dropped = false;
  const drop = async () => {
    if (dropped || !created || flag('keep')) return;
    dropped = true;
    await admin(base, `drop database if exists "${dbName}" with (force)`);
    log(`Dropped ${dbName}.`);
  };
  process.on('SIGINT', () => void drop().finally(() => process.exit(130)));
  try {
    if (created) {
      await runMigrations(url);
      log(`Seeding ${ROWS.toLocaleString('en-US')} executions…`);
      const s = await seed(url, ROWS, { threads: option('threads'), withJson: flag('with-json') });
      log(`Seed total: ${(s.totalMs / 1000).toFixed(1)} s\n`);
    }
    const d = createDb(url, 4);
    await measure(d);
    if (flag('serve')) await measureServe(url);
    await d.$client.end();
  } finally {
    await drop();
  }
  checks.finish();
  const budget = measureJsBudget();
  if (budget)
    log(
      `\nJavaScript for /executions (gzip): ${budget.routeKb.toFixed(1)} KB (target ≤ 200 KB) — ${budget.routeKb <= 200 ? 'OK' : 'OVER'}; detail page ${budget.detailKb.toFixed(1)} KB`,
    );
  else log('\n(no production build in .next: run `npm run build` to also measure the JavaScript budget)');
}

async function measure(d: Db) {
  const one = async <T>(q: SQL) => (await d.execute<T & Record<string, unknown>>(q)).rows[0] as T;
  const total = (await one<{ n: number }>(sql`select count(*)::int as n from executions`)).n;
  const sample = await one<{
    first_name: string;
    last_name: string;
    document_number: string;
    customer_internal_reference: string;
    account_id: string;
    issuing_country: string;
  }>(
    sql`select first_name, last_name, document_number, customer_internal_reference, account_id, issuing_country from executions where first_name is not null and document_number is not null order by id offset ${Math.floor(total / 3)} limit 1`,
  );
  const rare = await one<{ issuing_country: string }>(
    sql`select issuing_country from executions where document_type = 'VISA' and issuing_country is not null group by 1 order by count(*), 1 limit 1`,
  );
  const day = await one<{ d: string }>(
    sql`select to_char(max(created_at) - interval '20 days', 'YYYY-MM-DD') as d from executions`,
  );
  const month = await one<{ d: string }>(
    sql`select to_char(max(created_at) - interval '30 days', 'YYYY-MM-DD') as d from executions`,
  );
  // Warm cache, as in shared/reference/performance.md: the table and its indexes are read once
  // into the operating system's cache (shared_buffers here is far smaller than the table).
  const tw = performance.now();
  await d.execute(sql`create extension if not exists pg_prewarm`);
  await d.execute(
    sql`select pg_prewarm(c.oid, 'read') from pg_class c where c.oid = 'executions'::regclass or c.oid in (select indexrelid from pg_index where indrelid = 'executions'::regclass)`,
  );
  log(`Table and indexes read into the OS cache in ${((performance.now() - tw) / 1000).toFixed(1)} s.`);
  log(`Measuring on ${total.toLocaleString('en-US')} executions; ${ITER} runs per scenario after 3 warm-ups.\n`);

  const scenarios: Scenario[] = [
    { name: 'newest first, page 1 (25)', params: {} },
    { name: 'newest first, page 1 (100)', params: { size: 100 } },
    { name: 'newest first, depth 10,000', params: {}, depth: 10_000 },
    { name: 'newest first, depth 100,000', params: {}, depth: 100_000 },
    { name: 'newest first, depth 500,000', params: {}, depth: 500_000 },
    { name: 'risk high-low, page 1', params: { sort: 'risk' } },
    { name: 'risk low-high, depth 100,000', params: { sort: 'risk', dir: 'asc' }, depth: 100_000 },
    { name: 'completed newest, depth 100,000', params: { sort: 'completed' }, depth: 100_000 },
    { name: 'decision REJECTED', params: { decision: ['REJECTED'] } },
    { name: 'REJECTED, depth 10,000', params: { decision: ['REJECTED'] }, depth: 10_000 },
    {
      name: 'WARNING + risk 40-70 + country, by risk',
      params: { decision: ['WARNING'], riskMin: 40, riskMax: 70, country: sample.issuing_country, sort: 'risk' },
    },
    {
      name: 'PROCESSED + last 30 days, by completed',
      params: { status: ['PROCESSED'], createdFrom: month.d, sort: 'completed' },
    },
    { name: 'one created day, by risk', params: { createdFrom: day.d, createdTo: day.d, sort: 'risk' } },
    { name: 'capability liveness REJECTED', params: { cap: ['liveness:REJECTED'] } },
    {
      name: 'label DIGITAL_COPY + REJECTED',
      params: { cap: ['imageChecks:label:DIGITAL_COPY'], decision: ['REJECTED'] },
    },
    { name: 'feedback FRAUD', params: { feedback: ['FRAUD'] } },
    { name: 'feedback not yet delivered', params: { feedback: ['pending'] } },
    { name: 'no feedback + WARNING (triage queue)', params: { feedback: ['none'], decision: ['WARNING'] } },
    { name: 'definition 10042 + DRIVING_LICENSE', params: { definition: '10042', docType: 'DRIVING_LICENSE' } },
    {
      name: 'criteria + REJECTED, by risk',
      params: { criteria: 'high-value-payout', decision: ['REJECTED'], sort: 'risk' },
    },
    {
      name: 'rare: VISA + REJECTED + country',
      params: { docType: 'VISA', decision: ['REJECTED'], country: rare.issuing_country },
    },
    {
      name: 'three filters + risk sort (e2e combo)',
      params: { decision: ['REJECTED'], country: sample.issuing_country, riskMin: 71, sort: 'risk' },
    },
    { name: 'account id', params: { account: sample.account_id } },
    { name: 'search: full name', params: {}, search: `${sample.first_name} ${sample.last_name}` },
    { name: 'search: surname', params: {}, search: sample.last_name },
    { name: 'search: document number', params: {}, search: sample.document_number },
    { name: 'search: customer reference', params: {}, search: sample.customer_internal_reference },
    { name: 'search: surname + REJECTED', params: { decision: ['REJECTED'] }, search: sample.last_name },
  ];

  const header = `${'scenario'.padEnd(42)} ${'rows'.padStart(6)} ${'total'.padStart(14)} | ${'keyset p50'.padStart(10)} ${'p95'.padStart(7)} | ${'OFFSET+count p50'.padStart(16)} ${'p95'.padStart(8)} | ${'ratio p50'.padStart(9)} ${'p95'.padStart(7)}`;
  log(header);
  log('-'.repeat(header.length));
  let worst = 0;
  const failures: string[] = [];
  for (const s of scenarios) {
    const p: ListParams = { ...DEFAULT_LIST_PARAMS, ...s.params };
    // Search as the page resolves it: an exact reference, or substring words.
    const found = s.search ? await resolveSearch(s.search, d) : null;
    const where = listWhere(p, found?.words ? { words: found.words, exactReference: found.exactReference } : null);
    let cursor: string | undefined;
    if (s.depth) {
      const col = SORT_SQL[p.sort];
      const dir = p.dir === 'asc' ? 'asc' : 'desc';
      const row = await one<ListRowRaw>(
        sql`select ${sql.raw(
          Object.values(LIST_COLUMNS)
            .map((c) => `"${c.name}"`)
            .join(', '),
        )} from ${executions}${where ? sql` where ${where}` : sql``} order by ${sql.raw(`${col} ${dir} nulls last, id ${dir}`)} offset ${s.depth - 1} limit 1`,
      );
      if (row) {
        const raw = row as unknown as Record<string, unknown>;
        const fixed = {
          id: String(raw.id),
          createdAt: new Date(raw.created_at as string),
          completedAt: raw.completed_at ? new Date(raw.completed_at as string) : null,
          riskScore: (raw.risk_score as number | null) ?? null,
        };
        cursor = encodeCursor(p.sort, fixed);
        if (BREAK === 'keyset') {
          // One row off: the cursor of the row at the depth itself, so the page starts a row late.
          const off = await one<Record<string, unknown>>(
            sql`select id, created_at, completed_at, risk_score from ${executions}${where ? sql` where ${where}` : sql``} order by ${sql.raw(`${col} ${dir} nulls last, id ${dir}`)} offset ${s.depth} limit 1`,
          );
          if (off)
            cursor = encodeCursor(p.sort, {
              id: String(off.id),
              createdAt: new Date(off.created_at as string),
              completedAt: off.completed_at ? new Date(off.completed_at as string) : null,
              riskScore: (off.risk_score as number | null) ?? null,
            });
        }
        if (!decodeCursor(p.sort, cursor)) throw new Error('bad cursor');
      }
    }
    if (s.depth && !cursor) {
      log(`${s.name.padEnd(42)} skipped: fewer than ${s.depth.toLocaleString('en-US')} matching rows at this size`);
      continue;
    }
    const pp = { ...p, after: cursor };
    let rowsOnPage = 0;
    let totalLabel = '';
    let keysetIds: string[] = [];
    let shown: Awaited<ReturnType<typeof readListWithTotal>>['total'] | null = null;
    const keyset = await timeIt(async () => {
      // As the page does: the page and, beside it, its total (free when everything fits on one page).
      const { page, total: t } = await readListWithTotal(pp, where, d);
      rowsOnPage = page.rows.length;
      keysetIds = page.rows.map((r) => String(r.id));
      shown = t.exact || BREAK !== 'estimate' ? t : { exact: false, estimate: t.estimate * 1000 };
      totalLabel = shown.exact ? `${shown.count}` : `~${shown.estimate}`;
    }, ITER);
    const col = SORT_SQL[p.sort];
    const dir = p.dir === 'asc' ? 'asc' : 'desc';
    const w = where ? sql` where ${where}` : sql``;
    const baselineRuns = s.depth && s.depth >= 100_000 ? 5 : 10;
    // --quick: keyset only (for tuning); the full run always measures the baseline beside it.
    const baseline = flag('quick')
      ? { p50: NaN, p95: NaN }
      : await timeIt(
          () =>
            Promise.all([
              d.execute(
                sql`select ${sql.raw(
                  Object.values(LIST_COLUMNS)
                    .map((c) => `"${c.name}"`)
                    .join(', '),
                )} from ${executions}${w} order by ${sql.raw(`${col} ${dir} nulls last, id ${dir}`)} offset ${s.depth ?? 0} limit ${p.size}`,
              ),
              d.execute(sql`select count(*) from ${executions}${w}`),
            ]),
          baselineRuns,
          1,
        );
    // The checks, outside the timing: the OFFSET page's rows and the exact count.
    const offsetIds = (
      await d.execute<{ id: string }>(
        sql`select id from ${executions}${w} order by ${sql.raw(`${col} ${dir} nulls last, id ${dir}`)} offset ${s.depth ?? 0} limit ${p.size}`,
      )
    ).rows.map((r) => String(r.id));
    checks.check(
      `${s.name}: keyset page = OFFSET page`,
      keysetIds.join() === offsetIds.join(),
      `${keysetIds.length} and ${offsetIds.length} rows${keysetIds.join() === offsetIds.join() ? ', same ids in the same order' : ', different'}`,
    );
    const exact = (await one<{ n: number }>(sql`select count(*)::int as n from ${executions}${w}`)).n;
    const t = shown as Awaited<ReturnType<typeof readListWithTotal>>['total'] | null;
    if (t?.exact) checks.check(`${s.name}: exact total = count(*)`, t.count === exact, `${t.count} and ${exact}`);
    else if (t) {
      const off = Math.max(t.estimate, 1) / Math.max(exact, 1);
      const factor = Math.max(off, 1 / off);
      checks.check(
        `${s.name}: estimate within ${ESTIMATE_BOUND}x`,
        factor <= ESTIMATE_BOUND,
        `about ${t.estimate.toLocaleString('en-US')} for ${exact.toLocaleString('en-US')}: ${off >= 1 ? `${off.toFixed(2)}x over` : `${(1 / off).toFixed(2)}x under`}`,
      );
    }
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
