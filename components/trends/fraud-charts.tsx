'use client';
import { formatNumber, formatPercent } from '@/lib/format';
import type { ListFilters } from '@/lib/trends/list-links';
import { cell, ChartCard, Legend, type ChartTable } from './chart-kit';
import { CountRateChart } from './count-rate-chart';
import { type Props, HEIGHT, useChart, seriesTable, StackedSeriesChart } from './series-kit';

/** Confirmed fraud: its rate over time and the reasons given. */
export function FraudChart({ data }: Props) {
  const { label, title, href } = useChart(data);
  const rows = data.buckets.map((b, i) => {
    const x = data.fraud[i];
    return { label: label(b), b, fraud: x.fraud, rate: x.total ? x.fraud / x.total : null };
  });
  const table: ChartTable = {
    caption: 'Confirmed fraud per period',
    columns: ['Period', 'Executions', 'FRAUD', 'NOT_FRAUD', 'Confirmed fraud rate'],
    rows: data.buckets.map((b, i) => {
      const x = data.fraud[i];
      return [
        cell(title(b)),
        cell(x.total, x.total ? href(b) : null),
        cell(x.fraud, x.fraud ? href(b, { feedback: 'FRAUD' }) : null),
        cell(x.notFraud, x.notFraud ? href(b, { feedback: 'NOT_FRAUD' }) : null),
        { ...cell(formatPercent(x.total ? x.fraud / x.total : null)), numeric: true },
      ];
    }),
  };
  return (
    <ChartCard
      id="fraud"
      title="Confirmed fraud"
      description="Executions analysts marked FRAUD (bars) and their share of the period’s executions (line)."
      table={table}
      empty={data.fraud.every((x) => x.total === 0) && 'No executions in this period'}
    >
      <CountRateChart
        rows={rows}
        height={HEIGHT}
        minTickGap={12}
        bars={[
          {
            key: 'fraud',
            name: 'FRAUD',
            color: 'var(--reject)',
            link: (row) => ({
              href: href(row.b, { feedback: 'FRAUD' }),
              label: `Confirmed fraud, ${title(row.b)}: ${formatNumber(row.fraud)} executions`,
            }),
          },
        ]}
        rateName="Fraud rate"
        rateLink={(row) =>
          // Days without confirmed fraud get no point: there is nothing to list.
          !row.fraud
            ? null
            : {
                href: href(row.b, { feedback: 'FRAUD' }),
                label: `Confirmed fraud rate, ${title(row.b)}: ${formatPercent(row.rate)} (${formatNumber(row.fraud)} executions)`,
              }
        }
      />
      <Legend
        items={[
          { key: 'f', name: 'FRAUD (count)', color: 'var(--reject)' },
          { key: 'r', name: 'Fraud rate', color: 'var(--chart-5)' },
        ]}
      />
    </ChartCard>
  );
}

/** The reasons analysts gave for FRAUD, per period. */
export function FraudReasonsChart({ data }: Props) {
  const { title, href, whole } = useChart(data);
  const reasons = data.fraudReasons;
  const reasonName = (r: string) => (r === '' ? 'No reason given' : r);
  const filter = (r: string): ListFilters => ({ feedback: 'FRAUD', ...(r ? { feedbackReason: r } : {}) });
  const table = seriesTable(
    'Executions confirmed as FRAUD per period, by reason',
    ['Reason', 'Total'],
    data,
    reasons.map((r) => ({
      cells: [cell(reasonName(r.reason)), cell(r.total, href(whole, filter(r.reason)))],
      series: r.series,
      link: filter(r.reason),
    })),
    title,
    href,
  );
  return (
    <ChartCard
      id="fraud-reasons"
      title="Why it was fraud"
      description="Reasons analysts gave with FRAUD feedback, per period."
      table={table}
      empty={reasons.length === 0 && 'No confirmed fraud in this period'}
    >
      <StackedSeriesChart
        data={data}
        items={reasons.map((r) => ({
          key: r.reason,
          name: reasonName(r.reason),
          describe: reasonName(r.reason),
          series: r.series,
          link: filter(r.reason),
        }))}
      />
    </ChartCard>
  );
}
