'use client';
import * as React from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  ComposedChart,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { Select } from '@/components/ui/input';
import type { ListFilters } from '@/lib/data/list-url';
import {
  bucketLabel,
  bucketTitle,
  decisionFilter,
  trendsListHref,
  type Bucket,
  type TrendsData,
} from '@/lib/data/trends-shared';
import { formatNumber, formatPercent } from '@/lib/format';
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
  SERIES_COLORS,
  useChartAnimation,
  useNavigate,
  valueName,
  type Cell,
  type ChartTable,
} from './chart-kit';

type Props = { data: TrendsData };
const HEIGHT = 240;

/** What every trends chart needs: period labels, links to the list, animation and navigation. */
function useChart(data: TrendsData) {
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

const key = (type: string) => `d:${type}`;

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
          {/* Between 30 and 31, and between 70 and 71: the ends of the PASSED and WARNING bands. */}
          <ReferenceLine
            x={30}
            position="end"
            stroke="var(--muted-fg)"
            strokeDasharray="4 3"
            label={{ value: 'WARNING ≥ 31', position: 'insideTopRight', fill: 'var(--muted-fg)', fontSize: 10 }}
          />
          <ReferenceLine
            x={70}
            position="end"
            stroke="var(--muted-fg)"
            strokeDasharray="4 3"
            label={{ value: 'REJECTED ≥ 71', position: 'insideTopRight', fill: 'var(--muted-fg)', fontSize: 10 }}
          />
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
          <Line
            dataKey="avg"
            name="Average"
            stroke="var(--chart-1)"
            strokeWidth={2}
            connectNulls={false}
            isAnimationActive={animate}
            dot={dot('avg', 'var(--chart-1)')}
            activeDot={false}
          />
          <Line
            dataKey="p90"
            name="90th percentile"
            stroke="var(--chart-4)"
            strokeWidth={2}
            connectNulls={false}
            isAnimationActive={animate}
            dot={dot('p90', 'var(--chart-4)')}
            activeDot={false}
          />
        </LineChart>
      </ResponsiveContainer>
      <Legend
        items={[
          { key: 'a', name: 'Average', color: 'var(--chart-1)' },
          { key: 'p', name: '90th percentile', color: 'var(--chart-4)' },
        ]}
      />
    </ChartCard>
  );
}

function seriesTable(
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

/** Per capability, its most frequent REJECTED / WARNING labels per period. */
export function LabelsChart({ data }: Props) {
  const { label, title, href, whole, animate, navigate } = useChart(data);
  const capabilities = [...new Set(data.labels.map((l) => l.capability))];
  const [picked, setPicked] = React.useState<string | null>(null);
  const capability = picked && capabilities.includes(picked) ? picked : capabilities[0];
  const shown = data.labels.filter((l) => l.capability === capability);
  const rows = data.buckets.map((b, i) => ({
    label: label(b),
    b,
    ...Object.fromEntries(shown.map((l, j) => [`s${j}`, l.series[i]])),
  }));
  type Row = { b: Bucket } & Record<string, number>;
  const table = seriesTable(
    'Executions per period with each capability label (REJECTED or WARNING)',
    ['Capability', 'Label', 'Decision', 'Total'],
    data,
    data.labels.map((l) => ({
      cells: [
        cell(l.capability),
        cell(l.label),
        cell(l.decisionType),
        cell(l.total, href(whole, { capability: l.capability, capLabel: l.label })),
      ],
      series: l.series,
      link: { capability: l.capability, capLabel: l.label },
    })),
    title,
    href,
  );
  return (
    <ChartCard
      id="labels"
      title="Top rejection and warning labels"
      description="Executions with the label, per period; the most frequent six per capability."
      table={table}
      empty={data.labels.length === 0 && 'No rejected or warning checks in this period'}
      toolbar={
        capabilities.length > 1 ? (
          <Select
            aria-label="Capability"
            className="mr-1 h-7 w-auto py-0 text-xs"
            value={capability}
            onChange={(e) => setPicked(e.target.value)}
          >
            {capabilities.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
        ) : null
      }
    >
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={rows} margin={{ top: 4, right: 8, left: -8, bottom: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...axisProps} minTickGap={12} />
          <YAxis {...axisProps} allowDecimals={false} />
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            content={(p) => <ChartTooltip {...p} format={(v) => formatNumber(Number(v))} />}
          />
          {shown.map((l, j) => (
            <Bar
              key={`${l.decisionType}:${l.label}`}
              dataKey={`s${j}`}
              name={l.label}
              stackId="l"
              fill={SERIES_COLORS[j % SERIES_COLORS.length]}
              isAnimationActive={animate}
              shape={linkedBar(
                (row: Row) => ({
                  href: href(row.b, { capability: l.capability, capLabel: l.label }),
                  label: `${l.capability} ${l.label}, ${title(row.b)}: ${formatNumber(row[`s${j}`])} executions`,
                }),
                navigate,
              )}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
      <Legend
        items={shown.map((l, j) => ({
          key: l.label,
          name: `${l.label} (${l.decisionType.toLowerCase()})`,
          color: SERIES_COLORS[j % SERIES_COLORS.length],
        }))}
      />
    </ChartCard>
  );
}

/** The rules that matched most often, per period. */
export function RulesChart({ data }: Props) {
  const { label, title, href, whole, animate, navigate } = useChart(data);
  const rows = data.buckets.map((b, i) => ({
    label: label(b),
    b,
    ...Object.fromEntries(data.rules.map((r, j) => [`r${j}`, r.series[i]])),
  }));
  type Row = { b: Bucket } & Record<string, number>;
  const name = (r: { ruleId: string; name: string | null }) => r.name ?? r.ruleId;
  const table = seriesTable(
    'Executions per period in which each rule matched',
    ['Rule', 'Rule id', 'Total'],
    data,
    data.rules.map((r) => ({
      cells: [cell(name(r)), cell(r.ruleId), cell(r.total, href(whole, { rule: r.ruleId }))],
      series: r.series,
      link: { rule: r.ruleId },
    })),
    title,
    href,
  );
  return (
    <ChartCard
      id="rules"
      title="Top matched rules"
      description="Executions in which the rule matched, per period; the eight most frequent."
      table={table}
      empty={data.rules.length === 0 && 'No rule matched in this period'}
    >
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <LineChart data={rows} margin={{ top: 4, right: 8, left: -8, bottom: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...axisProps} minTickGap={12} />
          <YAxis {...axisProps} allowDecimals={false} />
          <Tooltip content={(p) => <ChartTooltip {...p} format={(v) => formatNumber(Number(v))} />} />
          {data.rules.map((r, j) => {
            const color = SERIES_COLORS[j % SERIES_COLORS.length];
            return (
              <Line
                key={r.ruleId}
                dataKey={`r${j}`}
                name={name(r)}
                stroke={color}
                strokeWidth={1.75}
                isAnimationActive={animate}
                activeDot={false}
                dot={linkedDot(
                  (row: Row) => {
                    const n = row[`r${j}`];
                    if (!n) return null;
                    return {
                      href: href(row.b, { rule: r.ruleId }),
                      label: `${name(r)}, ${title(row.b)}: matched in ${formatNumber(n)} executions`,
                    };
                  },
                  navigate,
                  color,
                )}
              />
            );
          })}
        </LineChart>
      </ResponsiveContainer>
      <Legend
        items={data.rules.map((r, j) => ({
          key: r.ruleId,
          name: name(r),
          color: SERIES_COLORS[j % SERIES_COLORS.length],
        }))}
      />
    </ChartCard>
  );
}

/** Executions by issuing country or document type, stacked by decision. */
export function BreakdownChart({ data, by }: Props & { by: 'country' | 'docType' }) {
  const { href, whole, animate, navigate } = useChart(data);
  const items = by === 'country' ? data.countries : data.docTypes;
  const what = by === 'country' ? 'Issuing country' : 'Document type';
  const types = data.decisionTypes.filter((t) => items.some((it) => it.counts[t]));
  const rows = items.map((it) => ({
    name: valueName(it.key),
    it,
    ...Object.fromEntries(types.map((t) => [key(t), it.counts[t] ?? 0])),
  }));
  // An unknown value cannot be selected on the list: shown, not linked.
  const linkOf = (value: string, extra: ListFilters = {}) =>
    value === '' ? null : href(whole, { [by]: value, ...extra });
  const table: ChartTable = {
    caption: `Executions by ${what.toLowerCase()} and decision`,
    columns: [what, ...types.map(decisionName), 'Total'],
    rows: items.map((it) => [
      cell(valueName(it.key)),
      ...types.map((t) => {
        const n = it.counts[t] ?? 0;
        const filter = decisionFilter(t);
        return cell(n, n && filter ? linkOf(it.key, filter) : null);
      }),
      cell(it.total, linkOf(it.key)),
    ]),
  };
  return (
    <ChartCard
      id={by === 'country' ? 'countries' : 'doc-types'}
      title={`By ${what.toLowerCase()}`}
      description={`Executions in the range; the twelve most frequent. "Unknown": no ${what.toLowerCase()} extracted.`}
      table={table}
      empty={items.length === 0 && 'No executions in this period'}
    >
      <ResponsiveContainer width="100%" height={Math.max(120, 28 * rows.length + 30)}>
        <BarChart data={rows} layout="vertical" margin={{ top: 0, right: 12, left: 8, bottom: 0 }}>
          <CartesianGrid horizontal={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis type="number" {...axisProps} allowDecimals={false} />
          <YAxis type="category" dataKey="name" {...axisProps} width={by === 'country' ? 64 : 120} interval={0} />
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            content={(p) => <ChartTooltip {...p} format={(v) => formatNumber(Number(v))} />}
          />
          {types.map((t, ti) => (
            <Bar
              key={t}
              dataKey={key(t)}
              name={decisionName(t)}
              stackId="b"
              fill={decisionColor(t, ti)}
              isAnimationActive={animate}
              shape={linkedBar(({ it }: (typeof rows)[number]) => {
                const filter = decisionFilter(t);
                return {
                  href: filter ? linkOf(it.key, filter) : null,
                  label: `${valueName(it.key)}, ${decisionName(t)}: ${formatNumber(it.counts[t] ?? 0)} executions`,
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

/** Executions analysts confirmed as FRAUD per period, as a count and as a share of the period's executions. */
export function FraudChart({ data }: Props) {
  const { label, title, href, animate, navigate } = useChart(data);
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
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <ComposedChart data={rows} margin={{ top: 4, right: 0, left: -8, bottom: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...axisProps} minTickGap={12} />
          <YAxis yAxisId="n" {...axisProps} allowDecimals={false} />
          <YAxis
            yAxisId="rate"
            orientation="right"
            {...axisProps}
            tickFormatter={(v: number) => formatPercent(v)}
            width={48}
          />
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            content={(p) => (
              <ChartTooltip
                {...p}
                format={(v, name) =>
                  name === 'Fraud rate' ? formatPercent(v as number | null) : formatNumber(Number(v))
                }
              />
            )}
          />
          <Bar
            yAxisId="n"
            dataKey="fraud"
            name="FRAUD"
            fill="var(--reject)"
            fillOpacity={0.75}
            isAnimationActive={animate}
            shape={linkedBar(
              (row: (typeof rows)[number]) => ({
                href: href(row.b, { feedback: 'FRAUD' }),
                label: `Confirmed fraud, ${title(row.b)}: ${formatNumber(row.fraud)} executions`,
              }),
              navigate,
            )}
          />
          <Line
            yAxisId="rate"
            dataKey="rate"
            name="Fraud rate"
            stroke="var(--chart-5)"
            strokeWidth={2}
            activeDot={false}
            connectNulls={false}
            isAnimationActive={animate}
            dot={linkedDot(
              (row: (typeof rows)[number]) =>
                // Days without confirmed fraud get no point: there is nothing to list.
                !row.fraud
                  ? null
                  : {
                      href: href(row.b, { feedback: 'FRAUD' }),
                      label: `Confirmed fraud rate, ${title(row.b)}: ${formatPercent(row.rate)} (${formatNumber(row.fraud)} executions)`,
                    },
              navigate,
              'var(--chart-5)',
            )}
          />
        </ComposedChart>
      </ResponsiveContainer>
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
  const { label, title, href, whole, animate, navigate } = useChart(data);
  const reasons = data.fraudReasons;
  const reasonName = (r: string) => (r === '' ? 'No reason given' : r);
  const filter = (r: string): ListFilters => ({ feedback: 'FRAUD', ...(r ? { feedbackReason: r } : {}) });
  const rows = data.buckets.map((b, i) => ({
    label: label(b),
    b,
    ...Object.fromEntries(reasons.map((r, j) => [`f${j}`, r.series[i]])),
  }));
  type Row = { b: Bucket } & Record<string, number>;
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
      <ResponsiveContainer width="100%" height={HEIGHT}>
        <BarChart data={rows} margin={{ top: 4, right: 8, left: -8, bottom: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
          <XAxis dataKey="label" {...axisProps} minTickGap={12} />
          <YAxis {...axisProps} allowDecimals={false} />
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            content={(p) => <ChartTooltip {...p} format={(v) => formatNumber(Number(v))} />}
          />
          {reasons.map((r, j) => (
            <Bar
              key={r.reason}
              dataKey={`f${j}`}
              name={reasonName(r.reason)}
              stackId="f"
              fill={SERIES_COLORS[j % SERIES_COLORS.length]}
              isAnimationActive={animate}
              shape={linkedBar(
                (row: Row) => ({
                  href: href(row.b, filter(r.reason)),
                  label: `${reasonName(r.reason)}, ${title(row.b)}: ${formatNumber(row[`f${j}`])} executions`,
                }),
                navigate,
              )}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
      <Legend
        items={reasons.map((r, j) => ({
          key: r.reason,
          name: reasonName(r.reason),
          color: SERIES_COLORS[j % SERIES_COLORS.length],
        }))}
      />
    </ChartCard>
  );
}
