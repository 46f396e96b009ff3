import Link from 'next/link';
import type { ListFilters } from '@/lib/trends/list-links';
import { trendsListHref, type Kpi, type TrendsData } from '@/lib/trends/shared';
import { formatDate, formatNumber, formatPercent } from '@/lib/format';
import { cn } from '@/lib/utils';

interface Metric {
  id: string;
  label: string;
  value: (k: Kpi) => number | null;
  show: (v: number | null) => string;
  /** How the change is shown: relative (%), in percentage points, or as a plain difference. */
  change: 'relative' | 'points' | 'absolute';
  /** Which direction is good news (colours the change); null: neither. */
  good: 'up' | 'down' | null;
  link: ListFilters;
  hint: string;
}

const rate = (n: number, d: number) => (d ? n / d : null);
const share = (count: (k: Kpi) => number) => (k: Kpi) => rate(count(k), k.executions);

/** The share of executions that got one decision, its change in percentage points. */
const decisionShare = (
  id: string,
  label: string,
  decision: 'PASSED' | 'WARNING' | 'REJECTED',
  count: (k: Kpi) => number,
  good: 'up' | 'down',
): Metric => ({
  id,
  label,
  value: share(count),
  show: formatPercent,
  change: 'points',
  good,
  link: { decision },
  hint: `${decision} of all executions`,
});

const METRICS: Metric[] = [
  {
    id: 'executions',
    label: 'Executions',
    value: (k) => k.executions,
    show: formatNumber,
    change: 'relative',
    good: null,
    link: {},
    hint: 'Created in the range',
  },
  decisionShare('pass', 'Pass rate', 'PASSED', (k) => k.passed, 'up'),
  decisionShare('warning', 'Warning rate', 'WARNING', (k) => k.warning, 'down'),
  decisionShare('reject', 'Reject rate', 'REJECTED', (k) => k.rejected, 'down'),
  {
    id: 'risk',
    label: 'Average risk score',
    value: (k) => (k.riskCount ? k.riskSum / k.riskCount : null),
    show: (v) => (v == null ? '—' : v.toFixed(1)),
    change: 'absolute',
    good: 'down',
    link: { riskMin: 0, riskMax: 100 },
    hint: 'Scores 0–100; -1 (not executed) left out',
  },
  {
    id: 'fraud',
    label: 'Confirmed fraud rate',
    value: share((k) => k.fraud),
    show: formatPercent,
    change: 'points',
    good: 'down',
    link: { feedback: 'FRAUD' },
    hint: 'Marked FRAUD by analysts',
  },
];

function changeOf(
  m: Metric,
  cur: number | null,
  prev: number | null,
): { text: string; direction: 'up' | 'down' | 'flat' } | null {
  if (cur == null || prev == null) return null;
  const diff = cur - prev;
  const direction = Math.abs(diff) < 1e-9 ? 'flat' : diff > 0 ? 'up' : 'down';
  const sign = diff > 0 ? '+' : diff < 0 ? '−' : '±';
  if (m.change === 'points') return { text: `${sign}${Math.abs(diff * 100).toFixed(1)} pts`, direction };
  if (m.change === 'absolute') return { text: `${sign}${Math.abs(diff).toFixed(1)}`, direction };
  if (prev === 0) return cur === 0 ? { text: '±0%', direction: 'flat' } : { text: 'new', direction: 'up' };
  return { text: `${sign}${Math.abs((diff / prev) * 100).toFixed(1)}%`, direction };
}

/** The headline numbers of the range, each with its change against the previous period and a link to its executions. */
export function KpiCards({ data }: { data: TrendsData }) {
  const f = data.filters;
  const { current, previous } = data.kpis;
  const prevText = `${formatDate(data.previous.from)} – ${formatDate(data.previous.to)}`;
  return (
    <section aria-label="Key figures" className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
      {METRICS.map((m) => {
        const cur = m.value(current);
        const prev = m.value(previous);
        const change = changeOf(m, cur, prev);
        const tone =
          !change || change.direction === 'flat' || !m.good
            ? 'text-muted-fg'
            : change.direction === m.good
              ? 'text-ok'
              : 'text-reject';
        return (
          <Link
            key={m.id}
            href={trendsListHref(f, { from: f.from, to: f.to }, m.link)}
            prefetch={false}
            data-kpi={m.id}
            className="group rounded-lg border border-border bg-card p-3 shadow-sm transition-colors hover:border-primary/50"
          >
            <p className="text-xs font-medium text-muted-fg">{m.label}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums tracking-tight group-hover:text-primary">
              {m.show(cur)}
            </p>
            <p className="mt-1 text-xs">
              {change ? (
                <>
                  <span className={cn('font-medium tabular-nums', tone)}>
                    <span aria-hidden>
                      {change.direction === 'up' ? '▲ ' : change.direction === 'down' ? '▼ ' : ''}
                    </span>
                    {change.text}
                  </span>{' '}
                  <span className="text-muted-fg" title={prevText}>
                    vs previous period
                    <span className="sr-only">
                      {' '}
                      ({prevText}: {m.show(prev)})
                    </span>
                  </span>
                </>
              ) : (
                <span className="text-muted-fg" title={prevText}>
                  No data in the previous period
                </span>
              )}
            </p>
            <p className="mt-0.5 truncate text-[11px] text-muted-fg">{m.hint}</p>
          </Link>
        );
      })}
    </section>
  );
}
