'use client';
import { formatNumber, formatPercent } from '@/lib/format';
import { decisionFilter } from '@/lib/trends/shared';
import * as React from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import {
  axisProps,
  cell,
  ChartCard,
  ChartTooltip,
  decisionColor,
  decisionName,
  Legend,
  linkedBar,
  linkedDot,
  type ChartTable,
} from './chart-kit';
import { type Props, HEIGHT, useChart, key } from './series-kit';

/** Decisions and risk: the mix over time, the score distribution with its bands, mean and p90 over time. */
/** Decisions over time, stacked, as counts or as shares of each period. */
export function DecisionsChart({ data }: Props) {
  const { label, title, href, animate, navigate } = useChart(data);
  const [shares, setShares] = React.useState(false);
  const types = data.decisionTypes;
  const rows = data.buckets.map((b, i) => ({
    label: label(b),
    b,
    total: data.decisions[i].total,
    counts: data.decisions[i].counts,
    ...Object.fromEntries(types.map((t) => [key(t), data.decisions[i].counts[t] ?? 0])),
  }));
  type Row = (typeof rows)[number];
  const table: ChartTable = {
    caption: 'Executions per period by decision',
    columns: ['Period', ...types.map(decisionName), 'Total'],
    rows: data.buckets.map((b, i) => [
      cell(title(b), href(b)),
      ...types.map((t) => {
        const n = data.decisions[i].counts[t] ?? 0;
        const filter = decisionFilter(t);
        return cell(n, n && filter ? href(b, filter) : null);
      }),
      cell(data.decisions[i].total, data.decisions[i].total ? href(b) : null),
    ]),
  };
  const total = data.decisions.reduce((s, d) => s + d.total, 0);
  return (
    <ChartCard
      id="decisions"
      title="Decisions over time"
      description={shares ? 'Share of each period’s executions' : 'Executions per period, stacked by decision'}
      table={table}
      empty={total === 0 && 'No executions in this period'}
      toolbar={
        <div
          role="group"
          aria-label="Decisions: counts or shares"
          className="mr-1 flex rounded-md border border-border p-0.5 text-xs"
        >
          {(['Counts', 'Shares'] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={(m === 'Shares') === shares}
              onClick={() => setShares(m === 'Shares')}
              className="rounded px-2 py-1 aria-pressed:bg-muted aria-pressed:font-medium"
            >
              {m}
            </button>
          ))}
        </div>
      }
    >
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart
          data={rows}
          stackOffset={shares ? 'expand' : undefined}
          margin={{ top: 4, right: 8, left: -8, bottom: 0 }}
        >
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...axisProps} minTickGap={12} />
          <YAxis
            {...axisProps}
            allowDecimals={false}
            tickFormatter={shares ? (v: number) => formatPercent(v).replace('.0', '') : undefined}
          />
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            content={(p) => {
              const row = p.payload?.[0]?.payload as { total?: number } | undefined;
              return (
                <ChartTooltip
                  {...p}
                  format={(v) =>
                    shares && row?.total
                      ? `${formatPercent(Number(v) / row.total)} (${formatNumber(Number(v))})`
                      : formatNumber(Number(v))
                  }
                />
              );
            }}
          />
          {types.map((t, ti) => (
            <Bar
              key={t}
              dataKey={key(t)}
              name={decisionName(t)}
              stackId="d"
              fill={decisionColor(t, ti)}
              isAnimationActive={animate}
              shape={linkedBar((row: Row) => {
                const filter = decisionFilter(t);
                return {
                  href: filter ? href(row.b, filter) : null,
                  label: `${decisionName(t)}, ${title(row.b)}: ${formatNumber(row.counts[t] ?? 0)} executions`,
                };
              }, navigate)}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
      <Legend items={types.map((t, i) => ({ key: t, name: decisionName(t), color: decisionColor(t, i) }))} />
    </ChartCard>
  );
}

function band(score: number) {
  return score < 0 ? 'var(--neutral)' : score <= 30 ? 'var(--ok)' : score <= 70 ? 'var(--warn)' : 'var(--reject)';
}

/** Lines between 30 and 31, and between 70 and 71: the ends of the PASSED and WARNING bands. */
const BAND_STARTS = [
  { x: 30, value: 'WARNING ≥ 31' },
  { x: 70, value: 'REJECTED ≥ 71' },
];

/** How many executions got each risk score, with the default band thresholds marked. */
export function RiskDistributionChart({ data }: Props) {
  const { href, whole, animate, navigate } = useChart(data);
  const rows = data.riskDistribution;
  const total = rows.reduce((s, r) => s + r.n, 0);
  const notExecuted = rows.find((r) => r.score === -1)?.n ?? 0;
  const table: ChartTable = {
    caption: 'Executions per risk score',
    columns: ['Risk score', 'Executions'],
    rows: rows.map((r) => [
      cell(r.score === -1 ? '-1 (not executed)' : String(r.score)),
      cell(r.n, r.n ? href(whole, { riskMin: r.score, riskMax: r.score }) : null),
    ]),
  };
  return (
    <ChartCard
      id="risk-distribution"
      title="Risk score distribution"
      description={`${formatNumber(total)} scored executions in the range; -1 means not executed (${formatNumber(notExecuted)}). Lines: default bands, PASSED 0–30, WARNING 31–70, REJECTED 71–100.`}
      table={table}
      empty={total === 0 && 'No risk scores in this period'}
    >
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={rows} barCategoryGap="15%" margin={{ top: 16, right: 8, left: -8, bottom: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis
            dataKey="score"
            type="category"
            ticks={[-1, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]}
            interval={0}
            {...axisProps}
          />
          <YAxis {...axisProps} allowDecimals={false} />
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            content={(p) => <ChartTooltip {...p} label={`Score ${p.label}`} format={(v) => formatNumber(Number(v))} />}
          />
          {BAND_STARTS.map(({ x, value }) => (
            <ReferenceLine
              key={x}
              x={x}
              position="end"
              stroke="var(--muted-fg)"
              strokeDasharray="4 3"
              label={{ value, position: 'insideTopRight', fill: 'var(--muted-fg)', fontSize: 10 }}
            />
          ))}
          <Bar
            dataKey="n"
            name="Executions"
            isAnimationActive={animate}
            shape={linkedBar((r: (typeof rows)[number]) => {
              return {
                href: href(whole, { riskMin: r.score, riskMax: r.score }),
                label: `Risk score ${r.score}: ${formatNumber(r.n)} executions`,
                fill: band(r.score),
              };
            }, navigate)}
          />
        </BarChart>
      </ResponsiveContainer>
      <Legend
        items={[
          { key: 'ne', name: 'Not executed (-1)', color: band(-1) },
          { key: 'p', name: 'PASSED band', color: band(0) },
          { key: 'w', name: 'WARNING band', color: band(50) },
          { key: 'r', name: 'REJECTED band', color: band(90) },
        ]}
      />
    </ChartCard>
  );
}

const RISK_LINES = [
  { key: 'avg', name: 'Average', color: 'var(--chart-1)' },
  { key: 'p90', name: '90th percentile', color: 'var(--chart-4)' },
] as const;

/** Average and 90th percentile of the risk score (0–100; -1 is not a score) per period. */
export function RiskOverTimeChart({ data }: Props) {
  const { label, title, href, animate, navigate } = useChart(data);
  const rows = data.buckets.map((b, i) => {
    const r = data.riskOverTime[i];
    return { label: label(b), b, avg: r.n ? Math.round((r.sum / r.n) * 10) / 10 : null, p90: r.p90, n: r.n };
  });
  const table: ChartTable = {
    caption: 'Average and 90th percentile risk score per period',
    columns: ['Period', 'Scored executions', 'Average', '90th percentile'],
    rows: data.buckets.map((b, i) => [
      cell(title(b)),
      cell(rows[i].n, rows[i].n ? href(b, { riskMin: 0, riskMax: 100 }) : null),
      cell(rows[i].avg == null ? '—' : rows[i].avg!.toFixed(1)),
      {
        ...cell(rows[i].p90 ?? '—', rows[i].p90 != null ? href(b, { riskMin: rows[i].p90!, riskMax: 100 }) : null),
        numeric: true,
      },
    ]),
  };
  const dot = (k: 'avg' | 'p90', color: string) =>
    linkedDot(
      (row: (typeof rows)[number]) => {
        const v = row[k];
        if (v == null) return null;
        const b = row.b;
        return k === 'avg'
          ? { href: href(b, { riskMin: 0, riskMax: 100 }), label: `Average risk score, ${title(b)}: ${v.toFixed(1)}` }
          : {
              href: href(b, { riskMin: v, riskMax: 100 }),
              label: `90th percentile risk score, ${title(b)}: ${v} (executions at or above it)`,
            };
      },
      navigate,
      color,
    );
  return (
    <ChartCard
      id="risk-over-time"
      title="Risk score over time"
      description="Average and 90th percentile of scores 0–100 per period. A p90 point lists the executions at or above it."
      table={table}
      empty={rows.every((r) => !r.n) && 'No risk scores in this period'}
    >
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <LineChart data={rows} margin={{ top: 4, right: 8, left: -8, bottom: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...axisProps} minTickGap={12} />
          <YAxis {...axisProps} domain={[0, 100]} ticks={[0, 30, 70, 100]} />
          <Tooltip content={(p) => <ChartTooltip {...p} format={(v) => (v == null ? '—' : String(v))} />} />
          <ReferenceLine y={30.5} stroke="var(--ok)" strokeOpacity={0.5} strokeDasharray="4 3" />
          <ReferenceLine y={70.5} stroke="var(--reject)" strokeOpacity={0.5} strokeDasharray="4 3" />
          {RISK_LINES.map((l) => (
            <Line
              key={l.key}
              dataKey={l.key}
              name={l.name}
              stroke={l.color}
              strokeWidth={2}
              connectNulls={false}
              isAnimationActive={animate}
              dot={dot(l.key, l.color)}
              activeDot={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
      <Legend items={[...RISK_LINES]} />
    </ChartCard>
  );
}
