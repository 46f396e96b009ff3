import 'server-only';
import { and, sql, type SQL } from 'drizzle-orm';
import { db as defaultDb, type Db } from '@/lib/db/client';
import { executions } from '@/lib/db/schema';
import { isIndependentPart } from './where';

/**
 * The list's total: exact when counting is cheap, "about N" otherwise (lib/executions/list.ts
 * reads it beside the page).
 */
export type ListTotal = { exact: true; count: number } | { exact: false; estimate: number };

export const EXACT_COUNT_CAP = 10_000;
/** Planner cost above which even a capped count is not "cheap" (a cost unit is about one page read). */
export const COUNT_COST_LIMIT = 5_000;

type PlanNode = { 'Plan Rows': number; 'Total Cost': number; Plans?: PlanNode[] };

/** The planner's row estimate of `select 1 from executions where <condition>`. */
export async function plannedRows(d: Pick<Db, 'execute'>, condition?: SQL): Promise<number> {
  const plan = await d.execute<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    sql`explain (format json) select 1 from ${executions}${condition ? sql` where ${condition}` : sql``}`,
  );
  return plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows'];
}

/**
 * "About N" for conditions that are not independent. The planner multiplies the selectivities of
 * a query's conditions; a label and the decision it leads to (DIGITAL_COPY and REJECTED) go
 * together, and the product was 10x under the real count at 10,000,000 executions
 * (`npm run bench:growth`). Exponential backoff, as SQL Server's cardinality estimator has done
 * since 2014: the most selective condition whole, the next at its square root, the third at its
 * fourth root, the fourth at its eighth; it lies between independence and full correlation.
 * A search's match is taken whole, as independent of the rest (lib/executions/where.ts
 * `isIndependentPart`). Null for fewer than two conditions, where the planner's own estimate stands.
 */
async function backoffEstimate(d: Db, parts: SQL[]): Promise<number | null> {
  if (parts.length < 2) return null;
  // One connection, one plan after another (well under a millisecond each): spread over the pool,
  // they opened connections whose first plan loads the catalogue (about 100 ms, measured).
  const [total, ...rows] = await d.transaction(async (tx) => {
    const out: number[] = [];
    for (const c of [undefined, ...parts]) out.push(await plannedRows(tx, c));
    return out;
  });
  if (total < 1) return null;
  return Math.round(
    total *
      jointSelectivity(
        rows.map((r, i) => ({ selectivity: Math.min(1, r / total), independent: isIndependentPart(parts[i]) })),
      ),
  );
}

/** The selectivity of conditions together: independent ones multiplied, the rest backed off (above). */
export function jointSelectivity(parts: Array<{ selectivity: number; independent: boolean }>): number {
  const backedOff = parts
    .filter((p) => !p.independent)
    .map((p) => p.selectivity)
    .sort((a, b) => a - b)
    .slice(0, 4)
    .reduce((acc, x, i) => acc * x ** (1 / 2 ** i), 1);
  return parts.filter((p) => p.independent).reduce((acc, p) => acc * p.selectivity, backedOff);
}

/**
 * An exact count when it is cheap, otherwise an estimate, shown as "about N".
 * Counting a million rows on every page view would cost far more than the page itself, so:
 * one EXPLAIN (a fraction of a millisecond) gives both the estimate and the planner's price of
 * counting at most EXACT_COUNT_CAP + 1 rows; only a cheap count is run, under a time budget.
 * A filter that matches few rows but that no index supports is therefore estimated, not counted;
 * when its rows fit on one page the caller knows the exact total anyway. With `parts` (the same
 * conditions one value each, `listConditions`), an estimate is the larger of the planner's and
 * the backed-off one.
 */
export async function countList(
  where: SQL | undefined,
  d: Db = defaultDb(),
  budgetMs = 20,
  parts: SQL[] = [],
  /**
   * Conditions the WHERE already implies, on plain columns (a walk's, lib/executions/where.ts
   * `walkOf`): added to the count itself, not to its estimate, they let the planner count through
   * an ordered index. REJECTED + a country + risk 71+ was counted by intersecting the GIN match
   * with the risk index's whole range (950,000 rows at 10,000,000: 185 to 313 ms, EXPLAIN ANALYZE);
   * through the (country, decision, risk) index, 47 to 89 ms there, the matches alone.
   */
  implied: SQL[] = [],
): Promise<ListTotal> {
  const cappedOf = (w: SQL | undefined) =>
    sql`select count(*)::int as n from (select 1 from ${executions}${w ? sql` where ${w}` : sql``} limit ${EXACT_COUNT_CAP + 1}) t`;
  const capped = cappedOf(where);
  const plan = await d.execute<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(sql`explain (format json) ${capped}`);
  const agg = plan.rows[0]['QUERY PLAN'][0].Plan;
  // Aggregate -> Limit -> the scan: the scan's row estimate is the unlimited match count.
  const scan = agg.Plans?.[0]?.Plans?.[0] ?? agg.Plans?.[0] ?? agg;
  const planned = Math.round(scan['Plan Rows']);
  // Only when the count cannot answer: each condition's EXPLAIN costs a planning of its own.
  const about = async () => Math.max(planned, (await backoffEstimate(d, parts)) ?? 0);
  // Far above the cap, counting to the cap cannot change the answer ("about N"): skip it.
  if (planned <= EXACT_COUNT_CAP * 3 && agg['Total Cost'] <= COUNT_COST_LIMIT) {
    try {
      const n = await d.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local statement_timeout = ${Math.max(1, Math.round(budgetMs))}`));
        return (await tx.execute<{ n: number }>(implied.length ? cappedOf(and(where, ...implied)) : capped)).rows[0].n;
      });
      if (n <= EXACT_COUNT_CAP) return { exact: true, count: n };
      return { exact: false, estimate: Math.max(EXACT_COUNT_CAP + 1, await about()) };
    } catch (err) {
      // 57014: the time budget ran out (the plan was wrong about "cheap"); the estimate answers.
      // drizzle wraps the driver's error, so the code may sit on `cause`.
      const e = err as { code?: string; cause?: { code?: string } };
      if ((e.code ?? e.cause?.code) !== '57014') throw err;
    }
  }
  return { exact: false, estimate: await about() };
}

/** Time budget of the list's exact count (ms): beyond it the planner's estimate answers ("about N"). */
export const COUNT_BUDGET_MS = 15;
