import 'server-only';
import type { Db } from '@/lib/db/client';
import {
  createdInRange,
  labelsOfExecution,
  MONTH_SCOPE,
  rollupColumns,
  rulesOfExecution,
  SCOPE,
} from '@/lib/trends/rollup-keys';
import { addDays, type Bucket, type Granularity, type TrendsFilters } from '@/lib/trends/shared';
import { sql, type SQL } from 'drizzle-orm';

/**
 * Where each fact of the trends page comes from: the rollup's day and month rows, or (`raw`) the
 * executions grouped on the fly with the same keys (lib/trends/rollup-keys.ts).
 */
export type TrendsSource = 'rollup' | 'raw';

export type Dim = 'definitionKey' | 'country' | 'docType';
export const DIM_COLUMN: Record<Dim, { column: string; bit: number; raw: SQL }> = {
  definitionKey: { column: 'definition_key', bit: SCOPE.definitionKey, raw: rollupColumns.definitionKey },
  country: { column: 'issuing_country', bit: SCOPE.issuingCountry, raw: rollupColumns.issuingCountry },
  docType: { column: 'document_type', bit: SCOPE.documentType, raw: rollupColumns.documentType },
};

export interface Slice {
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
export function tiersOf(from: string, to: string, months: boolean): Array<{ grain: number; from: string; to: string }> {
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
export function nextMonth(day: string): string {
  const [y, m] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
}

export type Fact = 'decisions' | 'risk' | 'riskDays' | 'labels' | 'rules';
export const FACTS: Record<
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
export function source(fact: Fact, s: Slice, mode: TrendsSource): SQL {
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
export function distinctValues(table: string, scope: number, fixed: SQL[], dim: Dim): SQL {
  const t = sql.identifier(table);
  const col = sql.identifier(DIM_COLUMN[dim].column);
  const where = sql.join([sql`scope = ${scope}`, ...fixed], sql` and `);
  return sql`(with recursive vals(v) as (
      (select ${col} from ${t} where ${where} order by ${col} limit 1)
      union all
      select (select ${col} from ${t} where ${where} and ${col} > vals.v order by ${col} limit 1) from vals where vals.v is not null
    ) select v from vals where v is not null)`;
}

export function bucketOf(g: Granularity): SQL {
  return g === 'day' ? sql`day` : sql`date_trunc(${g}, day)::date`;
}

/**
 * A date as the page's bucket key. Applied to grouped rows, never inside a GROUP BY: to_char costs
 * about a microsecond a row, and 365 days of decisions are 12,000 rollup rows at 1,000,000
 * executions (the decisions series took 32 ms grouped by the text, 15 ms grouped by the date).
 */
export const text = (x: SQL) => sql`to_char(${x}, 'YYYY-MM-DD')`;

export async function rows<T extends Record<string, unknown>>(database: Db, query: SQL): Promise<T[]> {
  return (await database.execute<T>(query)).rows as T[];
}

export type Ctx = {
  /**
   * Reads several queries of one page share (per key), so the page runs each once: the labels'
   * days are read by the spike alerts and, by day, by the labels' series; the decisions' days by
   * the alerts' daily totals and, by day, by the decisions and fraud series. Absent: nothing shared.
   */
  shared?: Map<string, Promise<unknown>>;
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

/** `read` once per page and key when the context shares reads (`Ctx.shared`), else every time. */
export function sharedRead<T>(ctx: Ctx, key: string, read: () => Promise<T>): Promise<T> {
  if (!ctx.shared) return read();
  if (!ctx.shared.has(key)) ctx.shared.set(key, read());
  return ctx.shared.get(key) as Promise<T>;
}

export function indexOfBuckets(buckets: Bucket[]) {
  const idx = new Map(buckets.map((b, i) => [b.key, i]));
  return (key: string) => idx.get(key) ?? -1;
}
