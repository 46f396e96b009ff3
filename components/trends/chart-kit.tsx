'use client';
import { BarChart3, Download, Table2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { StaticTable } from '@/components/data-table/static-table';
import { Rectangle, type BarShapeProps } from 'recharts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { cn } from '@/lib/utils';

/**
 * The kit every chart of the app is built with: a card with a chart / table toggle and a CSV
 * download of the same data, bars and points that are links to the executions behind them,
 * theme-aware colours, and no animation under automation (stable screenshots and tests).
 */

/** One cell of a chart's table view and CSV: its text, a sortable value, and where it leads. */
export interface Cell {
  text: string;
  href?: string | null;
  /** Numbers are right-aligned. */
  numeric?: boolean;
}
export interface ChartTable {
  caption: string;
  columns: string[];
  rows: Cell[][];
}

export const cell = (text: string | number, href?: string | null): Cell =>
  typeof text === 'number' ? { text: String(text), href, numeric: true } : { text, href };

const DECISION_COLORS: Record<string, string> = {
  PASSED: 'var(--ok)',
  WARNING: 'var(--warn)',
  REJECTED: 'var(--reject)',
  NOT_EXECUTED: 'var(--neutral)',
  '': 'var(--chart-none)',
};
export const SERIES_COLORS = Array.from({ length: 8 }, (_, i) => `var(--chart-${i + 1})`);

export function decisionColor(type: string, i = 0): string {
  return DECISION_COLORS[type] ?? SERIES_COLORS[(i + 4) % SERIES_COLORS.length];
}

/** Human names of the values the service leaves empty. */
export function decisionName(type: string) {
  return type === '' ? 'No decision yet' : type;
}
export function valueName(value: string) {
  return value === '' ? 'Unknown' : value;
}

/** False under automation (navigator.webdriver), so tests and screenshots see the final chart. */
export function useChartAnimation(): boolean {
  return React.useSyncExternalStore(
    () => () => {},
    () => !navigator.webdriver,
    () => false,
  );
}

/** Spreadsheet-safe CSV: quoted fields, and text that a spreadsheet would run as a formula neutralised. */
export function toCsv(table: Pick<ChartTable, 'columns' | 'rows'>): string {
  const field = (c: Cell | string) => {
    const text = typeof c === 'string' ? c : c.text;
    const numeric = typeof c !== 'string' && c.numeric;
    const safe = !numeric && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return [table.columns.map(field).join(','), ...table.rows.map((r) => r.map(field).join(','))].join('\r\n') + '\r\n';
}

function downloadCsv(name: string, table: ChartTable) {
  const url = URL.createObjectURL(new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${name}.csv`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A chart's figures as a table (the chart's accessible and exportable twin), on the table kit. */
export function ChartDataTable({ table, className }: { table: ChartTable; className?: string }) {
  const text = (c: Cell | undefined) =>
    c?.href ? (
      <a className="text-primary hover:underline" href={c.href}>
        {c.text}
      </a>
    ) : (
      c?.text
    );
  return (
    <StaticTable
      caption={table.caption}
      className={className}
      rows={table.rows}
      rowKey={(_, i) => i}
      columns={table.columns.map((name, j) =>
        j === 0
          ? {
              header: name,
              rowHeader: true,
              className: 'whitespace-nowrap font-normal normal-case tracking-normal',
              cell: (r: Cell[]) => text(r[0]),
            }
          : {
              header: name,
              headerClassName: cn(table.rows[0]?.[j]?.numeric && 'text-right'),
              className: cn('whitespace-nowrap', table.rows[0]?.[j]?.numeric && 'text-right tabular-nums'),
              cell: (r: Cell[]) => text(r[j]),
            },
      )}
    />
  );
}

const VIEWS = [
  { view: 'chart', label: 'Chart', Icon: BarChart3 },
  { view: 'table', label: 'Table', Icon: Table2 },
] as const;

/**
 * A chart in a card with its accessible table view and CSV download. `tableOnly` for data
 * that is a table already (the decision x feedback matrix, rule precision, alerts): its children
 * (or else the plain table) are shown, and the CSV holds `table`.
 */
export function ChartCard({
  id,
  title,
  description,
  table,
  empty,
  toolbar,
  tableOnly,
  className,
  children,
}: {
  id: string;
  title: string;
  description?: React.ReactNode;
  table: ChartTable;
  /** Shown instead of the chart when there is nothing to draw. */
  empty?: string | false;
  toolbar?: React.ReactNode;
  tableOnly?: boolean;
  className?: string;
  children?: React.ReactNode;
}) {
  const [view, setView] = React.useState<'chart' | 'table'>(tableOnly ? 'table' : 'chart');
  const headingId = `${id}-title`;
  return (
    <Card className={cn('flex min-w-0 flex-col', className)} data-chart={id}>
      <CardHeader className="flex-row items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <CardTitle id={headingId}>{title}</CardTitle>
          {description ? <p className="mt-0.5 text-xs text-muted-fg">{description}</p> : null}
        </div>
        <div className="flex shrink-0 items-center gap-1">
          {toolbar}
          {tableOnly ? null : (
            <div role="group" aria-label={`${title}: view`} className="flex rounded-md border border-border p-0.5">
              {VIEWS.map(({ view: v, label, Icon }) => (
                <Button
                  key={v}
                  variant="ghost"
                  size="sm"
                  className="h-7 px-2 aria-pressed:bg-muted aria-pressed:text-primary"
                  aria-pressed={view === v}
                  onClick={() => setView(v)}
                  title={label}
                >
                  <Icon className="h-3.5 w-3.5" aria-hidden />
                  <span className="sr-only">{label}</span>
                </Button>
              ))}
            </div>
          )}
          <Button
            variant="ghost"
            size="sm"
            className="h-7 px-2"
            onClick={() => downloadCsv(id, table)}
            disabled={table.rows.length === 0}
            title="Download CSV"
          >
            <Download className="h-3.5 w-3.5" aria-hidden />
            <span className="sr-only">Download {title} as CSV</span>
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex-1">
        {empty ? (
          <EmptyState title={empty} />
        ) : tableOnly && children ? (
          children
        ) : view === 'table' ? (
          <div className="max-h-80 overflow-auto" tabIndex={0} role="region" aria-label={table.caption}>
            <ChartDataTable table={table} />
          </div>
        ) : (
          <figure aria-labelledby={headingId} className="m-0">
            {children}
            <figcaption className="sr-only">
              Each bar and point links to its executions; the table view lists the same numbers.
            </figcaption>
          </figure>
        )}
      </CardContent>
    </Card>
  );
}

/** Client-side navigation for links drawn inside SVG. */
export function useNavigate() {
  const router = useRouter();
  return React.useCallback(
    (e: React.MouseEvent, href: string) => {
      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      router.push(href);
    },
    [router],
  );
}

/**
 * A bar shape that is a link: keyboard-focusable, named for screen readers, and opening the
 * list of exactly the executions it counts. `linkOf` returns null for values the list cannot
 * select (shown, not linked).
 */
export function linkedBar<R>(
  linkOf: (row: R) => { href: string | null; label: string; fill?: string },
  navigate: (e: React.MouseEvent, href: string) => void,
) {
  function LinkedBar(p: BarShapeProps) {
    if (!p.height || !p.width || !p.payload) return <g />;
    // The link comes from the bar's own data row, never from an index into other arrays: while
    // new data replaces old, the two can briefly disagree.
    const { href, label, fill } = linkOf(p.payload as R);
    const rect = (
      <Rectangle x={p.x} y={p.y} width={p.width} height={p.height} fill={fill ?? p.fill} radius={p.radius} />
    );
    // A plain <g> may not carry a name (aria-prohibited-attr): as an image it may.
    if (!href)
      return (
        <g role="img" aria-label={label}>
          {rect}
        </g>
      );
    return (
      // Out of the tab order (a month of days is a hundred bars): keyboard users get the same
      // links in the table view, one Tab away.
      <a href={href} aria-label={label} className="chart-link" tabIndex={-1} onClick={(e) => navigate(e, href)}>
        {rect}
      </a>
    );
  }
  return LinkedBar;
}

/** A line chart's point as a link (same contract as `linkedBar`). */
export function linkedDot<R>(
  linkOf: (row: R) => { href: string | null; label: string } | null,
  navigate: (e: React.MouseEvent, href: string) => void,
  color: string,
) {
  function LinkedDot(p: { cx?: number; cy?: number; payload?: unknown }) {
    if (p.cx == null || p.cy == null || !p.payload) return <g />;
    const link = linkOf(p.payload as R);
    if (!link) return <g />;
    const dot = <circle cx={p.cx} cy={p.cy} r={3.5} fill={color} stroke="var(--card)" strokeWidth={1.5} />;
    if (!link.href)
      return (
        <g role="img" aria-label={link.label}>
          {dot}
        </g>
      );
    return (
      <a
        href={link.href}
        aria-label={link.label}
        className="chart-link"
        tabIndex={-1}
        onClick={(e) => navigate(e, link.href!)}
      >
        {/* A larger transparent target, easier to hit than the 3.5 px dot. */}
        <circle cx={p.cx} cy={p.cy} r={9} fill="transparent" />
        {dot}
      </a>
    );
  }
  return LinkedDot;
}

export const axisProps = {
  tick: { fill: 'var(--muted-fg)', fontSize: 11 },
  stroke: 'var(--border)',
  tickLine: false,
} as const;

/** Tooltip in the app's card style. */
export function ChartTooltip({
  active,
  label,
  payload,
  format,
}: {
  active?: boolean;
  label?: React.ReactNode;
  payload?: ReadonlyArray<{ name?: React.ReactNode; value?: unknown; color?: string; dataKey?: unknown }>;
  format?: (v: unknown, name: string) => string;
}) {
  if (!active || !payload?.length) return null;
  return (
    <div className="rounded-md border border-border bg-card px-3 py-2 text-xs shadow-lg">
      {label != null ? <p className="mb-1 font-medium text-fg">{label}</p> : null}
      <ul className="space-y-0.5">
        {payload.map((p, i) => (
          <li key={i} className="flex items-center gap-2 text-muted-fg">
            <span aria-hidden className="h-2 w-2 rounded-sm" style={{ background: p.color }} />
            <span className="text-fg">{String(p.name ?? p.dataKey)}</span>
            <span className="ml-auto tabular-nums text-fg">
              {format ? format(p.value, String(p.name ?? '')) : String(p.value)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A small legend that wraps, in the app's type (Recharts' own legend does not theme well). */
export function Legend({ items }: { items: Array<{ key: string; name: string; color: string }> }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-fg">
      {items.map((i) => (
        <li key={i.key} className="flex items-center gap-1.5">
          <span aria-hidden className="h-2.5 w-2.5 rounded-sm" style={{ background: i.color }} />
          {i.name}
        </li>
      ))}
    </ul>
  );
}
