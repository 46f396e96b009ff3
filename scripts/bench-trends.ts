/**
 * `npm run bench:trends`: the trends page's data at one million executions over 365 days.
 *
 * Seeds a dedicated database on the local Postgres (TEST_DATABASE_URL's server, else
 * postgres://postgres@127.0.0.1:5432) straight in SQL with realistic mixes of decisions, scores,
 * countries, document types, labels, rules and feedback; builds the rollup from the raw rows;
 * then times the page's whole set of queries (what `getTrendsData` runs for one page view) from
 * the rollup and the same queries over the raw tables, and prints p50 / p95 and their ratio.
 *
 * Options: --executions=N (default 1,000,000), --runs=N (rollup runs per scenario, default 20),
 * --keep (keep the database and reuse it next time), --reseed (seed again even when kept),
 * --raw-runs=N (raw runs per scenario, default 5; 0 skips them), --breakdown (each rollup query's
 * median time per scenario, the queries run one after another), --only=N,M (scenario numbers, 1-based),
 * --no-rebuild (keep the kept database's rollup as it is).
 *
 * Checked for every scenario (exit 1 when wrong): the page's data from the rollup equals the same
 * data from the raw rows. `--break=rollup` drops the last 10 days' rejections from the
 * rollup before the scenarios are timed (every scope), so that every scenario's check fails.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createDb, type Db } from '@/lib/db/client';
import { runMigrations } from '@/lib/db/migrate';
import { getTrendsData, type TrendsSource } from '@/lib/trends/queries';
import { addDays, bucketsOf, isoDay, resolveTrendsFilters } from '@/lib/trends/shared';
import { rebuildRollup, ROLLUP_TABLE_LIST } from '@/lib/sync/rollup';
import { measureUpkeep } from './bench/rollup-upkeep';
import { benchDatabase, benchDatabaseName, breakOption, Checks, pct as percentile } from './bench/verdict';

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const flag = (name: string) => process.argv.includes(`--${name}`);
const EXECUTIONS = Number(arg('executions', '1000000'));
const RUNS = Number(arg('runs', '20'));
const RAW_RUNS = Number(arg('raw-runs', '5'));
const ONLY = process.argv.some((a) => a.startsWith('--only=')) ? arg('only', '').split(',').map(Number) : null;
const DB_NAME = benchDatabaseName('trends');
const DATABASE = benchDatabase(DB_NAME);
const BREAK = breakOption(['rollup'] as const);
const checks = new Checks('[bench:trends] ');

const log = (s: string) => console.log(`[bench:trends] ${s}`);
const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

const COUNTRIES = [
  'DEU',
  'FRA',
  'GBR',
  'ESP',
  'ITA',
  'NLD',
  'POL',
  'USA',
  'BRA',
  'IND',
  'TUR',
  'ROU',
  'PRT',
  'BEL',
  'AUT',
  'CHE',
  'SWE',
  'MEX',
  'NGA',
  'UKR',
  'GRC',
  'CZE',
  'HUN',
  'IRL',
  'DNK',
  'FIN',
  'NOR',
  'CAN',
  'AUS',
  'JPN',
];
const DEFINITIONS = ['10013', '10014', '20001', 'kyc-basic'];
const DOC_TYPES = ['PASSPORT', 'ID_CARD', 'DRIVING_LICENSE', 'VISA'];
const REJECTIONS = [
  'usability:BLURRED',
  'usability:GLARE',
  'usability:PART_OF_DOCUMENT_MISSING',
  'liveness:DIGITAL_COPY',
  'liveness:MANIPULATED',
  'imageChecks:MANIPULATED_DOCUMENT',
  'imageChecks:FAKE',
  'similarity:NO_MATCH',
  'dataChecks:MRZ_CHECKSUM',
  'dataChecks:CUSTOMER_FEEDBACK',
];
const WARNINGS = [
  'similarity:NOT_POSSIBLE',
  'liveness:AGE_DIFFERENCE',
  'watchlistScreening:ALERT',
  'imageChecks:REPEATED_FACE',
  'usability:UNSUPPORTED_DOCUMENT_TYPE',
];
const REASONS = ['IDENTITY_FRAUD', 'SYNTHETIC_ID_FRAUD', 'THIRD_PARTY_FRAUD', 'ACCOUNT_TAKEOVER', 'FIRST_PARTY_FRAUD'];
const PASS_TAGS = [
  'usability:PASSED',
  'usability:label:OK',
  'extraction:PASSED',
  'extraction:label:OK',
  'imageChecks:PASSED',
  'imageChecks:label:OK',
  'liveness:PASSED',
  'liveness:label:OK',
];
const lit = (xs: string[]) => `array[${xs.map((x) => `'${x}'`).join(',')}]`;

/** One million rows straight in SQL; indexes are dropped for the load and rebuilt after, as a restore would. */
async function seed(c: Client, n: number) {
  const t0 = performance.now();
  // The cascade reaches the append-only feedback tables, whose truncate triggers refuse it: this
  // is the bench's own database, so skip triggers for the reset (superuser, as the local server is).
  await c.query('set session_replication_role = replica');
  await c.query('truncate executions cascade');
  await c.query('set session_replication_role = default');
  // Dropped after the reset, so a failed reset cannot leave a kept database without them.
  const idx = await c.query<{ indexdef: string; indexname: string }>(
    `select indexname, indexdef from pg_indexes where tablename in ('executions', 'rule_results') and indexname not like '%_pkey'`,
  );
  for (const i of idx.rows) await c.query(`drop index "${i.indexname}"`);
  await c.query(`truncate ${ROLLUP_TABLE_LIST}`);
  await c.query('select setseed(0.42)');
  // Decisions 70 / 15 / 12 / 3 %, scores in their default bands (-1 for not executed), skewed
  // countries and document types, a quiet weekend dip, and an attack wave of rejections 40 days ago.
  await c.query(
    `
    insert into executions (id, account_id, status, status_rank, decision_type, decision_label, risk_score, definition_key,
      created_at, completed_at, issuing_country, document_type, capability_tags, feedback_status, feedback_reason, fetched_at, has_personal_data)
    select gen_random_uuid(), gen_random_uuid(), 'PROCESSED', 3, d.decision, d.decision,
      case d.decision when 'PASSED' then floor(r3 * 31)::int when 'WARNING' then 31 + floor(r3 * 40)::int
                      when 'REJECTED' then 71 + floor(r3 * 30)::int else -1 end,
      (${lit(DEFINITIONS)})[1 + floor(power(r4, 2) * ${DEFINITIONS.length})::int],
      s.created_at, s.created_at + interval '40 seconds',
      case when r5 < 0.02 then null else (${lit(COUNTRIES)})[1 + floor(power(r6, 2.5) * ${COUNTRIES.length})::int] end,
      (${lit(DOC_TYPES)})[1 + floor(power(r7, 1.6) * ${DOC_TYPES.length})::int],
      case d.decision
        when 'REJECTED' then array[split_part(rej, ':', 1) || ':REJECTED', split_part(rej, ':', 1) || ':label:' || split_part(rej, ':', 2)] || ${lit(PASS_TAGS.slice(2, 4))}
        when 'WARNING' then array[split_part(wrn, ':', 1) || ':WARNING', split_part(wrn, ':', 1) || ':label:' || split_part(wrn, ':', 2)] || ${lit(PASS_TAGS.slice(0, 4))}
        when 'NOT_EXECUTED' then array['usability:NOT_EXECUTED', 'usability:label:TECHNICAL_ERROR']
        else ${lit(PASS_TAGS)} end,
      f.status, case when f.status = 'FRAUD' then (${lit(REASONS)})[1 + floor(r9 * ${REASONS.length})::int] end,
      s.created_at + interval '1 minute', false
    from (
      select g, random() as r1, random() as r2, random() as r3, random() as r4, random() as r5, random() as r6, random() as r7, random() as r8, random() as r9,
        (${lit(REJECTIONS)})[1 + floor(power(random(), 1.3) * ${REJECTIONS.length})::int] as rej,
        (${lit(WARNINGS)})[1 + floor(random() * ${WARNINGS.length})::int] as wrn,
        date_trunc('second', now() - (power(random(), 0.97) * interval '365 days')) as created_at
      from generate_series(1, $1::int) g
    ) s
    cross join lateral (select case
        when extract(day from now() - s.created_at)::int = 40 and s.r2 < 0.5 then 'REJECTED'
        when r1 < 0.70 then 'PASSED' when r1 < 0.85 then 'WARNING' when r1 < 0.97 then 'REJECTED' else 'NOT_EXECUTED' end as decision) d
    cross join lateral (select case
        when d.decision = 'REJECTED' and r8 < 0.20 then 'FRAUD' when d.decision = 'REJECTED' and r8 < 0.25 then 'NOT_FRAUD'
        when d.decision = 'WARNING' and r8 < 0.05 then 'FRAUD' when d.decision = 'WARNING' and r8 < 0.10 then 'NOT_FRAUD'
        when d.decision = 'PASSED' and r8 < 0.003 then 'FRAUD' when d.decision = 'PASSED' and r8 < 0.013 then 'NOT_FRAUD' end as status) f`,
    [n],
  );
  log(`  executions: ${secs(t0)}`);
  const t1 = performance.now();
  // Matched rules: more for worse decisions, skewed towards a few busy rules; one rule that never matches.
  await c.query(`
    insert into rule_results (execution_id, rule_execution_id, ruleset_id, ruleset_name, rule_id, rule_name, score, matched)
    select e.id, e.id::text, 'rs-main', 'Main', 'r' || lpad(k::text, 2, '0'), 'Rule ' || k, 10, true
    from executions e cross join lateral (
      select distinct 1 + floor(power(random(), 1.5) * 15)::int as k
      from generate_series(1, case e.decision_type when 'REJECTED' then 3 when 'WARNING' then 2 when 'PASSED' then (random() < 0.4)::int else 0 end)
    ) r`);
  await c.query(`
    insert into rule_results (execution_id, rule_execution_id, ruleset_id, ruleset_name, rule_id, rule_name, score, matched)
    select id, id::text, 'rs-main', 'Main', 'r99', 'Sanctioned BIN', 50, false from executions`);
  log(`  rule results: ${secs(t1)}`);
  const t2 = performance.now();
  for (const i of idx.rows) await c.query(i.indexdef);
  await c.query('vacuum analyze executions');
  await c.query('vacuum analyze rule_results');
  log(`  indexes and analyze: ${secs(t2)}`);
}

/** The shared percentile, with p as a fraction as this file writes it. */
const pct = (xs: number[], p: number) => percentile(xs, p * 100);

async function time(db: Db, f: ReturnType<typeof resolveTrendsFilters>, source: TrendsSource, runs: number) {
  if (runs <= 0) return { p50: NaN, p95: NaN };
  await getTrendsData(f, { source, database: db }); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await getTrendsData(f, { source, database: db });
    ms.push(performance.now() - t);
  }
  return { p50: pct(ms, 0.5), p95: pct(ms, 0.95) };
}

async function main() {
  const url = DATABASE.url;
  const exists = await DATABASE.exists();
  if (exists && !flag('keep')) await DATABASE.drop();
  if (!exists || !flag('keep')) await DATABASE.create();
  await runMigrations(url.toString());
  const db = createDb(url.toString(), 10);
  const c = new Client({ connectionString: url.toString() });
  await c.connect();
  try {
    const have = Number((await c.query('select count(*) from executions')).rows[0].count);
    if (have !== EXECUTIONS || flag('reseed')) {
      log(`Seeding ${EXECUTIONS.toLocaleString('en-US')} executions over 365 days into ${DB_NAME}…`);
      const t0 = performance.now();
      await seed(c, EXECUTIONS);
      log(`Seeded in ${secs(t0)}.`);
    } else log(`Reusing ${have.toLocaleString('en-US')} executions in ${DB_NAME}.`);

    const t0 = performance.now();
    // --no-rebuild (with --keep): time the kept rollup as it is, to iterate on the queries.
    const built = flag('no-rebuild') ? { executions: NaN } : await rebuildRollup(db);
    await c.query(`vacuum analyze ${ROLLUP_TABLE_LIST}`);
    const sizes = await c.query<{ t: string; n: string }>(
      `select relname as t, n_live_tup::text as n from pg_stat_user_tables where relname like 'trend_%' order by 1`,
    );
    log(
      `Rollup rebuilt from raw rows in ${secs(t0)} (${built.executions.toLocaleString('en-US')} executions; rows: ${sizes.rows.map((r) => `${r.t} ${Number(r.n).toLocaleString('en-US')}`).join(', ')}).`,
    );

    // What ingest adds per execution, the ways ingest calls the rollup (scripts/bench/rollup-upkeep.ts).
    const u = await measureUpkeep(url.toString(), c);
    const way = (w: (typeof u)['page']) =>
      `${w.p50.toFixed(2)} ms (p95 ${w.p95.toFixed(2)}), CPU ${w.cpu.toFixed(2)} ms (database ${w.dbCpu.toFixed(2)})`;
    log(`Rollup upkeep per ingested execution, inside ingest's transaction (target: at most 2 ms):`);
    log(`  in a page of ${u.pageSize} (backfill, poll):            ${way(u.page)}`);
    log(`  alone in its transaction (fetch after a callback): ${way(u.alone)}`);
    log(
      `  baseline, one call per execution in one transaction: ${way(u.naive)}; ${(u.naive.cpu / u.page.cpu).toFixed(1)}x the CPU of a page's, ${(u.naive.cpu / u.alone.cpu).toFixed(1)}x alone`,
    );

    if (BREAK === 'rollup') {
      // After the upkeep measurement, which writes rollup rows of its own.
      const gone = await c.query(
        `delete from trend_decisions where decision_type = 'REJECTED' and day >= current_date - 10`,
      );
      log(`--break=rollup: ${gone.rowCount} rollup rows of the last 10 days' rejections dropped`);
    }

    const today = isoDay(new Date());
    const scenarios: Array<[string, Record<string, string>]> = [
      ['30 days by day (default)', { range: '30' }],
      ['90 days by week', { range: '90' }],
      ['365 days by month', { range: '365' }],
      ['365 days by day', { range: '365', granularity: 'day' }],
      [
        '365 days by week, country + document type',
        { range: '365', granularity: 'week', country: 'DEU', docType: 'PASSPORT' },
      ],
    ];
    console.log('');
    console.log(
      `Trends page data, ${EXECUTIONS.toLocaleString('en-US')} executions over 365 days (server time of all queries of one page view, ms):`,
    );
    console.log(
      `${'scenario'.padEnd(44)} ${'rollup p50'.padStart(10)} ${'p95'.padStart(8)}   ${'raw p50'.padStart(9)} ${'p95'.padStart(8)}   ratio`,
    );
    for (const [name, q] of scenarios) {
      if (ONLY && !ONLY.includes(scenarios.findIndex((x) => x[0] === name) + 1)) continue;
      const f = resolveTrendsFilters(q, today);
      const r = await time(db, f, 'rollup', RUNS);
      const w = await time(db, f, 'raw', RAW_RUNS);
      console.log(
        `${name.padEnd(44)} ${r.p50.toFixed(1).padStart(10)} ${r.p95.toFixed(1).padStart(8)}   ${w.p50.toFixed(0).padStart(9)} ${w.p95.toFixed(0).padStart(8)}   ${(w.p50 / r.p50).toFixed(0)}x`,
      );
      if (flag('breakdown')) {
        // Each query on its own (one after another), median of the runs, slowest first.
        const per: Record<string, number[]> = {};
        for (let i = 0; i < Math.max(3, Math.min(RUNS, 10)); i++) {
          const timings: Record<string, number> = {};
          await getTrendsData(f, { database: db, timings });
          for (const [k, v] of Object.entries(timings)) (per[k] ??= []).push(v);
        }
        const med = Object.entries(per)
          .map(([k, v]) => [k, pct(v, 0.5)] as const)
          .sort((a, b) => b[1] - a[1]);
        console.log(
          `    ${med.map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')} (sum ${med.reduce((a, [, v]) => a + v, 0).toFixed(1)})`,
        );
      }
      // The numbers must be the same whichever way they are computed, in every scenario.
      const [a, b] = await Promise.all([
        getTrendsData(f, { database: db }),
        getTrendsData(f, { source: 'raw', database: db }),
      ]);
      checks.check(
        `${name}: rollup = raw rows`,
        JSON.stringify({ ...a, asOf: null }) === JSON.stringify({ ...b, asOf: null }),
        `${a.kpis.current.executions.toLocaleString('en-US')} and ${b.kpis.current.executions.toLocaleString('en-US')} executions, ${bucketsOf(f).length} buckets, ${a.alerts.length} and ${b.alerts.length} alerts${name.startsWith('30 days') ? `; wave on ${addDays(today, -40)}` : ''}`,
      );
    }
    console.log('');
    console.log(`Target: at most 100 ms for the whole page's data at one million executions (rollup p95 above).`);
  } finally {
    await c.end();
    await db.$client.end();
    if (!flag('keep')) await DATABASE.drop();
  }
  checks.finish();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
