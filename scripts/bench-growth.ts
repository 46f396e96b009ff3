/**
 * `npm run bench:growth`: what Verdict's reads and writes cost at 1,000,000 and at 10,000,000
 * executions (and as many audit entries), in one run on one database, and the ratio per figure.
 *
 * 1. Seeds a year of `--base` executions (every tenth of the year's `--rows`) with COPY from a pool
 *    of generated executions (scripts/bench/seed.ts `seedByCopy`), `--base` chained audit entries
 *    (scripts/bench/audit-seed.ts), the trends rollup (ingest's own rebuild), and cases: 100,000
 *    open in the default queues (a large backlog) and a twentieth of the executions resolved.
 * 2. Measures, with the app's own functions: the list's 28 scenarios (keyset page + total), the
 *    trends page's data for five ranges (p95, and the machine's CPU per page, which the host's
 *    steal does not move), the queues page's data, "next case" with 20 concurrent claimers, the
 *    read API's change feed walked page by page, ingest of new executions in pages of 100, and
 *    `verifyChain` over the whole audit chain.
 * 3. Grows the same database to `--rows` (the other nine tenths of the year, more audit entries,
 *    rollup, resolved cases; the backlog of open cases stays) and measures again; prints each
 *    figure at both sizes, the ratio, the target, the disk used per million executions and the
 *    seeding times. Last, it opens cases until a tenth of all executions are open (a backlog ten
 *    times as large) and times the queues page again.
 *
 * Checked while it measures (exit 1 when wrong): each list scenario's keyset page = the OFFSET
 * page and its total exact or within 10x; the trends rollup = the raw rows for the default range;
 * no case claimed twice; the feed's pages in order with nothing skipped or repeated against one
 * ordered scan; every ingested execution stored; the audit chain whole with every entry.
 * `--break=estimate` (every list estimate 1,000x) and `--break=tamper` (one audit entry edited
 * before verifying) show that the checks fail.
 *
 *   npm run bench:growth                        # 1,000,000 then 10,000,000; the database is dropped
 *   npm run bench:growth -- --rows 200000 --base 20000   # a quick run
 *   npm run bench:growth -- --keep              # keep verdict_bench_growth
 *   npm run bench:growth -- --reuse             # measure the kept database once more, as it is
 *
 * The database server comes from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local
 * postgres://postgres@127.0.0.1:5432/postgres; only a local server is accepted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { claimNextCase } from '@/lib/cases/claim';
import { matchQueues } from '@/lib/cases/match';
import { getQueuesPage } from '@/lib/cases/queries';
import { closeDb, createDb, type Db } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import type { FeedPosition } from '@/lib/db/change-feed';
import { sealAuditLog } from '@/lib/evidence/seal';
import { signingKeyFrom } from '@/lib/evidence/signing';
import { verifyChain } from '@/lib/evidence/verify';
import { generateExecution } from '@/lib/simulator/generator';
import { rebuildRollup, ROLLUP_TABLE_LIST } from '@/lib/sync/rollup';
import { getTrendsData } from '@/lib/trends/queries';
import { isoDay, resolveTrendsFilters } from '@/lib/trends/shared';
import { appendAuditEntries } from './bench/audit-seed';
import { launch } from './bench/load-stack';
import { listScenarios, runScenario, scenarioValues } from './bench/list-scenarios';
import { seedByCopy } from './bench/seed';
import { benchFlag, benchOption } from './bench/cli';
import {
  benchDatabase,
  benchDatabaseName,
  breakOption,
  Checks,
  CLAIMED_WHILE_HELD_SQL,
  machineCpu,
  spread,
  timeIt,
} from './bench/verdict';

const ROWS = Number(benchOption('rows') ?? 10_000_000);
const BASE = Number(benchOption('base') ?? 1_000_000);
const EVERY = Math.round(ROWS / BASE);
const CLAIMERS = 20;
const CLAIMS = Number(benchOption('claims') ?? 5_000);
const RUNS = Number(benchOption('runs') ?? 50);
const DB_NAME = benchDatabaseName('growth');
const DATABASE = benchDatabase(DB_NAME);
const BREAK = breakOption(['estimate', 'tamper'] as const);
const KEY = signingKeyFrom('42'.repeat(32));
const checks = new Checks('  ');
const log = (s: string) => console.log(s);
const load = () => os.loadavg()[0].toFixed(1);
const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
const n = (x: number) => x.toLocaleString('en-US');

if (ROWS % BASE !== 0 || EVERY < 2) throw new Error('--rows must be a multiple (2x or more) of --base');

/** One figure at one size: the value, its unit, and whether lower or higher is better. */
interface Figure {
  value: number;
  unit: 'ms' | '/s' | 's';
  target?: number;
}
type Figures = Map<string, Figure>;

/** Opens cases for executions that have none, as the default queues match them: `open` open, `resolved` resolved. */
async function openCases(d: Db, open: number, resolved: number) {
  const queues = await matchQueues(d);
  const pick = sql.join(
    queues.map((q) => sql`when ${q.where ?? sql`true`} then ${q.id}::uuid`),
    sql` `,
  );
  await d.execute(sql`
    insert into cases (execution_id, queue_id, state, arrived_at, due_at, outcome, reason, resolved_at, decision_at_outcome)
    select m.id, m.queue_id, case when m.n <= ${open} then 'open' else 'resolved' end, m.arrived,
      m.arrived + make_interval(hours => q.sla_hours),
      case when m.n > ${open} then (case when m.n % 3 = 0 then 'decline' else 'approve' end) end,
      case when m.n > ${open} then 'OTHER' end,
      case when m.n > ${open} then m.arrived + make_interval(mins => 5 + (m.n % 600)::int) end,
      case when m.n > ${open} then m.decision_type end
    from (
      select id, queue_id, decision_type, n,
        -- Open cases arrived in the last four days; resolved ones when their execution did, over the year.
        case when n <= ${open} then now() - make_interval(mins => (abs(hashtext(id::text)) % 5760)::int)
             else created_at + interval '10 minutes' end as arrived
      from (
        select x.*, row_number() over () as n
        from (
          select executions.id, executions.decision_type, executions.created_at, case ${pick} end as queue_id
          from executions where not exists (select 1 from cases c where c.execution_id = executions.id)
        ) x
        where queue_id is not null
        limit ${open + resolved}
      ) y
    ) m join case_queues q on q.id = m.queue_id`);
  await d.execute(sql`vacuum analyze cases`);
}

/**
 * A first start on a database of this size: a worker process (`npm run worker`, as a deployment
 * runs it) from spawn until it says it runs (migrations checked, every domain's jobs registered),
 * and from SIGTERM until it has exited. The service address points nowhere, so what is timed is
 * Verdict's own start, not a first sync.
 */
async function workerStart(url: string): Promise<{ ready: number; stop: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-growth-'));
  const t0 = performance.now();
  const worker = launch(
    'worker',
    ['--conditions=react-server', '--import', 'tsx', 'scripts/worker.ts'],
    {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      IDV_BASE_URL: 'http://127.0.0.1:9',
      IDV_CLIENT_ID: 'bench-growth',
      IDV_CLIENT_SECRET: 'bench-growth-not-a-secret',
      METRICS_WORKER_PORT: '0',
    },
    dataDir,
  );
  try {
    await worker.printed(/Sync worker running/, 120_000);
    const ready = (performance.now() - t0) / 1000;
    const ts = performance.now();
    worker.child.kill('SIGTERM');
    const code = await worker.exited;
    checks.check(`worker stops cleanly after its start`, code === 0, `exit code ${code}`);
    return { ready, stop: (performance.now() - ts) / 1000 };
  } finally {
    worker.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(d: Db, label: string, users: Array<{ id: string; email: string }>): Promise<Figures> {
  const f: Figures = new Map();
  const put = (name: string, value: number, unit: Figure['unit'], target?: number) =>
    f.set(name, { value, unit, target });
  const total = Number((await d.execute<{ n: string }>(sql`select count(*) as n from executions`)).rows[0].n);
  log(`\n== ${label}: ${n(total)} executions [load ${load()}]`);
  await d.execute(sql`create extension if not exists pg_prewarm`);
  const tw = performance.now();
  await d.execute(
    sql`select pg_prewarm(c.oid, 'read') from pg_class c where c.oid = 'executions'::regclass or c.oid in (select indexrelid from pg_index where indrelid = 'executions'::regclass)`,
  );
  log(`  executions and their indexes read into the OS cache in ${secs(tw)}`);

  // The list: every scenario, as the page runs it, each checked against OFFSET and count(*).
  // Sampled at 1,000,000 and kept in the database: the same values are queried at 10,000,000.
  const values = await scenarioValues(d);
  log(
    `  list values: ${values.first_name} ${values.last_name}, ${values.issuing_country} (rare visas: ${values.rare_country}), account ${values.account_id}`,
  );
  for (const s of await listScenarios(d)) {
    const r = await runScenario(d, s, {
      iterations: RUNS,
      baseline: false,
      checks,
      broken: BREAK === 'estimate' ? 'estimate' : null,
    });
    if (!r) continue;
    put(`list: ${s.name}`, r.keyset.p95, 'ms', 25);
  }

  // Trends: the page's whole data for five ranges; the default range checked against the raw rows.
  const today = isoDay(new Date());
  const ranges: Array<[string, Record<string, string>]> = [
    ['30 days by day', { range: '30' }],
    ['90 days by week', { range: '90' }],
    ['365 days by month', { range: '365' }],
    ['365 days by day', { range: '365', granularity: 'day' }],
    ['365 days, country + type', { range: '365', granularity: 'week', country: 'DEU', docType: 'PASSPORT' }],
  ];
  for (const [name, q] of ranges) {
    const filters = resolveTrendsFilters(q, today);
    const page = () => getTrendsData(filters, { source: 'rollup', database: d });
    for (let i = 0; i < 3; i++) await page();
    const c0 = machineCpu();
    const t = await timeIt(page, RUNS, 0);
    const c1 = machineCpu();
    put(`trends: ${name}`, t.p95, 'ms', 100);
    // The machine's CPU per page (the database's and this process's): what the page costs, steady
    // where the host's steal moves the p95.
    put(`trends: ${name} (CPU per page)`, (c1.busy - c0.busy) / RUNS, 'ms');
    log(`  trends: ${name}: host steal ${((c1.steal - c0.steal) / RUNS).toFixed(1)} ms per page`);
  }
  {
    const filters = resolveTrendsFilters({ range: '30' }, today);
    const [a, b] = await Promise.all([
      getTrendsData(filters, { database: d }),
      getTrendsData(filters, { source: 'raw', database: d }),
    ]);
    checks.check(
      `${label}: trends rollup = raw rows (30 days)`,
      JSON.stringify({ ...a, asOf: null }) === JSON.stringify({ ...b, asOf: null }),
      `${n(a.kpis.current.executions)} and ${n(b.kpis.current.executions)} executions`,
    );
  }

  // The queues page, then "next case" by 20 claimers at once.
  put('queues page data', (await timeIt(() => getQueuesPage(null, d), 30)).p95, 'ms', 100);
  // As many claims as the analysts' queues hold open cases, up to CLAIMS (a quick run has fewer).
  const openNow = (
    await d.execute<{ n: number }>(
      sql`select count(*)::int as n from cases where state = 'open'
        and queue_id in (select id from case_queues where not archived and min_role = 'analyst')`,
    )
  ).rows[0].n;
  const wanted = Math.min(CLAIMS, openNow);
  const claimed: string[] = [];
  const latencies: number[] = [];
  const tc = performance.now();
  await Promise.all(
    users.map(async (u) => {
      while (claimed.length < wanted) {
        const s = performance.now();
        const r = await claimNextCase({ ...u, role: 'analyst' }, {}, d);
        if (!r.ok || !r.data) return;
        latencies.push(performance.now() - s);
        claimed.push(r.data.caseId);
      }
    }),
  );
  const claimSecs = (performance.now() - tc) / 1000;
  const twice = (await d.execute<{ n: number }>(sql.raw(CLAIMED_WHILE_HELD_SQL))).rows[0].n;
  checks.check(
    `${label}: no case claimed twice`,
    claimed.length === new Set(claimed).size && twice === 0 && claimed.length >= wanted,
    `${n(claimed.length)} claims, ${claimed.length - new Set(claimed).size} twice in the tally, ${twice} claimed while held`,
  );
  put('claim (20 claimers)', spread(latencies).p95, 'ms', 25);
  put('claims per second', claimed.length / claimSecs, '/s');

  // The read API's change feed, walked from the middle, 40 pages of 500.
  const { listExecutionChanges } = await import('@/lib/executions/changes');
  const mid = (
    await d.execute<{ txid: string; id: string }>(
      sql`select change_txid::text as txid, id::text from executions order by change_txid, id offset ${Math.floor(total / 2)} limit 1`,
    )
  ).rows[0];
  let after: FeedPosition = { txid: mid.txid, key: mid.id };
  const start = after;
  const seen: string[] = [];
  const pages: number[] = [];
  for (let p = 0; p < 40; p++) {
    const s = performance.now();
    const page = await listExecutionChanges({ after, limit: 500 });
    pages.push(performance.now() - s);
    seen.push(...page.items.map((i) => i.id));
    if (!page.next) break;
    after = page.next;
  }
  const direct = (
    await d.execute<{ id: string }>(
      sql`select id::text from executions where (change_txid, id) > (${start.txid}::xid8, ${start.key}::uuid)
        order by change_txid, id limit 20000`,
    )
  ).rows.map((r) => r.id);
  checks.check(
    `${label}: the feed's pages = one ordered scan`,
    seen.length > 0 && seen.join() === direct.join(),
    `${n(seen.length)} changes in 40 pages${seen.join() === direct.join() ? ', the same ids in the same order' : ', different'}`,
  );
  put('feed page (500 changes)', spread(pages).p95, 'ms');

  // Ingest: new executions (a run-tagged generator seed gives fresh ids) in pages of 100.
  const { ingestMany } = await import('@/lib/sync/ingest');
  const tag = `growth-${label}-${Date.now().toString(36)}`;
  const anchor = new Date();
  const perPage: number[] = [];
  const ids: string[] = [];
  for (let p = 0; p < 10; p++) {
    const page = Array.from({ length: 100 }, (_, i) => ({
      result: generateExecution(tag, p * 100 + i, { count: 1000, days: 1, anchor }).result,
      fetchedAt: new Date(),
    }));
    const s = performance.now();
    await ingestMany(d, page);
    perPage.push(performance.now() - s);
    ids.push(...page.map((x) => x.result.workflow.id));
  }
  const stored = (
    await d.execute<{ n: number }>(
      sql`select count(*)::int as n from executions where id = any(${`{${ids.join(',')}}`}::uuid[])`,
    )
  ).rows[0].n;
  checks.check(`${label}: every ingested execution stored`, stored === ids.length, `${stored} of ${ids.length}`);
  put('ingest (executions/s, pages of 100)', 100_000 / spread(perPage).p50, '/s', 200);

  // The audit chain: the claims' entries sealed first, then the whole chain verified.
  while ((await sealAuditLog(d, { batch: 5000 })).sealed > 0);
  let restore: (() => Promise<unknown>) | null = null;
  if (BREAK === 'tamper') {
    await d.execute(sql`alter table audit_log disable trigger audit_log_no_update`);
    await d.execute(sql`update audit_log set ip = '203.0.113.9' where seq = 7`);
    restore = () => d.execute(sql`alter table audit_log enable trigger audit_log_no_update`);
  }
  const tv = performance.now();
  const v = await verifyChain(d, { key: KEY });
  const verifyS = (performance.now() - tv) / 1000;
  await restore?.();
  const entries = Number((await d.execute<{ n: string }>(sql`select count(*) as n from audit_log`)).rows[0].n);
  checks.check(
    `${label}: the audit chain verifies, every entry`,
    v.ok && v.entries === entries && v.checkpoints > 0 && v.checkpointsUnchecked === 0,
    `${n(v.entries)} of ${n(entries)} entries, ${v.checkpoints} checkpoints${v.failure ? `; broken at ${v.failure.seq}` : ''}`,
  );
  put('audit verify (whole chain)', verifyS, 's', 120);
  put('audit verify (entries/s)', v.entries / verifyS, '/s');
  // Last, so the worker's start finds the database as the measures above left it.
  const ws = await workerStart(DATABASE.url.toString());
  put('first start: worker process ready', ws.ready, 's');
  // Its stop waits on timers (the jobs' grace, the pool's idle close), not on the data: shown, not compared.
  log(`  first start: the worker stopped ${ws.stop.toFixed(1)} s after SIGTERM`);
  for (const [name, x] of f) log(`  ${name.padEnd(52)} ${fmt(x)}`);
  return f;
}

const fmt = (x: Figure) =>
  x.unit === 'ms' ? `${x.value.toFixed(2)} ms` : x.unit === 's' ? `${x.value.toFixed(1)} s` : `${x.value.toFixed(0)}/s`;

async function sizes(d: Db) {
  const r = (
    await d.execute<{
      db: string;
      ex: string;
      audit: string;
      n: string;
    }>(sql`select pg_database_size(current_database())::text as db,
      (pg_total_relation_size('executions') + pg_total_relation_size('execution_search_postings'))::text as ex,
      pg_total_relation_size('audit_log')::text as audit,
      (select count(*) from executions)::text as n`)
  ).rows[0];
  const gb = (b: string) => `${(Number(b) / 1e9).toFixed(2)} GB`;
  const perM = (Number(r.ex) / Number(r.n)) * 1e6;
  log(
    `  disk: database ${gb(r.db)}; executions with indexes and search postings ${gb(r.ex)} (${(perM / 1e9).toFixed(2)} GB per million); audit log ${gb(r.audit)}`,
  );
}

/** `--reuse`: the kept database measured once more as it is (after a change to the code or its indexes). */
async function remeasure() {
  const d = createDb(DATABASE.url.toString(), CLAIMERS + 4);
  process.env.DATABASE_URL = DATABASE.url.toString();
  try {
    await runMigrations(DATABASE.url.toString());
    const users = (
      await d.execute<{ id: string; email: string }>(
        sql`select id, email from users where email like 'bench-claimer-%@bench.local' order by email`,
      )
    ).rows;
    const total = Number((await d.execute<{ n: string }>(sql`select count(*) as n from executions`)).rows[0].n);
    await measure(d, `${n(total)} (reused)`, users);
    await sizes(d);
  } finally {
    await d.$client.end();
    await closeDb();
  }
  checks.finish();
}

async function main() {
  if (benchFlag('reuse')) return remeasure();
  const url = DATABASE.url;
  log(
    `bench:growth on ${DB_NAME}: ${n(BASE)} then ${n(ROWS)} executions and audit entries [load ${load()}, ${os.availableParallelism()} cores]`,
  );
  await DATABASE.drop();
  await DATABASE.create();
  await runMigrations(url.toString());
  const d = createDb(url.toString(), CLAIMERS + 4);
  // The seeding vacuums and analyzes what it loads; what the measures write is left to the server.
  const vacuum = (await d.execute<{ autovacuum: string }>(sql`show autovacuum`)).rows[0].autovacuum;
  log(
    `  autovacuum ${vacuum} on this server${vacuum === 'off' ? ' (as CI sets it): rows the measures write stay unvacuumed and unanalyzed' : ''}`,
  );
  // The feed and ingest reach the process's database through `db()`.
  process.env.DATABASE_URL = url.toString();
  const anchor = new Date();
  anchor.setUTCMinutes(0, 0, 0);
  const tag = Date.now().toString(16).slice(-8);
  const results: Figures[] = [];
  const seedTimes: string[] = [];
  const extra: string[] = [];
  try {
    const users = (
      await d.execute<{ id: string; email: string }>(sql`
        insert into users (email, name, role)
        select 'bench-claimer-' || lpad(i::text, 2, '0') || '@bench.local', 'Claimer ' || i, 'analyst'
        from generate_series(1, ${CLAIMERS}) i returning id, email`)
    ).rows;
    for (const [stage, phases] of [
      ['1M', [0]],
      ['10M', Array.from({ length: EVERY - 1 }, (_, k) => k + 1)],
    ] as const) {
      const label = stage === '1M' ? n(BASE) : n(ROWS);
      log(`\nSeeding to ${label} executions [load ${load()}]`);
      const t0 = performance.now();
      await seedByCopy(url.toString(), ROWS, { every: EVERY, phases: [...phases], anchor, tag });
      const tExec = performance.now() - t0;
      const t1 = performance.now();
      const have = Number((await d.execute<{ n: string }>(sql`select count(*) as n from audit_log`)).rows[0].n);
      await appendAuditEntries(url.toString(), (stage === '1M' ? BASE : ROWS) - have, KEY);
      const tAudit = performance.now() - t1;
      const t2 = performance.now();
      await rebuildRollup(d);
      await d.execute(sql.raw(`vacuum analyze ${ROLLUP_TABLE_LIST}`));
      const tRollup = performance.now() - t2;
      const t3 = performance.now();
      // History grows with the executions; the backlog is what people have not worked yet, so it
      // stays: a tenth of the first 1,000,000 open, a twentieth of every million resolved. The
      // queues page with a backlog ten times as large is timed separately at the end.
      const scale = stage === '1M' ? BASE : ROWS - BASE;
      await openCases(d, stage === '1M' ? BASE / 10 : 0, scale / 20);
      const tCases = performance.now() - t3;
      const line = `${label}: executions ${(tExec / 1000).toFixed(0)} s, audit entries ${(tAudit / 1000).toFixed(0)} s, rollup ${(tRollup / 1000).toFixed(0)} s, cases ${(tCases / 1000).toFixed(0)} s`;
      seedTimes.push(line);
      log(`  seeded: ${line}`);
      results.push(await measure(d, label, users));
      await sizes(d);
    }
    // The queues page when the backlog grew with the history too (a tenth of every execution open).
    const tb = performance.now();
    await openCases(d, (ROWS - BASE) / 10, 0);
    const open = (await d.execute<{ n: number }>(sql`select count(*)::int as n from cases where state = 'open'`))
      .rows[0].n;
    const backlog = await timeIt(() => getQueuesPage(null, d), 30);
    extra.push(
      `queues page data with ${n(open)} open cases (opened in ${secs(tb)}): p50 ${backlog.p50.toFixed(2)} ms, p95 ${backlog.p95.toFixed(2)} ms (target 100)`,
    );
  } finally {
    await d.$client.end();
    await closeDb();
    if (!benchFlag('keep')) await DATABASE.drop();
  }

  const [small, big] = results;
  log(`\nGrowth from ${n(BASE)} to ${n(ROWS)} executions [load ${load()}]:`);
  log(`${'figure'.padEnd(52)} ${n(BASE).padStart(12)} ${n(ROWS).padStart(12)}  ratio  target   within 1.5x`);
  let flat = 0;
  let met = 0;
  for (const [name, a] of small) {
    const b = big.get(name);
    if (!b) continue;
    const ratio = a.unit === '/s' ? a.value / b.value : b.value / a.value;
    // A whole-chain verify reads every entry: its time grows with the chain by design (entries/s is the flat figure).
    const grows = name === 'audit verify (whole chain)';
    const ok = grows || ratio <= 1.5;
    const targetOk = b.target === undefined ? null : a.unit === '/s' ? b.value >= b.target : b.value <= b.target;
    if (ok) flat++;
    if (targetOk !== false) met++;
    log(
      `${name.padEnd(52)} ${fmt(a).padStart(12)} ${fmt(b).padStart(12)} ${ratio.toFixed(2).padStart(6)}x ${(b.target === undefined ? '' : `${a.unit === '/s' ? '>=' : '<='} ${b.target}`).padStart(7)}${targetOk === false ? ' MISSED' : ''}   ${grows ? '(grows with the chain)' : ok ? 'yes' : 'NO'}`,
    );
  }
  log(
    `\n${flat} of ${small.size} figures within 1.5x of their ${n(BASE)} value; ${met} of ${small.size} within their target at ${n(ROWS)}.`,
  );
  for (const line of extra) log(line);
  log('Seeding:');
  for (const s of seedTimes) log(`  ${s}`);
  checks.finish();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
