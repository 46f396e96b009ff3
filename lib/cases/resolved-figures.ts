import 'server-only';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { caseOutcomeCounts, caseResolutionTimes, cases } from '@/lib/db/schema';

/**
 * The queues page's all-time figures, from the two tables the case triggers keep
 * (lib/db/schema/case-figures.ts): a few hundred rows, however many cases were ever resolved.
 */

/** Bucket b of case_resolution_times holds [BASE^b, BASE^(b+1)) seconds (drizzle/0031_case_figures.sql). */
const BASE = 1.05;

export interface OutcomeCount {
  queueId: string | null;
  resolvedBy: string | null;
  outcome: string | null;
  decisionAtOutcome: string | null;
  /** Every resolved case of the key. */
  n: number;
  /** Those whose outcome the viewer may see (lib/qa/seal.ts): the outcome figures count these. */
  visible: number;
}

/**
 * Resolved cases by queue, resolver, outcome and decision. `sealed` is the viewer's sealed case
 * ids (a subquery): those few are read from the cases themselves and taken off `visible`, as the
 * list's outcome filters leave them out.
 */
export async function readOutcomeCounts(d: DbOrTx, sealed: SQL): Promise<OutcomeCount[]> {
  const rows = await d.execute<{
    queue_id: string | null;
    resolved_by: string | null;
    outcome: string | null;
    decision_at_outcome: string | null;
    n: number;
    hidden: number;
  }>(sql`
    select k.queue_id, k.resolved_by, k.outcome, k.decision_at_outcome, k.n, coalesce(s.n, 0)::int as hidden
    from ${caseOutcomeCounts} k
    left join (
      select queue_id, resolved_by, outcome, decision_at_outcome, count(*)::int as n
      from ${cases} where state = 'resolved' and id in ${sealed}
      group by 1, 2, 3, 4
    ) s on (k.queue_id, k.resolved_by, k.outcome, k.decision_at_outcome)
      is not distinct from (s.queue_id, s.resolved_by, s.outcome, s.decision_at_outcome)
    where k.n <> 0`);
  return rows.rows.map((r) => ({
    queueId: r.queue_id,
    resolvedBy: r.resolved_by,
    outcome: r.outcome,
    decisionAtOutcome: r.decision_at_outcome,
    n: Number(r.n),
    visible: Number(r.n) - Number(r.hidden),
  }));
}

export interface Percentiles {
  p50Seconds: number | null;
  p95Seconds: number | null;
}

/** Resolution-time percentiles by queue and by resolver, each within 2.5 % of the exact figure. */
export async function readResolutionPercentiles(
  d: DbOrTx,
): Promise<{ byQueue: Map<string | null, Percentiles>; byResolver: Map<string | null, Percentiles> }> {
  const rows = (
    await d.execute<{ queue_id: string | null; resolved_by: string | null; bucket: number; n: number }>(sql`
      select queue_id, resolved_by, bucket, n from ${caseResolutionTimes} where n <> 0 order by bucket`)
  ).rows;
  const group = (key: (r: (typeof rows)[number]) => string | null) => {
    const by = new Map<string | null, Array<[number, number]>>();
    for (const r of rows) {
      const k = key(r);
      const list = by.get(k) ?? by.set(k, []).get(k)!;
      const last = list.at(-1);
      if (last && last[0] === Number(r.bucket)) last[1] += Number(r.n);
      else list.push([Number(r.bucket), Number(r.n)]);
    }
    return new Map(
      [...by].map(([k, buckets]) => [
        k,
        { p50Seconds: percentile(buckets, 0.5), p95Seconds: percentile(buckets, 0.95) },
      ]),
    );
  };
  return { byQueue: group((r) => r.queue_id), byResolver: group((r) => r.resolved_by) };
}

/**
 * percentile_cont over bucketed times: the two ranks around p·(n−1) are found by the buckets'
 * running counts and each read as its bucket's geometric middle, then interpolated as
 * percentile_cont does. `buckets` is ascending.
 */
function percentile(buckets: Array<[bucket: number, n: number]>, p: number): number | null {
  const total = buckets.reduce((s, [, n]) => s + n, 0);
  if (total <= 0) return null;
  const rank = p * (total - 1);
  const at = (k: number) => {
    let seen = 0;
    for (const [b, n] of buckets) {
      seen += n;
      if (k < seen) return BASE ** (b + 0.5);
    }
    return BASE ** (buckets.at(-1)![0] + 0.5);
  };
  const lo = Math.floor(rank);
  const low = at(lo);
  return low + (at(Math.ceil(rank)) - low) * (rank - lo);
}
