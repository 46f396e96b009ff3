'use client';
import {
  columnVisibilityFeature,
  createColumnHelper,
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type ColumnVisibilityState,
  type RowSelectionState,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, Eye } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { DecisionBadge, FeedbackBadge, RiskScore, StatusBadge } from '@/components/executions/badges';
import type { ExecutionListRow } from '@/lib/data/executions/list';
import type { ListColumnId } from '@/lib/executions/columns';
import { detailHref, SORT_LABELS, type ListParams, type SortKey } from '@/lib/executions/list-params';
import { formatDateTimeCompact } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useListNav } from './list-nav';
import { SEARCH_INPUT_ID } from './search-box';

export const features = tableFeatures({ columnVisibilityFeature, rowSelectionFeature });
const helper = createColumnHelper<typeof features, ExecutionListRow>();

const SORTABLE: Partial<Record<ListColumnId, SortKey>> = {
  createdAt: 'created',
  completedAt: 'completed',
  riskScore: 'risk',
};

function Muted({ children }: { children: React.ReactNode }) {
  return <span className="text-xs text-muted-fg">{children}</span>;
}

// Columns are built once per list state: the row link carries the list's filters and sort.
function buildColumns(params: ListParams) {
  return helper.columns([
    helper.display({
      id: 'select',
      header: ({ table }) => (
        <input
          type="checkbox"
          aria-label="Select all rows on this page"
          className="h-4 w-4 accent-[var(--primary)]"
          checked={table.getIsAllPageRowsSelected()}
          ref={(el) => {
            if (el) el.indeterminate = table.getIsSomePageRowsSelected() && !table.getIsAllPageRowsSelected();
          }}
          onChange={table.getToggleAllPageRowsSelectedHandler()}
        />
      ),
      cell: ({ row }) => (
        <input
          type="checkbox"
          aria-label={`Select execution ${row.original.id}`}
          className="h-4 w-4 accent-[var(--primary)]"
          checked={row.getIsSelected()}
          onChange={row.getToggleSelectedHandler()}
        />
      ),
    }),
    helper.accessor('createdAt', {
      id: 'createdAt',
      header: 'Created (UTC)',
      cell: ({ row }) => (
        <Link
          data-row-link
          href={detailHref(row.original.id, params)}
          className="whitespace-nowrap font-medium text-primary underline-offset-2 hover:underline focus-visible:underline"
        >
          {formatDateTimeCompact(row.original.createdAt)}
        </Link>
      ),
    }),
    helper.accessor('decisionType', {
      id: 'decision',
      header: 'Decision',
      cell: ({ row }) => <DecisionBadge type={row.original.decisionType} label={row.original.decisionLabel} />,
    }),
    helper.accessor('riskScore', {
      id: 'riskScore',
      header: 'Risk',
      cell: ({ row }) => <RiskScore score={row.original.riskScore} />,
    }),
    helper.accessor('status', {
      id: 'status',
      header: 'Status',
      cell: ({ row }) => (
        <span className="inline-flex flex-wrap gap-1">
          <StatusBadge status={row.original.status} />
          {row.original.wipedOutAt ? <span className="text-[11px] text-muted-fg">wiped</span> : null}
          {row.original.goneAt ? <span className="text-[11px] text-danger">deleted at service</span> : null}
        </span>
      ),
    }),
    helper.accessor('name', {
      id: 'name',
      header: 'Name',
      cell: ({ row }) =>
        row.original.name ? (
          <span className="inline-flex items-center gap-1 whitespace-nowrap">
            {row.original.name}
            {row.original.revealed ? <Eye aria-label="Revealed to you" className="h-3.5 w-3.5 text-warn" /> : null}
          </span>
        ) : (
          <Muted>{row.original.hasPersonalData ? '—' : 'removed'}</Muted>
        ),
    }),
    helper.accessor('documentType', {
      id: 'document',
      header: 'Document',
      cell: ({ row }) => {
        const r = row.original;
        if (!r.documentType && !r.issuingCountry && !r.documentNumber) return <Muted>—</Muted>;
        return (
          <span className="flex flex-col leading-tight">
            <span className="whitespace-nowrap text-xs">
              {[r.documentType, r.issuingCountry].filter(Boolean).join(' · ')}
            </span>
            {r.documentNumber ? <span className="font-mono text-[11px] text-muted-fg">{r.documentNumber}</span> : null}
          </span>
        );
      },
    }),
    helper.accessor('definitionKey', {
      id: 'definitionKey',
      header: 'Workflow',
      cell: ({ row }) => <span className="font-mono text-xs">{row.original.definitionKey ?? '—'}</span>,
    }),
    helper.accessor('customerInternalReference', {
      id: 'references',
      header: 'References',
      cell: ({ row }) => (
        <span className="flex max-w-56 flex-col leading-tight">
          <span className="truncate font-mono text-xs" title={row.original.customerInternalReference ?? undefined}>
            {row.original.customerInternalReference ?? '—'}
          </span>
          {row.original.userReference ? (
            <span className="truncate font-mono text-[11px] text-muted-fg" title={row.original.userReference}>
              {row.original.userReference}
            </span>
          ) : null}
        </span>
      ),
    }),
    helper.accessor('feedbackStatus', {
      id: 'feedback',
      header: 'Feedback',
      cell: ({ row }) => (
        <FeedbackBadge
          status={row.original.feedbackStatus}
          delivery={row.original.feedbackDelivery}
          label={row.original.feedbackLabel}
        />
      ),
    }),
    helper.accessor('completedAt', {
      id: 'completedAt',
      header: 'Completed (UTC)',
      cell: ({ row }) => (
        <span className="whitespace-nowrap text-xs">{formatDateTimeCompact(row.original.completedAt)}</span>
      ),
    }),
    helper.accessor('reportingCriteria', {
      id: 'reportingCriteria',
      header: 'Reporting criteria',
      cell: ({ row }) => <span className="text-xs">{row.original.reportingCriteria ?? '—'}</span>,
    }),
    helper.accessor('id', {
      id: 'id',
      header: 'Execution id',
      cell: ({ row }) => <span className="font-mono text-[11px]">{row.original.id}</span>,
    }),
    helper.accessor('accountId', {
      id: 'accountId',
      header: 'Account id',
      cell: ({ row }) => <span className="font-mono text-[11px]">{row.original.accountId}</span>,
    }),
  ]);
}

export interface TableHandle {
  selectedIds: string[];
  clearSelection(): void;
}

/**
 * One page of executions, server-filtered, -sorted and -paged: the table only renders it, lets
 * rows be selected and columns hidden, and moves with j/k.
 */
export function ExecutionsTable({
  rows,
  hidden,
  onHiddenChange,
  onSelectionChange,
  clearSignal,
}: {
  rows: ExecutionListRow[];
  hidden: ListColumnId[];
  onHiddenChange?: (hidden: ListColumnId[]) => void;
  onSelectionChange(ids: string[]): void;
  clearSignal: number;
}) {
  const { params, go, pending } = useListNav();
  const router = useRouter();
  const columns = React.useMemo(() => buildColumns(params), [params]);
  const columnVisibility = React.useMemo<ColumnVisibilityState>(
    () => Object.fromEntries(hidden.map((c) => [c, false])),
    [hidden],
  );
  const [rowSelection, setRowSelection] = React.useState<RowSelectionState>({});
  const [active, setActive] = React.useState(-1);
  const bodyRef = React.useRef<HTMLTableSectionElement>(null);

  // A new page (or a new list) starts with nothing selected and the first row active.
  const [rowsSeen, setRowsSeen] = React.useState(rows);
  if (rowsSeen !== rows) {
    setRowsSeen(rows);
    setRowSelection({});
    setActive(-1);
  }
  const [clearSeen, setClearSeen] = React.useState(clearSignal);
  if (clearSeen !== clearSignal) {
    setClearSeen(clearSignal);
    setRowSelection({});
  }
  React.useEffect(() => {
    onSelectionChange(Object.keys(rowSelection).filter((k) => rowSelection[k]));
  }, [rowSelection, onSelectionChange]);

  const table = useTable({
    features,
    columns,
    data: rows,
    getRowId: (r) => r.id,
    state: { columnVisibility, rowSelection },
    onColumnVisibilityChange: (u) => {
      const next = typeof u === 'function' ? u(columnVisibility) : u;
      onHiddenChange?.(
        Object.entries(next)
          .filter(([, v]) => v === false)
          .map(([k]) => k as ListColumnId),
      );
    },
    onRowSelectionChange: setRowSelection,
    enableRowRangeSelection: false,
  });

  const focusRow = React.useCallback((i: number) => {
    const links = bodyRef.current?.querySelectorAll<HTMLAnchorElement>('a[data-row-link]');
    const link = links?.[i];
    if (link) {
      link.focus();
      link.closest('tr')?.scrollIntoView({ block: 'nearest' });
      setActive(i);
    }
  }, []);

  // Keyboard: "/" search, j/k move, Enter opens, x selects (not while typing in a field).
  React.useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      const typing = Boolean(
        t?.closest(
          'input:not([type=checkbox]), textarea, select, [contenteditable="true"], [role="menu"], [role="dialog"]',
        ),
      );
      if (e.key === '/' && !typing) {
        e.preventDefault();
        document.getElementById(SEARCH_INPUT_ID)?.focus();
        return;
      }
      if (typing || !rows.length) return;
      if (e.key === 'j' || e.key === 'k') {
        e.preventDefault();
        const cur = active < 0 ? (e.key === 'j' ? -1 : rows.length) : active;
        focusRow(Math.max(0, Math.min(rows.length - 1, cur + (e.key === 'j' ? 1 : -1))));
      } else if (e.key === 'Enter' && active >= 0 && !t?.closest('a, button')) {
        e.preventDefault();
        router.push(detailHref(rows[active].id, params));
      } else if (e.key === 'x' && active >= 0) {
        e.preventDefault();
        const id = rows[active].id;
        setRowSelection((s) => {
          const next = { ...s };
          if (next[id]) delete next[id];
          else next[id] = true;
          return next;
        });
      }
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [rows, active, focusRow, router, params]);

  const sortHeader = (colId: ListColumnId, label: React.ReactNode) => {
    const key = SORTABLE[colId];
    if (!key) return label;
    const current = params.sort === key;
    const Icon = !current ? ArrowUpDown : params.dir === 'desc' ? ArrowDown : ArrowUp;
    return (
      <button
        type="button"
        className={cn('inline-flex items-center gap-1 uppercase tracking-wide hover:text-fg', current && 'text-fg')}
        onClick={() => go({ sort: key, dir: current && params.dir === 'desc' ? 'asc' : 'desc' })}
        aria-label={`Sort by ${SORT_LABELS[key]}${current ? (params.dir === 'desc' ? ', now newest or highest first' : ', now oldest or lowest first') : ''}`}
      >
        {label}
        <Icon aria-hidden className="h-3 w-3" />
      </button>
    );
  };

  return (
    <div
      className={cn(
        'relative overflow-x-auto rounded-lg border border-border bg-card transition-opacity',
        pending && 'opacity-60',
      )}
      aria-busy={pending}
    >
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">
          Executions, {SORT_LABELS[params.sort]} {params.dir === 'desc' ? 'descending' : 'ascending'}
        </caption>
        <thead className="bg-muted/60 text-left text-xs uppercase tracking-wide text-muted-fg">
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => {
                const id = h.column.id as ListColumnId;
                const key = SORTABLE[id];
                return (
                  <th
                    key={h.id}
                    scope="col"
                    className={cn('whitespace-nowrap px-3 py-2 font-medium', h.column.id === 'select' && 'w-8')}
                    aria-sort={
                      key && params.sort === key ? (params.dir === 'desc' ? 'descending' : 'ascending') : undefined
                    }
                  >
                    {h.isPlaceholder ? null : sortHeader(id, <table.FlexRender header={h} />)}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody ref={bodyRef}>
          {table.getRowModel().rows.map((row, i) => (
            <tr
              key={row.id}
              data-active={i === active || undefined}
              onFocusCapture={() => setActive(i)}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('a, button, input, label')) return;
                router.push(detailHref(row.original.id, params));
              }}
              className={cn(
                'cursor-pointer border-b border-border last:border-0 hover:bg-muted/50',
                row.getIsSelected() && 'bg-primary/5',
                i === active && 'bg-primary/10 shadow-[inset_3px_0_0_var(--primary)]',
              )}
            >
              {row.getVisibleCells().map((cell) => (
                <td key={cell.id} className="px-3 py-2 align-middle">
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
