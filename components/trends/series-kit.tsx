'use client';
import type { ListFilters } from '@/lib/trends/list-links';
import { bucketLabel, bucketTitle, trendsListHref, type Bucket, type TrendsData } from '@/lib/trends/shared';
import * as React from 'react';
import { cell, useChartAnimation, useNavigate, type Cell, type ChartTable } from './chart-kit';

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
