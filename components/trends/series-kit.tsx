'use client';
import type { ListFilters } from '@/lib/trends/list-links';
import { bucketLabel, bucketTitle, trendsListHref, type Bucket, type TrendsData } from '@/lib/trends/shared';
import { formatNumber } from '@/lib/format';
import * as React from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import {
  axisProps,
  cell,
  ChartTooltip,
  Legend,
  linkedBar,
  SERIES_COLORS,
  useChartAnimation,
  useNavigate,
  type Cell,
  type ChartTable,
} from './chart-kit';

/** What the trends charts share beyond the chart kit: their props, height, periods and series tables. */
export type Props = { data: TrendsData };
export const HEIGHT = 240;

/** What every trends chart needs: period labels, links to the list, animation and navigation. */
export function useChart(data: TrendsData) {
  const f = data.filters;
  const animate = useChartAnimation();
  const navigate = useNavigate();
  const periods = React.useMemo(() => {
    const label = (b: Bucket) => bucketLabel(b, f.granularity);
    const title = (b: Bucket) => bucketTitle(b, f.granularity);
    const href = (b: Bucket | { from: string; to: string }, extra: ListFilters = {}) => trendsListHref(f, b, extra);
    return { f, label, title, href, whole: { from: f.from, to: f.to } };
  }, [f]);
  return { ...periods, animate, navigate };
}

export const key = (type: string) => `d:${type}`;

export function seriesTable(
  caption: string,
  head: string[],
  data: TrendsData,
  items: Array<{ cells: Cell[]; series: number[]; link: ListFilters | null }>,
  title: (b: Bucket) => string,
  href: (b: Bucket, extra: ListFilters) => string,
): ChartTable {
  return {
    caption,
    columns: [...head, ...data.buckets.map(title)],
    rows: items.map((it) => [
      ...it.cells,
      ...it.series.map((n, i) => cell(n, n && it.link ? href(data.buckets[i], it.link) : null)),
    ]),
  };
}

/** One series of a stacked chart: its counts per period and the executions they link to. */
export type StackedSeries = {
  key: string;
  name: string;
  /** The legend's name, where it says more than the tooltip's. */
  legendName?: string;
  /** What a bar's link label starts with, before the period and count. */
  describe: string;
  series: number[];
  link: ListFilters;
};

/** Counts per period stacked by series, each bar a link to the executions it counts. */
export function StackedSeriesChart({ data, items }: { data: TrendsData; items: StackedSeries[] }) {
  const { label, title, href, animate, navigate } = useChart(data);
  const rows = data.buckets.map((b, i) => ({
    label: label(b),
    b,
    ...Object.fromEntries(items.map((s, j) => [`s${j}`, s.series[i]])),
  }));
  type Row = { b: Bucket } & Record<string, number>;
  const color = (j: number) => SERIES_COLORS[j % SERIES_COLORS.length];
  return (
    <>
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={rows} margin={{ top: 4, right: 8, left: -8, bottom: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...axisProps} minTickGap={12} />
          <YAxis {...axisProps} allowDecimals={false} />
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            content={(p) => <ChartTooltip {...p} format={(v) => formatNumber(Number(v))} />}
          />
          {items.map((s, j) => (
            <Bar
              key={s.key}
              dataKey={`s${j}`}
              name={s.name}
              stackId="s"
              fill={color(j)}
              isAnimationActive={animate}
              shape={linkedBar(
                (row: Row) => ({
                  href: href(row.b, s.link),
                  label: `${s.describe}, ${title(row.b)}: ${formatNumber(row[`s${j}`])} executions`,
                }),
                navigate,
              )}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
      <Legend items={items.map((s, j) => ({ key: s.key, name: s.legendName ?? s.name, color: color(j) }))} />
    </>
  );
}
