'use client';
import { Select } from '@/components/ui/input';
import { formatNumber } from '@/lib/format';
import type { ListFilters } from '@/lib/trends/list-links';
import { decisionFilter, type Bucket } from '@/lib/trends/shared';
import * as React from 'react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
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
  valueName,
  type ChartTable,
} from './chart-kit';
import { type Props, HEIGHT, useChart, key, seriesTable, StackedSeriesChart } from './series-kit';

/** What raised concerns: labels per capability, matched rules, and breakdowns by country and document type. */
/** Per capability, its most frequent REJECTED / WARNING labels per period. */
export function LabelsChart({ data }: Props) {
  const { title, href, whole } = useChart(data);
  const capabilities = [...new Set(data.labels.map((l) => l.capability))];
  const [picked, setPicked] = React.useState<string | null>(null);
  const capability = picked && capabilities.includes(picked) ? picked : capabilities[0];
  const shown = data.labels.filter((l) => l.capability === capability);
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
      <StackedSeriesChart
        data={data}
        items={shown.map((l) => ({
          key: `${l.decisionType}:${l.label}`,
          name: l.label,
          legendName: `${l.label} (${l.decisionType.toLowerCase()})`,
          describe: `${l.capability} ${l.label}`,
          series: l.series,
          link: { capability: l.capability, capLabel: l.label },
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
