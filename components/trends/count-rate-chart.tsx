'use client';
import { Bar, CartesianGrid, ComposedChart, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber, formatPercent } from '@/lib/format';
import { axisProps, ChartTooltip, linkedBar, linkedDot, useChartAnimation, useNavigate } from './chart-kit';

type Link = { href: string | null; label: string };

export interface CountSeries<R> {
  key: keyof R & string;
  name: string;
  color: string;
  /** Where a click on this bar of a row goes, and what a screen reader says of it. */
  link: (row: R) => Link;
}

/**
 * Counts per period as bars (stacked when there are several) on the left axis and a rate as a
 * line on the right axis, every bar and point a link to the list behind it: the frame shared by
 * the confirmed fraud chart (trends) and the QA agreement chart (quality).
 */
export function CountRateChart<R extends { label: string; rate: number | null }>({
  rows,
  bars,
  rateName,
  rateLink,
  height,
  rateDomain,
  minTickGap,
}: {
  rows: R[];
  bars: Array<CountSeries<R>>;
  rateName: string;
  /** The point of a row, or null where it has nothing to list. */
  rateLink: (row: R) => Link | null;
  height: number;
  rateDomain?: [number, number];
  minTickGap?: number;
}) {
  const animate = useChartAnimation();
  const navigate = useNavigate();
  const rateColor = 'var(--chart-5)';
  return (
    <ResponsiveContainer width="100%" height={height}>
      <ComposedChart data={rows} margin={{ top: 4, right: 0, left: -8, bottom: 0 }}>
        <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
        <XAxis dataKey="label" {...axisProps} minTickGap={minTickGap} />
        <YAxis yAxisId="n" {...axisProps} allowDecimals={false} />
        <YAxis
          yAxisId="rate"
          orientation="right"
          {...axisProps}
          domain={rateDomain}
          tickFormatter={(v: number) => formatPercent(v)}
          width={48}
        />
        <Tooltip
          cursor={{ fill: 'var(--muted)' }}
          content={(p) => (
            <ChartTooltip
              {...p}
              format={(v, name) => (name === rateName ? formatPercent(v as number | null) : formatNumber(Number(v)))}
            />
          )}
        />
        {bars.map((s) => (
          <Bar
            key={s.key}
            yAxisId="n"
            stackId={bars.length > 1 ? 'counts' : undefined}
            dataKey={s.key as string}
            name={s.name}
            fill={s.color}
            fillOpacity={0.75}
            isAnimationActive={animate}
            shape={linkedBar(s.link, navigate)}
          />
        ))}
        <Line
          yAxisId="rate"
          dataKey="rate"
          name={rateName}
          stroke={rateColor}
          strokeWidth={2}
          activeDot={false}
          connectNulls={false}
          isAnimationActive={animate}
          dot={linkedDot(rateLink, navigate, rateColor)}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
