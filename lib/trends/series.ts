import 'server-only';
import type { Db } from '@/lib/db/client';
import { addDays, SPIKE_RULE, sortDecisions, type Bucket, type TrendsFilters } from '@/lib/trends/shared';
import { sql } from 'drizzle-orm';
import { type Ctx, type Dim, bucketOf, indexOfBuckets, rows, sharedRead, source, text } from '@/lib/trends/sources';

/** The page's series and breakdowns: decisions, risk, labels, rules, countries, fraud, precision. */

export type DayDecisions = Array<{ d: number; decision: string; n: number; fraud: number; not_fraud: number }>;

/**
 * Per day (numbered from `from`) and decision: the executions, and those of them with FRAUD and
 * with NOT_FRAUD feedback, from `from` to the end of the range. One read of the decisions' day
 * rows (12,000 for a year at 1,000,000 executions) that the spike alerts' daily totals and, by
 * day, the decisions and fraud series share, instead of three. In day and decision order, as the
 * series' own query gives them: each day's counts list the decisions in that order.
 */
export function dayDecisions(ctx: Ctx, from: string): Promise<DayDecisions> {
  const { database, mode, slice } = ctx;
  return sharedRead(ctx, `dayDecisions:${from}`, () =>
    rows<DayDecisions[number]>(
      database,
      sql`
      select day - ${from}::date as d, decision_type as decision, sum(n)::int as n,
        coalesce(sum(n) filter (where feedback_status = 'FRAUD'), 0)::int as fraud,
        coalesce(sum(n) filter (where feedback_status = 'NOT_FRAUD'), 0)::int as not_fraud
      from ${source('decisions', { ...slice, from }, mode)} s group by 1, 2 order by 1, decision_type collate "C"`,
    ),
  );
}

/**
 * The day buckets' decisions from the shared read (`dayDecisions`, read from the alerts' first
 * baseline day), each with its bucket's index; null unless the page is by day and shares reads.
 */
async function byDayFromShared(ctx: Ctx) {
  if (!ctx.shared || ctx.f.granularity !== 'day' || ctx.series.months) return null;
  const from = addDays(ctx.f.from, -SPIKE_RULE.baselineDays);
  const at = bucketIndex(ctx.buckets, from);
  return (await dayDecisions(ctx, from)).map((x) => ({ ...x, at: at(x.d) })).filter((x) => x.at >= 0);
}

export async function decisionsOverTime(ctx: Ctx) {
  const { database, f, mode, series, buckets } = ctx;
  const shared = await byDayFromShared(ctx);
  if (shared) {
    const out = buckets.map(() => ({ total: 0, counts: {} as Record<string, number> }));
    for (const x of shared) {
      out[x.at].counts[x.decision] = x.n;
      out[x.at].total += x.n;
    }
    return { series: out, types: sortDecisions(shared.map((x) => x.decision)) };
  }
  const r = await rows<{ bucket: string; decision: string; n: number }>(
    database,
    sql`
    select ${text(sql`b`)} as bucket, decision, n from (
      select ${bucketOf(f.granularity)} as b, decision_type as decision, sum(n)::int as n
      from ${source('decisions', series, mode)} s group by 1, 2) g order by b, decision collate "C"`,
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

export async function riskDistribution({ database, mode, whole }: Ctx) {
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
export async function riskOverTime({ database, f, mode, series, buckets }: Ctx) {
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
export function seriesOf(buckets: Bucket[], from: string) {
  const at = bucketIndex(buckets, from);
  return (bs: number[], ns: number[]) => {
    const series = buckets.map(() => 0);
    for (let i = 0; i < bs.length; i++) {
      const b = at(bs[i]);
      if (b >= 0) series[b] = ns[i];
    }
    return series;
  };
}
/** The index of the bucket that starts `d` days after `from` (-1: none). */
function bucketIndex(buckets: Bucket[], from: string) {
  const day0 = Date.parse(`${from}T00:00:00Z`);
  const idx = new Map(buckets.map((b, i) => [Math.round((Date.parse(`${b.key}T00:00:00Z`) - day0) / 86_400_000), i]));
  return (d: number) => idx.get(d) ?? -1;
}
/** The bucket of a row as `seriesOf` numbers it. */
const offsetOf = (f: TrendsFilters) => sql`(${bucketOf(f.granularity)} - ${f.from}::date)`;

export type LabelDays = Array<{
  capability: string;
  decision_type: string;
  label: string;
  days: number[];
  counts: number[];
}>;

/**
 * Per label (capability, decision, label), its days numbered from `from` and its counts on them,
 * from `from` to the end of the range: what the spike alerts read (with their baseline days before
 * the range). Read in label order from `trend_labels_series_idx`; the day rows of one slice hold
 * each label once a day (raw rows come grouped so too), so nothing is grouped by day first. Read
 * once per page when the context shares reads (`Ctx.shared`).
 *
 * The two lists are paired, in no particular order: every reader places each (day, count) by
 * its day (`seriesOf`, `rateSpikes` sorts), so the aggregates sort nothing. They travel as text
 * (`1,2,5`), split here: a year of label days is 20,000 pairs at 1,000,000 executions, and the
 * driver's generic array parser cost more CPU than the query (CPU per read 53 ms with ordered
 * arrays, 37 without the order, 27 as text; `docs/benchmarks.md`).
 */
export async function labelDays(ctx: Ctx, from: string): Promise<LabelDays> {
  const { database, mode, slice } = ctx;
  return sharedRead(ctx, `labelDays:${from}`, async () =>
    (
      await rows<Omit<LabelDays[number], 'days' | 'counts'> & { days: string; counts: string }>(
        database,
        sql`
      select capability, decision_type, label,
        array_to_string(array_agg(day - ${from}::date), ',') as days, array_to_string(array_agg(n), ',') as counts
      from ${source('labels', { ...slice, from }, mode)} s group by 1, 2, 3`,
      )
    ).map((x) => ({ ...x, days: numbers(x.days), counts: numbers(x.counts) })),
  );
}

/** A list of integers as `array_to_string` writes it. */
const numbers = (list: string) => list.split(',').map(Number);

/** Byte order of the UTF-8 strings: the "C" collation the SQL ranking uses. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The labels by day from the spike alerts' read (`labelDays`), ranked as `labelsOverTime`'s SQL
 * ranks them: by capability, its `perCapability` largest totals in the range (ties by label, then
 * decision). A 365-day page reads a year of label rows once instead of twice.
 */
function labelsByDayFrom(all: LabelDays, skip: number, buckets: Bucket[], from: string, perCapability: number) {
  const seriesFor = seriesOf(buckets, from);
  const byCapability = new Map<
    string,
    Array<{ decision_type: string; label: string; total: number; bs: number[]; ns: number[] }>
  >();
  for (const x of all) {
    const bs: number[] = [];
    const ns: number[] = [];
    for (let i = 0; i < x.days.length; i++)
      if (x.days[i] >= skip) {
        bs.push(x.days[i] - skip);
        ns.push(x.counts[i]);
      }
    if (!bs.length) continue;
    const total = ns.reduce((a, b) => a + b, 0);
    const list = byCapability.get(x.capability) ?? [];
    list.push({ decision_type: x.decision_type, label: x.label, total, bs, ns });
    byCapability.set(x.capability, list);
  }
  return [...byCapability.keys()].sort(byBytes).flatMap((capability) =>
    byCapability
      .get(capability)!
      .sort((a, b) => b.total - a.total || byBytes(a.label, b.label) || byBytes(a.decision_type, b.decision_type))
      .slice(0, perCapability)
      .map((x) => ({
        capability,
        decisionType: x.decision_type,
        label: x.label,
        total: x.total,
        series: seriesFor(x.bs, x.ns),
      })),
  );
}

/** Per capability, its most frequent REJECTED / WARNING labels in the range, with their series. */
export async function labelsOverTime(ctx: Ctx, perCapability = 6) {
  const { database, f, mode, series, buckets } = ctx;
  if (ctx.shared && f.granularity === 'day') {
    const baseline = SPIKE_RULE.baselineDays;
    return labelsByDayFrom(await labelDays(ctx, addDays(f.from, -baseline)), baseline, buckets, f.from, perCapability);
  }
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

export async function ruleNames(database: Db, ids: string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const r = await rows<{ rule_id: string; rule_name: string | null }>(
    database,
    sql`
    select rule_id, rule_name from trend_rule_names where rule_id = any(${sql.param(ids)}::text[])`,
  );
  return new Map(r.map((x) => [x.rule_id, x.rule_name]));
}

/** Rows of rules as `fields` shapes them, each led by the rule's id and its latest name (null: never named). */
async function withRuleNames<T extends { rule_id: string }, U extends object>(
  database: Db,
  r: T[],
  fields: (x: T) => U,
) {
  const names = await ruleNames(
    database,
    r.map((x) => x.rule_id),
  );
  return r.map((x) => ({ ruleId: x.rule_id, name: names.get(x.rule_id) ?? null, ...fields(x) }));
}

export async function rulesOverTime({ database, f, mode, series, buckets }: Ctx, limit = 8) {
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
  return withRuleNames(database, r, (x) => ({ total: x.total, series: seriesFor(x.bs, x.ns) }));
}

export async function breakdown({ database, mode, whole }: Ctx, by: Dim, limit = 12) {
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

export async function fraudOverTime(ctx: Ctx) {
  const { database, f, mode, series, buckets } = ctx;
  const shared = await byDayFromShared(ctx);
  if (shared) {
    const out = buckets.map(() => ({ total: 0, fraud: 0, notFraud: 0 }));
    for (const x of shared) {
      out[x.at].total += x.n;
      out[x.at].fraud += x.fraud;
      out[x.at].notFraud += x.not_fraud;
    }
    return out;
  }
  const r = await rows<{ bucket: string; total: number; fraud: number; not_fraud: number }>(
    database,
    sql`
    select ${text(sql`b`)} as bucket, total, fraud, not_fraud from (
      select ${bucketOf(f.granularity)} as b, sum(n)::int as total,
        coalesce(sum(n) filter (where feedback_status = 'FRAUD'), 0)::int as fraud,
        coalesce(sum(n) filter (where feedback_status = 'NOT_FRAUD'), 0)::int as not_fraud
      from ${source('decisions', series, mode)} s group by 1) g order by b`,
  );
  const at = indexOfBuckets(buckets);
  const out = buckets.map(() => ({ total: 0, fraud: 0, notFraud: 0 }));
  for (const x of r) out[at(x.bucket)] = { total: x.total, fraud: x.fraud, notFraud: x.not_fraud };
  return out;
}

export async function fraudReasons({ database, f, mode, series, buckets }: Ctx) {
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

export async function decisionFeedbackMatrix({ database, mode, whole }: Ctx) {
  return rows<{ decision: string; feedback: string; n: number }>(
    database,
    sql`
    select decision_type as decision, feedback_status as feedback, sum(n)::int as n
    from ${source('decisions', whole, mode)} s group by 1, 2 order by decision_type collate "C", feedback_status collate "C"`,
  );
}

/** Rules with the most feedback first: how often each matched, and what analysts said. */
export async function rulePrecision({ database, mode, whole }: Ctx, limit = 20) {
  const r = await rows<{ rule_id: string; matched: number; fraud: number; not_fraud: number }>(
    database,
    sql`
    select rule_id, sum(n)::int as matched,
      coalesce(sum(n) filter (where feedback_status = 'FRAUD'), 0)::int as fraud,
      coalesce(sum(n) filter (where feedback_status = 'NOT_FRAUD'), 0)::int as not_fraud
    from ${source('rules', whole, mode)} s group by 1
    order by coalesce(sum(n) filter (where feedback_status in ('FRAUD', 'NOT_FRAUD')), 0) desc, matched desc, rule_id collate "C" limit ${limit}`,
  );
  return withRuleNames(database, r, (x) => ({ matched: x.matched, fraud: x.fraud, notFraud: x.not_fraud }));
}
