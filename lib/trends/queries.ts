import 'server-only';
import { db, type Db } from '@/lib/db/client';
import { bucketsOf, previousPeriod, type TrendsData, type TrendsFilters } from '@/lib/trends/shared';
import { sql } from 'drizzle-orm';
import { kpis, spikeAlerts } from '@/lib/trends/alerts';
import {
  breakdown,
  decisionFeedbackMatrix,
  decisionsOverTime,
  fraudOverTime,
  fraudReasons,
  labelsOverTime,
  riskDistribution,
  riskOverTime,
  rulePrecision,
  rulesOverTime,
} from '@/lib/trends/series';
import {
  type Ctx,
  DIM_COLUMN,
  type Dim,
  type Slice,
  type TrendsSource,
  distinctValues,
  rows,
} from '@/lib/trends/sources';

export type { TrendsSource };

/**
 * Data of the trends page. Every number is aggregated in SQL, from the daily rollup
 * (lib/sync/rollup.ts) by default. `source: 'raw'` runs the very same queries over rows
 * grouped on the fly from the executions tables: the equality test and the benchmark use it.
 * The queries live by concern: sources.ts (rollup or raw), series.ts, alerts.ts.
 */

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

/** What every query of one trends page reads from: the filters' ranges and slices, and the reads they share. */
export function trendsContext(f: TrendsFilters, database: Db, mode: TrendsSource): Ctx {
  const slice: Slice = {
    from: f.from,
    to: f.to,
    definitionKey: f.definitionKey,
    country: f.country,
    docType: f.docType,
  };
  return {
    shared: new Map(),
    database,
    f,
    mode,
    buckets: bucketsOf(f),
    slice,
    whole: { ...slice, months: true },
    series: { ...slice, months: f.granularity === 'month' },
  };
}

/**
 * Everything the trends page shows, for these filters. With `timings`, the queries run one
 * after another and each one's duration (ms) is recorded there (the benchmark's breakdown).
 */
export async function getTrendsData(
  f: TrendsFilters,
  opts: { source?: TrendsSource; database?: Db; timings?: Record<string, number> } = {},
): Promise<TrendsData> {
  const ctx = trendsContext(f, opts.database ?? db(), opts.source ?? 'rollup');
  const { database, buckets, mode } = ctx;
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
  // Every job's result goes out under its own name; only the decisions are split in two.
  const { decisions, ...rest } = r;
  return {
    ...rest,
    filters: f,
    previous: previousPeriod(f),
    buckets,
    decisionTypes: decisions.types,
    decisions: decisions.series,
  };
}
