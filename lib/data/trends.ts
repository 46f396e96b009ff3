import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import { db, type Db } from '@/lib/db/client';
import {
  createdInRange,
  labelsOfExecution,
  MONTH_SCOPE,
  rollupColumns,
  rulesOfExecution,
  SCOPE,
} from '@/lib/sync/rollup';
import {
  addDays,
  bucketsOf,
  previousPeriod,
  sortDecisions,
  SPIKE_RULE,
  type Bucket,
  type Granularity,
  type Kpi,
  type SpikeAlert,
  type TrendsData,
  type TrendsFilters,
} from './trends-shared';

/**
 * Data of the trends page. Every number is aggregated in SQL, from the daily rollup
 * (lib/sync/rollup.ts) by default. `source: 'raw'` runs the very same queries over rows
 * grouped on the fly from the executions tables: the equality test and the benchmark use it.
 */
export type TrendsSource = 'rollup' | 'raw';

type Dim = 'definitionKey' | 'country' | 'docType';
const DIM_COLUMN: Record<Dim, { column: string; bit: number; raw: SQL }> = {
  definitionKey: { column: 'definition_key', bit: SCOPE.definitionKey, raw: rollupColumns.definitionKey },
  country: { column: 'issuing_country', bit: SCOPE.issuingCountry, raw: rollupColumns.issuingCountry },
  docType: { column: 'document_type', bit: SCOPE.documentType, raw: rollupColumns.documentType },
};

interface Slice {
  from: string;
  to: string;
  definitionKey?: string;
  country?: string;
  docType?: string;
  /** A filter dimension to break down by: returned as `key`. */
  by?: Dim;
  /**
   * Whole months may come from the month rows (their `day` is the first of the month): for
   * queries that sum the whole range or bucket by month, never for days or weeks.
   */
  months?: boolean;
}

/**
 * The rollup reads of a range: day rows for the partial months at its edges, month rows for
 * the whole months between (when allowed), as (grain, from, to) with `day` bounds for each.
 */
function tiersOf(from: string, to: string, months: boolean): Array<{ grain: number; from: string; to: string }> {
  if (!months) return [{ grain: 0, from, to }];
  const firstFull = from.endsWith('-01') ? from : nextMonth(from);
  const lastFullEnd = addDays(nextMonth(to), -1) === to ? to : addDays(`${to.slice(0, 7)}-01`, -1);
  if (firstFull > lastFullEnd) return [{ grain: 0, from, to }];
  const out = [{ grain: MONTH_SCOPE, from: firstFull, to: `${lastFullEnd.slice(0, 7)}-01` }];
  if (from < firstFull) out.push({ grain: 0, from, to: addDays(firstFull, -1) });
  if (lastFullEnd < to) out.push({ grain: 0, from: addDays(lastFullEnd, 1), to });
  return out;
}
/** The first day of the month after `day`'s. */
function nextMonth(day: string): string {
  const [y, m] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

type Fact = 'decisions' | 'risk' | 'riskDays' | 'labels' | 'rules';
const FACTS: Record<
  Fact,
  { table: string; columns: string[]; raw: (c: typeof rollupColumns) => SQL; join?: SQL; where?: SQL }
> = {
  decisions: {
    table: 'trend_decisions',
    columns: ['decision_type', 'feedback_status', 'feedback_reason'],
    raw: (c) =>
      sql`${c.decisionType} as decision_type, ${c.feedbackStatus} as feedback_status, ${c.feedbackReason} as feedback_reason`,
  },
  risk: {
    table: 'trend_risk',
    columns: ['risk_score'],
    raw: () => sql`e.risk_score`,
    where: sql`e.risk_score is not null`,
  },
  // Day summaries of the scores 0..100 (rollup only: raw rows use the histogram).
  riskDays: {
    table: 'trend_risk_days',
    columns: ['sum', 'p90'],
    raw: () => sql`null::bigint as sum, null::int as p90`,
  },
  labels: {
    table: 'trend_labels',
    columns: ['capability', 'decision_type', 'label'],
    raw: () => sql`l.capability, l.decision_type, l.label`,
    join: sql`cross join lateral ${labelsOfExecution} l`,
  },
  rules: {
    table: 'trend_rules',
    columns: ['rule_id', 'feedback_status'],
    raw: (c) => sql`r.rule_id, ${c.feedbackStatus} as feedback_status`,
    join: sql`cross join lateral ${rulesOfExecution} r`,
  },
};

/**
 * Rows `(day, key, <fact columns>, n)` for a slice: from the rollup, the cube rows of exactly
 * this combination of filters; from raw rows, the same grouping computed from the executions.
 */
function source(fact: Fact, s: Slice, mode: TrendsSource): SQL {
  const f = FACTS[fact];
  const cols = sql.raw(f.columns.join(', '));
  const dims = Object.keys(DIM_COLUMN) as Dim[];
  if (mode === 'rollup') {
    let scope = 0;
    const fixed: SQL[] = [];
    for (const d of dims) {
      const value = s[d];
      // The breakdown dimension is kept (its every value is a row) and filtered only when set.
      if (d === s.by && value === undefined) continue;
      if (value === undefined) scope |= DIM_COLUMN[d].bit;
      fixed.push(sql`${sql.identifier(DIM_COLUMN[d].column)} = ${value ?? ''}`);
    }
    const table = sql.identifier(f.table);
    const key = s.by ? sql.identifier(DIM_COLUMN[s.by].column) : sql`''`;
    // One index range per tier: (scope, filters…, day between).
    const reads = (extra: SQL[]) =>
      sql.join(
        tiersOf(s.from, s.to, Boolean(s.months)).map(
          (t) => sql`select day, ${key}::text as key, ${cols}, n from ${table}
            where scope = ${scope + t.grain} and ${sql.join([...fixed, ...extra, sql`day between ${t.from}::date and ${t.to}::date`], sql` and `)}`,
        ),
        sql` union all `,
      );
    if (!s.by || s[s.by] !== undefined) return sql`(${reads([])})`;
    // A breakdown: find its values with a skip scan of the primary key, then read each value's
    // days as index ranges, instead of filtering every value's every day.
    const by = sql.identifier(DIM_COLUMN[s.by].column);
    const t = sql.raw(['day', 'key', ...f.columns, 'n'].map((c) => `t.${c}`).join(', '));
    return sql`(select ${t} from ${distinctValues(f.table, scope, fixed, s.by)} v
      cross join lateral (${reads([sql`${by} = v.v`])} offset 0) t)`;
  }
  const where: SQL[] = [createdInRange(s)];
  if (f.where) where.push(f.where);
  for (const d of dims) if (s[d] !== undefined) where.push(sql`${DIM_COLUMN[d].raw} = ${s[d]}`);
  const key = s.by ? DIM_COLUMN[s.by].raw : sql`''`;
  return sql`(select day, key, ${cols}, count(*)::int as n from (
      select ${rollupColumns.day} as day, ${key}::text as key, ${f.raw(rollupColumns)}
      from executions e ${f.join ?? sql``} where ${sql.join(where, sql` and `)}
    ) x group by day, key, ${cols})`;
}

/**
 * The distinct values `v` of one dimension within a scope, by a recursive skip scan of the
 * primary key (scope, definition_key, issuing_country, document_type, …): one index probe per
 * value, whatever the number of rows. `fixed` are equality conditions on the other dimensions.
 */
function distinctValues(table: string, scope: number, fixed: SQL[], dim: Dim): SQL {
  const t = sql.identifier(table);
  const col = sql.identifier(DIM_COLUMN[dim].column);
  const where = sql.join([sql`scope = ${scope}`, ...fixed], sql` and `);
  return sql`(with recursive vals(v) as (
      (select ${col} from ${t} where ${where} order by ${col} limit 1)
      union all
      select (select ${col} from ${t} where ${where} and ${col} > vals.v order by ${col} limit 1) from vals where vals.v is not null
    ) select v from vals where v is not null)`;
}

function bucketOf(g: Granularity): SQL {
  return g === 'day' ? sql`day` : sql`date_trunc(${g}, day)::date`;
}

const text = (x: SQL) => sql`to_char(${x}, 'YYYY-MM-DD')`;

async function rows<T extends Record<string, unknown>>(database: Db, query: SQL): Promise<T[]> {
  return (await database.execute<T>(query)).rows as T[];
}

type Ctx = {
  database: Db;
  f: TrendsFilters;
  mode: TrendsSource;
  /** The range, read by day (what daily windows need). */
  slice: Slice;
  /** The range for queries that sum it whole: month rows allowed. */
  whole: Slice;
  /** The range for the over-time charts: month rows allowed when the buckets are months. */
  series: Slice;
  buckets: Bucket[];
};

function indexOfBuckets(buckets: Bucket[]) {
  const idx = new Map(buckets.map((b, i) => [b.key, i]));
  return (key: string) => idx.get(key) ?? -1;
}

async function decisionsOverTime({ database, f, mode, series, buckets }: Ctx) {
  const r = await rows<{ bucket: string; decision: string; n: number }>(
    database,
    sql`
    select ${text(bucketOf(f.granularity))} as bucket, decision_type as decision, sum(n)::int as n
    from ${source('decisions', series, mode)} s group by 1, 2 order by bucket, decision_type collate "C"`,
  );
  const at = indexOfBuckets(buckets);
  const out = buckets.map(() => ({ total: 0, counts: {} as Record<string, number> }));
  for (const x of r) {
    const b = out[at(x.bucket)];
    b.counts[x.decision] = x.n;
    b.total += x.n;
  }
  return { series: out, types: sortDecisions(r.map((x) => x.decision)) };
}

async function riskDistribution({ database, mode, whole }: Ctx) {
  const r = await rows<{ score: number; n: number }>(
    database,
    sql`
    select risk_score as score, sum(n)::int as n from ${source('risk', whole, mode)} s group by 1 order by 1`,
  );
  const byScore = new Map(r.map((x) => [x.score, x.n]));
  const out: Array<{ score: number; n: number }> = [];
  for (let score = -1; score <= 100; score++) out.push({ score, n: byScore.get(score) ?? 0 });
  // Scores outside the documented -1..100 are kept and shown, never dropped.
  for (const x of r) if (x.score < -1 || x.score > 100) out.push(x);
  return out.sort((a, b) => a.score - b.score);
}

/**
 * Count, sum and 90th percentile of the scores 0..100 per period, from the histogram. p90 is
 * percentile_disc(0.9): the first score whose cumulative count reaches ceil(0.9 * n), computed
 * in float8 exactly as Postgres does, so it equals percentile_disc over the raw rows. Each
 * period's histogram comes back as two arrays (at most 101 scores) and the cumulative walk runs
 * here: two window passes over every (period, score) row cost more than the whole read.
 */
async function riskOverTime({ database, f, mode, series, buckets }: Ctx) {
  const at = indexOfBuckets(buckets);
  const out = buckets.map(() => ({ n: 0, sum: 0, p90: null as number | null }));
  if (mode === 'rollup' && f.granularity === 'day' && !series.months) {
    // Day buckets: the precomputed day summaries, one row a day.
    const d = await rows<{ bucket: string; n: number; sum: string; p90: number }>(
      database,
      sql`
      select ${text(sql`day`)} as bucket, n, sum, p90 from ${source('riskDays', series, mode)} s`,
    );
    for (const x of d) out[at(x.bucket)] = { n: x.n, sum: Number(x.sum), p90: x.p90 };
    return out;
  }
  const r = await rows<{ bucket: string; n: number; sum: string; scores: number[]; counts: number[] }>(
    database,
    sql`
    with h as (
      select ${bucketOf(f.granularity)} as bucket, risk_score as score, sum(n)::bigint as n
      from ${source('risk', series, mode)} s where risk_score >= 0 group by 1, 2
    )
    select ${text(sql`bucket`)} as bucket, sum(n)::int as n, sum(score::bigint * n)::bigint as sum,
      array_agg(score order by score) as scores, array_agg(n order by score) as counts
    from h group by bucket order by bucket`,
  );
  for (const x of r)
    out[at(x.bucket)] = { n: x.n, sum: Number(x.sum), p90: percentileDisc(x.scores, x.counts.map(Number), x.n, 0.9) };
  return out;
}

/** percentile_disc(p) of a histogram sorted by value: the first value whose cumulative count reaches ceil(p * total). */
export function percentileDisc(values: number[], counts: number[], total: number, p: number): number | null {
  if (total <= 0) return null;
  const rank = Math.ceil(p * total);
  let cum = 0;
  for (let i = 0; i < values.length; i++) {
    cum += counts[i];
    if (cum >= rank) return Number(values[i]);
  }
  return null;
}

/**
 * Series per key as one row per key: `bs` the buckets (days from the range's first day, as
 * `offsetOf` numbers them) and `ns` their counts. Thousands of (key, day) rows over the wire
 * cost more than the query; a dozen rows of two arrays do not.
 */
function seriesOf(buckets: Bucket[], from: string) {
  const day0 = Date.parse(`${from}T00:00:00Z`);
  const idx = new Map(buckets.map((b, i) => [Math.round((Date.parse(`${b.key}T00:00:00Z`) - day0) / 86_400_000), i]));
  return (bs: number[], ns: number[]) => {
    const series = buckets.map(() => 0);
    for (let i = 0; i < bs.length; i++) {
      const at = idx.get(bs[i]);
      if (at !== undefined) series[at] = ns[i];
    }
    return series;
  };
}
/** The bucket of a row as `seriesOf` numbers it. */
const offsetOf = (f: TrendsFilters) => sql`(${bucketOf(f.granularity)} - ${f.from}::date)`;

/** Per capability, its most frequent REJECTED / WARNING labels in the range, with their series. */
async function labelsOverTime({ database, f, mode, series, buckets }: Ctx, perCapability = 6) {
  // Grouped in the "C" collation (equality is the same, comparisons cheaper); the ranking runs
  // over the keys' totals, not every row.
  const r = await rows<{
    capability: string;
    decision_type: string;
    label: string;
    total: number;
    bs: number[];
    ns: number[];
  }>(
    database,
    sql`
    with g as (select ${offsetOf(f)} as b, capability collate "C" as capability, decision_type collate "C" as decision_type,
                 label collate "C" as label, sum(n)::int as n
               from ${source('labels', series, mode)} s group by 1, 2, 3, 4),
    t as (select capability, decision_type, label, sum(n)::int as total, array_agg(b order by b) as bs, array_agg(n order by b) as ns from g group by 1, 2, 3),
    r as (select t.*, dense_rank() over (partition by capability order by total desc, label, decision_type) as rk from t)
    select capability, decision_type, label, total, bs, ns from r where rk <= ${perCapability} order by capability, rk`,
  );
  const seriesFor = seriesOf(buckets, f.from);
  return r.map((x) => ({
    capability: x.capability,
    decisionType: x.decision_type,
    label: x.label,
    total: x.total,
    series: seriesFor(x.bs, x.ns),
  }));
}

async function ruleNames(database: Db, ids: string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const r = await rows<{ rule_id: string; rule_name: string | null }>(
    database,
    sql`
    select rule_id, rule_name from trend_rule_names where rule_id = any(${sql.param(ids)}::text[])`,
  );
  return new Map(r.map((x) => [x.rule_id, x.rule_name]));
}

async function rulesOverTime({ database, f, mode, series, buckets }: Ctx, limit = 8) {
  const r = await rows<{ rule_id: string; total: number; bs: number[]; ns: number[] }>(
    database,
    sql`
    with g as (select ${offsetOf(f)} as b, rule_id collate "C" as rule_id, sum(n)::int as n
               from ${source('rules', series, mode)} s group by 1, 2),
    t as (select rule_id, sum(n)::int as total, array_agg(b order by b) as bs, array_agg(n order by b) as ns from g group by 1),
    r as (select t.*, dense_rank() over (order by total desc, rule_id) as rk from t)
    select rule_id, total, bs, ns from r where rk <= ${limit} order by rk`,
  );
  const seriesFor = seriesOf(buckets, f.from);
  const names = await ruleNames(
    database,
    r.map((x) => x.rule_id),
  );
  return r.map((x) => ({
    ruleId: x.rule_id,
    name: names.get(x.rule_id) ?? null,
    total: x.total,
    series: seriesFor(x.bs, x.ns),
  }));
}

async function breakdown({ database, mode, whole }: Ctx, by: Dim, limit = 12) {
  const r = await rows<{ key: string; total: number; decision: string; n: number }>(
    database,
    sql`
    with g as (select key, decision_type, sum(n)::int as n from ${source('decisions', { ...whole, by }, mode)} s group by 1, 2),
    t as (select g.*, (sum(n) over (partition by key))::int as total from g),
    r as (select t.*, dense_rank() over (order by total desc, key collate "C") as rk from t)
    select key, total, decision_type as decision, n from r where rk <= ${limit} order by rk, decision_type collate "C"`,
  );
  const out = new Map<string, { key: string; total: number; counts: Record<string, number> }>();
  for (const x of r) {
    let e = out.get(x.key);
    if (!e) out.set(x.key, (e = { key: x.key, total: x.total, counts: {} }));
    e.counts[x.decision] = x.n;
  }
  return [...out.values()];
}

async function fraudOverTime({ database, f, mode, series, buckets }: Ctx) {
  const r = await rows<{ bucket: string; total: number; fraud: number; not_fraud: number }>(
    database,
    sql`
    select ${text(bucketOf(f.granularity))} as bucket, sum(n)::int as total,
      coalesce(sum(n) filter (where feedback_status = 'FRAUD'), 0)::int as fraud,
      coalesce(sum(n) filter (where feedback_status = 'NOT_FRAUD'), 0)::int as not_fraud
    from ${source('decisions', series, mode)} s group by 1 order by 1`,
  );
  const at = indexOfBuckets(buckets);
  const out = buckets.map(() => ({ total: 0, fraud: 0, notFraud: 0 }));
  for (const x of r) out[at(x.bucket)] = { total: x.total, fraud: x.fraud, notFraud: x.not_fraud };
  return out;
}

async function fraudReasons({ database, f, mode, series, buckets }: Ctx) {
  const r = await rows<{ reason: string; total: number; bs: number[]; ns: number[] }>(
    database,
    sql`
    with g as (select feedback_reason collate "C" as reason, ${offsetOf(f)} as b, sum(n)::int as n
               from ${source('decisions', series, mode)} s where feedback_status = 'FRAUD' group by 1, 2)
    select reason, sum(n)::int as total, array_agg(b order by b) as bs, array_agg(n order by b) as ns from g group by 1 order by total desc, reason`,
  );
  const seriesFor = seriesOf(buckets, f.from);
  return r.map((x) => ({ reason: x.reason, total: x.total, series: seriesFor(x.bs, x.ns) }));
}

async function decisionFeedbackMatrix({ database, mode, whole }: Ctx) {
  return rows<{ decision: string; feedback: string; n: number }>(
    database,
    sql`
    select decision_type as decision, feedback_status as feedback, sum(n)::int as n
    from ${source('decisions', whole, mode)} s group by 1, 2 order by decision_type collate "C", feedback_status collate "C"`,
  );
}

/** Rules with the most feedback first: how often each matched, and what analysts said. */
async function rulePrecision({ database, mode, whole }: Ctx, limit = 20) {
  const r = await rows<{ rule_id: string; matched: number; fraud: number; not_fraud: number }>(
    database,
    sql`
    select rule_id, sum(n)::int as matched,
      coalesce(sum(n) filter (where feedback_status = 'FRAUD'), 0)::int as fraud,
      coalesce(sum(n) filter (where feedback_status = 'NOT_FRAUD'), 0)::int as not_fraud
    from ${source('rules', whole, mode)} s group by 1
    order by coalesce(sum(n) filter (where feedback_status in ('FRAUD', 'NOT_FRAUD')), 0) desc, matched desc, rule_id collate "C" limit ${limit}`,
  );
  const names = await ruleNames(
    database,
    r.map((x) => x.rule_id),
  );
  return r.map((x) => ({
    ruleId: x.rule_id,
    name: names.get(x.rule_id) ?? null,
    matched: x.matched,
    fraud: x.fraud,
    notFraud: x.not_fraud,
  }));
}

async function kpis({ database, f, mode, whole }: Ctx): Promise<{ current: Kpi; previous: Kpi }> {
  const prev = previousPeriod(f);
  // Each period on its own, so its whole months can come from month rows.
  const both = (fact: Fact, where: SQL) => sql`(
    select 'current' as period, * from ${source(fact, whole, mode)} c where ${where}
    union all select 'previous' as period, * from ${source(fact, { ...whole, ...prev }, mode)} p where ${where})`;
  const [d, r] = await Promise.all([
    rows<{
      period: 'current' | 'previous';
      executions: number;
      passed: number;
      warning: number;
      rejected: number;
      fraud: number;
    }>(
      database,
      sql`
      select period, sum(n)::int as executions,
        coalesce(sum(n) filter (where decision_type = 'PASSED'), 0)::int as passed,
        coalesce(sum(n) filter (where decision_type = 'WARNING'), 0)::int as warning,
        coalesce(sum(n) filter (where decision_type = 'REJECTED'), 0)::int as rejected,
        coalesce(sum(n) filter (where feedback_status = 'FRAUD'), 0)::int as fraud
      from ${both('decisions', sql`true`)} s group by 1`,
    ),
    rows<{ period: 'current' | 'previous'; risk_sum: string; risk_count: number }>(
      database,
      sql`
      select period, sum(risk_score::bigint * n)::bigint as risk_sum, sum(n)::int as risk_count
      from ${both('risk', sql`risk_score >= 0`)} s group by 1`,
    ),
  ]);
  const empty = (): Kpi => ({ executions: 0, passed: 0, warning: 0, rejected: 0, riskSum: 0, riskCount: 0, fraud: 0 });
  const out = { current: empty(), previous: empty() };
  for (const x of d)
    Object.assign(out[x.period], {
      executions: x.executions,
      passed: x.passed,
      warning: x.warning,
      rejected: x.rejected,
      fraud: x.fraud,
    });
  for (const x of r) Object.assign(out[x.period], { riskSum: Number(x.risk_sum), riskCount: x.risk_count });
  return out;
}

type RateSpike = {
  d: number;
  capability: string;
  decision_type: string;
  label: string;
  n: number;
  total: number;
  rate: number;
  mean: number;
  sd: number | null;
  baseline_days: number;
};

/**
 * The spikes of `spikeAlerts` (a label's rate, or the reject rate as one series), from each
 * series' daily counts and the daily totals (the days with executions), days numbered from the
 * start of the read. Per label, the trailing sums
 * of its rates are differences of running sums taken in day order, with the very float8
 * operations the former SQL windows did, so the figures are the same to the last bit; a label
 * absent on a baseline day adds nothing (rate 0). Computed here: three window passes over every
 * (day, label) row of a year cost more in SQL than reading those rows.
 */
export function rateSpikes(
  labels: Array<{ capability: string; decision_type: string; label: string; days: number[]; counts: number[] }>,
  totRows: Array<{ d: number; total: number }>,
  from: number,
): RateSpike[] {
  const R = SPIKE_RULE;
  const totals = new Map(totRows.map((t) => [t.d, t.total]));
  // Days with executions among the previous `baselineDays` (a RANGE frame over the totals' days).
  const days = totRows.map((t) => t.d).sort((a, b) => a - b);
  const below = (d: number) => {
    let lo = 0;
    let hi = days.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (days[mid] < d) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const baselineOf = (d: number) => below(d) - below(d - R.baselineDays);
  const out: RateSpike[] = [];
  for (const l of labels) {
    // Rows of this label on days with totals (the former inner join), in day order.
    const g: Array<{ d: number; n: number; total: number; rate: number }> = [];
    for (let i = 0; i < l.days.length; i++) {
      const total = totals.get(l.days[i]);
      if (total !== undefined) g.push({ d: l.days[i], n: l.counts[i], total, rate: l.counts[i] / total });
    }
    g.sort((a, b) => a.d - b.d);
    // Running sums of rate and rate² (rows unbounded preceding).
    const c1: number[] = [];
    const c2: number[] = [];
    for (let i = 0; i < g.length; i++) {
      c1.push(i === 0 ? g[i].rate : c1[i - 1] + g[i].rate);
      c2.push(i === 0 ? g[i].rate * g[i].rate : c2[i - 1] + g[i].rate * g[i].rate);
    }
    // The running sum at the last row on or before day `d`, looking back from row i (0 when none).
    const upto = (c: number[], i: number, d: number) => {
      let j = i;
      while (j >= 0 && g[j].d > d) j--;
      return j >= 0 ? c[j] : 0;
    };
    for (let i = 0; i < g.length; i++) {
      const x = g[i];
      if (x.d < from || x.total < R.minExecutions || x.n < R.minCount) continue;
      const b = baselineOf(x.d);
      if (b < R.minBaselineDays) continue;
      const s1 = upto(c1, i, x.d - 1) - upto(c1, i, x.d - (R.baselineDays + 1));
      const s2 = upto(c2, i, x.d - 1) - upto(c2, i, x.d - (R.baselineDays + 1));
      const mean = s1 / b;
      const sd = b > 1 ? Math.sqrt(Math.max(0, (s2 - (s1 * s1) / b) / (b - 1))) : null;
      if (!(x.rate > mean + R.sigmas * Math.max(sd ?? 0, R.minSdPoints / 100))) continue;
      out.push({
        d: x.d,
        capability: l.capability,
        decision_type: l.decision_type,
        label: l.label,
        n: x.n,
        total: x.total,
        rate: x.rate,
        mean,
        sd,
        baseline_days: b,
      });
    }
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort((a, b) => b.d - a.d || b.rate - a.rate || cmp(a.capability, b.capability) || cmp(a.label, b.label));
}

/**
 * Days of the range whose reject rate, or a label's rate, is above the mean of the trailing
 * baseline days by more than `sigmas` standard deviations (see SPIKE_RULE). The baseline is the
 * days with executions among the previous 28; a label absent on such a day counts as rate 0.
 * Windows run over the days that have rows only (RANGE frames), never over a dense grid.
 */
async function spikeAlerts({ database, f, mode, slice }: Ctx): Promise<SpikeAlert[]> {
  const R = SPIKE_RULE;
  const wide = { ...slice, from: addDays(f.from, -R.baselineDays) };
  const totals = sql`select day, sum(n)::int as total, coalesce(sum(n) filter (where decision_type = 'REJECTED'), 0)::int as rejected
    from ${source('decisions', wide, mode)} s group by day`;
  const [labRows, totRows] = await Promise.all([
    // Per label, its days (numbered from the read's first day) and counts as two arrays.
    rows<{ capability: string; decision_type: string; label: string; days: number[]; counts: number[] }>(
      database,
      sql`
      select capability, decision_type, label, array_agg(day - ${wide.from}::date order by day) as days, array_agg(n order by day) as counts
      from (select day, capability, decision_type, label, sum(n)::int as n from ${source('labels', wide, mode)} s group by s.day, 2, 3, 4) g
      group by 1, 2, 3`,
    ),
    rows<{ d: number; total: number; rejected: number }>(
      database,
      sql`select day - ${wide.from}::date as d, total, rejected from (${totals}) t`,
    ),
  ]);
  // The reject rate is one more series over the same daily totals, under the same rule.
  const rejected = {
    capability: '',
    decision_type: 'REJECTED',
    label: '',
    days: totRows.map((t) => t.d),
    counts: totRows.map((t) => t.rejected),
  };
  const [rej, lab] = [[rejected], labRows].map((series) =>
    rateSpikes(series, totRows, R.baselineDays).map((x) => ({ ...x, day: addDays(wide.from, x.d) })),
  );
  const alerts: SpikeAlert[] = [
    ...rej.map((x) => ({
      day: x.day,
      kind: 'reject_rate' as const,
      n: x.n,
      total: x.total,
      rate: x.rate,
      mean: x.mean,
      sd: x.sd ?? 0,
      baselineDays: x.baseline_days,
    })),
    ...lab.map((x) => ({
      day: x.day,
      kind: 'label' as const,
      capability: x.capability,
      decisionType: x.decision_type,
      label: x.label,
      n: x.n,
      total: x.total,
      rate: x.rate,
      mean: x.mean,
      sd: x.sd ?? 0,
      baselineDays: x.baseline_days,
    })),
  ];
  return alerts
    .sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : b.rate - b.mean - (a.rate - a.mean)))
    .slice(0, 50);
}

/** Values to offer in the filters: every value ever seen, from the rollup's one-dimension cube rows. */
async function filterOptions(database: Db, mode: TrendsSource) {
  const one = async (d: Dim) => {
    const others = (Object.keys(DIM_COLUMN) as Dim[])
      .filter((x) => x !== d)
      .map((x) => sql`${sql.identifier(DIM_COLUMN[x].column)} = ''`);
    const q =
      mode === 'rollup'
        ? sql`select v from ${distinctValues('trend_decisions', 7 & ~DIM_COLUMN[d].bit, others, d)} d where v <> '' order by v collate "C" limit 500`
        : sql`select v from (select distinct ${DIM_COLUMN[d].raw} as v from executions e where ${DIM_COLUMN[d].raw} <> '') d order by v collate "C" limit 500`;
    return (await rows<{ v: string }>(database, q)).map((x) => x.v);
  };
  const [definitionKeys, countries, docTypes] = await Promise.all([
    one('definitionKey'),
    one('country'),
    one('docType'),
  ]);
  return { definitionKeys, countries, docTypes };
}

/** When the cache last heard from the service: a sync run, a processed callback, or the newest executions' fetch. */
async function dataAsOf(database: Db): Promise<string | null> {
  const r = await rows<{ at: Date | string | null }>(
    database,
    sql`
    select greatest(
      (select max(updated_at) from sync_runs),
      (select processed_at from callbacks where processed_at is not null order by received_at desc limit 1),
      -- The same order as executions_created_idx (nulls last), so this reads 100 index entries.
      (select max(fetched_at) from (select fetched_at from executions order by created_at desc nulls last, id desc nulls last limit 100) x)
    ) as at`,
  );
  const at = r[0]?.at;
  return at ? new Date(at).toISOString() : null;
}

/**
 * Everything the trends page shows, for these filters. With `timings`, the queries run one
 * after another and each one's duration (ms) is recorded there (the benchmark's breakdown).
 */
export async function getTrendsData(
  f: TrendsFilters,
  opts: { source?: TrendsSource; database?: Db; timings?: Record<string, number> } = {},
): Promise<TrendsData> {
  const database = opts.database ?? db();
  const mode = opts.source ?? 'rollup';
  const buckets = bucketsOf(f);
  const slice: Slice = {
    from: f.from,
    to: f.to,
    definitionKey: f.definitionKey,
    country: f.country,
    docType: f.docType,
  };
  const ctx: Ctx = {
    database,
    f,
    mode,
    buckets,
    slice,
    whole: { ...slice, months: true },
    series: { ...slice, months: f.granularity === 'month' },
  };
  const jobs = {
    decisions: () => decisionsOverTime(ctx),
    riskDistribution: () => riskDistribution(ctx),
    riskOverTime: () => riskOverTime(ctx),
    labels: () => labelsOverTime(ctx),
    rules: () => rulesOverTime(ctx),
    countries: () => breakdown(ctx, 'country'),
    docTypes: () => breakdown(ctx, 'docType'),
    fraud: () => fraudOverTime(ctx),
    fraudReasons: () => fraudReasons(ctx),
    matrix: () => decisionFeedbackMatrix(ctx),
    rulePrecision: () => rulePrecision(ctx),
    kpis: () => kpis(ctx),
    alerts: () => spikeAlerts(ctx),
    options: () => filterOptions(database, mode),
    asOf: () => dataAsOf(database),
  };
  type Results = { [K in keyof typeof jobs]: Awaited<ReturnType<(typeof jobs)[K]>> };
  const r = {} as Results;
  if (opts.timings) {
    for (const [name, job] of Object.entries(jobs)) {
      const t0 = performance.now();
      (r as Record<string, unknown>)[name] = await job();
      opts.timings[name] = performance.now() - t0;
    }
  } else {
    const values = await Promise.all(Object.values(jobs).map((job) => job()));
    Object.keys(jobs).forEach((name, i) => ((r as Record<string, unknown>)[name] = values[i]));
  }
  const {
    decisions,
    riskDistribution: riskDist,
    riskOverTime: riskTime,
    labels,
    rules,
    countries,
    docTypes,
    fraud,
    fraudReasons: reasons,
    matrix,
    rulePrecision: precision,
    kpis: k,
    alerts,
    options,
    asOf,
  } = r;
  return {
    filters: f,
    previous: previousPeriod(f),
    buckets,
    kpis: k,
    decisionTypes: decisions.types,
    decisions: decisions.series,
    riskDistribution: riskDist,
    riskOverTime: riskTime,
    labels,
    rules,
    countries,
    docTypes,
    fraud,
    fraudReasons: reasons,
    matrix,
    rulePrecision: precision,
    alerts,
    options,
    asOf,
  };
}
