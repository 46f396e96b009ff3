import 'server-only';
import type { Db } from '@/lib/db/client';
import { addDays, previousPeriod, SPIKE_RULE, type Kpi, type SpikeAlert } from '@/lib/trends/shared';
import { sql, type SQL } from 'drizzle-orm';
import { dayDecisions, labelDays } from '@/lib/trends/series';
import { type Ctx, type Fact, rows, source } from '@/lib/trends/sources';

/** Headline numbers against the previous period, and spike alerts (the spike rule in lib/trends/shared.ts). */
export async function kpis({ database, f, mode, whole }: Ctx): Promise<{ current: Kpi; previous: Kpi }> {
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
export async function spikeAlerts(ctx: Ctx): Promise<SpikeAlert[]> {
  const R = SPIKE_RULE;
  // The read starts a baseline before the range, so its first days have their baseline.
  const from = addDays(ctx.f.from, -R.baselineDays);
  const [labRows, days] = await Promise.all([
    // Per label, its days (numbered from the read's first day) and counts as two arrays.
    labelDays(ctx, from),
    dayDecisions(ctx, from),
  ]);
  // The daily totals: the days with executions, and how many of them were rejected.
  const byDay = new Map<number, { d: number; total: number; rejected: number }>();
  for (const x of days) {
    const t = byDay.get(x.d) ?? { d: x.d, total: 0, rejected: 0 };
    t.total += x.n;
    if (x.decision === 'REJECTED') t.rejected += x.n;
    byDay.set(x.d, t);
  }
  const totRows = [...byDay.values()].sort((a, b) => a.d - b.d);
  // The reject rate is one more series over the same daily totals, under the same rule.
  const rejected = {
    capability: '',
    decision_type: 'REJECTED',
    label: '',
    days: totRows.map((t) => t.d),
    counts: totRows.map((t) => t.rejected),
  };
  const [rej, lab] = [[rejected], labRows].map((series) =>
    rateSpikes(series, totRows, R.baselineDays).map((x) => ({ ...x, day: addDays(from, x.d) })),
  );
  const figures = (x: (typeof rej)[number]) => ({
    day: x.day,
    n: x.n,
    total: x.total,
    rate: x.rate,
    mean: x.mean,
    sd: x.sd ?? 0,
    baselineDays: x.baseline_days,
  });
  const alerts: SpikeAlert[] = [
    ...rej.map((x) => ({ ...figures(x), kind: 'reject_rate' as const })),
    ...lab.map((x) => ({
      ...figures(x),
      kind: 'label' as const,
      capability: x.capability,
      decisionType: x.decision_type,
      label: x.label,
    })),
  ];
  return alerts
    .sort((a, b) => (a.day < b.day ? 1 : a.day > b.day ? -1 : b.rate - b.mean - (a.rate - a.mean)))
    .slice(0, 50);
}

/** The spike alerts of the days from..to on the rollup, as the trends page would show them (outgoing webhooks). */
export function spikeAlertsBetween(database: Db, from: string, to: string): Promise<SpikeAlert[]> {
  const slice = { from, to };
  return spikeAlerts({
    database,
    f: { range: 'custom', from, to, granularity: 'day' },
    mode: 'rollup',
    slice,
    whole: slice,
    series: slice,
    buckets: [],
  });
}
