'use client';
import { cell, ChartCard, Legend, type ChartTable } from '@/components/trends/chart-kit';
import { CountRateChart } from '@/components/trends/count-rate-chart';
import type { TrendPoint } from '@/lib/qa/quality';
import { formatNumber, formatPercent } from '@/lib/format';
import { qaListHref } from '@/lib/qa/schema';

/** Agreement over the weeks: decided reviews (bars) and the share that agreed (line); each links to its reviews. */
export function QaTrendChart({ points }: { points: TrendPoint[] }) {
  const rows = points.map((p) => ({ ...p, label: p.week.slice(5), disagreed: p.decided - p.agreed }));
  type Row = (typeof rows)[number];
  const table: ChartTable = {
    caption: 'QA agreement per week',
    columns: ['Week of', 'Decided', 'Agreed', 'Agreement rate', 'Overturned'],
    rows: points.map((p) => [
      cell(p.week),
      cell(p.decided, p.decided ? qaListHref({ week: p.week, result: 'decided' }) : null),
      cell(p.agreed, p.agreed ? qaListHref({ week: p.week, result: 'agreed' }) : null),
      { ...cell(formatPercent(p.rate)), numeric: true },
      cell(p.overturned, p.overturned ? qaListHref({ week: p.week, result: 'overturned' }) : null),
    ]),
  };
  return (
    <ChartCard
      id="qa-trend"
      title="Agreement over the weeks"
      description="Decided QA reviews by the week their cases were resolved: agreed and disagreed (bars), the agreement rate (line)."
      table={table}
      empty={points.every((p) => p.decided === 0) && 'No decided QA reviews in these weeks'}
    >
      <CountRateChart
        rows={rows}
        height={240}
        rateDomain={[0, 1]}
        bars={(['agreed', 'disagreed'] as const).map((k) => ({
          key: k,
          name: k === 'agreed' ? 'Agreed' : 'Disagreed',
          color: k === 'agreed' ? 'var(--ok)' : 'var(--warn)',
          link: (row: Row) => ({
            href: qaListHref({ week: row.week, result: k }),
            label: `Week of ${row.week}: ${formatNumber(row[k])} ${k}`,
          }),
        }))}
        rateName="Agreement rate"
        rateLink={(row) =>
          row.decided
            ? {
                href: qaListHref({ week: row.week, result: 'decided' }),
                label: `Week of ${row.week}: agreement ${formatPercent(row.rate)} of ${formatNumber(row.decided)}`,
              }
            : null
        }
      />
      <Legend
        items={[
          { key: 'a', name: 'Agreed', color: 'var(--ok)' },
          { key: 'd', name: 'Disagreed', color: 'var(--warn)' },
          { key: 'r', name: 'Agreement rate', color: 'var(--chart-5)' },
        ]}
      />
    </ChartCard>
  );
}
