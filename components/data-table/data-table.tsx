'use client';
import {
  columnVisibilityFeature,
  rowSelectionFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnVisibilityState,
  type RowSelectionState,
} from '@tanstack/react-table';
import * as React from 'react';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { SortHeader, type SortDir } from './sort-header';
import { useRowKeyboard } from './use-row-keyboard';

/** The table features every data table here uses: hideable columns and selectable rows. */
export const dataTableFeatures = tableFeatures({ columnVisibilityFeature, rowSelectionFeature });
export type DataTableFeatures = typeof dataTableFeatures;

/** Server-side sort: which key is sorted, and the header of each sortable column. */
export interface DataTableSort {
  key: string;
  dir: SortDir;
  /** Sortable columns by column id: the sort key and its name in words. */
  columns: Record<string, { key: string; name: string }>;
  onSort(key: string, dir: SortDir): void;
}

/**
 * A page of rows the server has already filtered, sorted and paged: this renders it on the
 * `ui/table` primitives with hideable columns, selection and row keys. Selection and column
 * visibility are owned by the caller (controlled), so a view can act on the selected rows.
 */
export function DataTable<TData extends object>({
  columns,
  rows,
  getRowId,
  caption,
  columnVisibility,
  onColumnVisibilityChange,
  rowSelection,
  onRowSelectionChange,
  sort,
  onOpen,
  searchInputId,
  busy,
  rowClassName,
  rowKeys,
  sticky = [],
}: {
  columns: Array<ColumnDef<DataTableFeatures, TData, unknown>>;
  rows: TData[];
  getRowId(row: TData): string;
  caption: string;
  columnVisibility: ColumnVisibilityState;
  onColumnVisibilityChange?(next: ColumnVisibilityState): void;
  rowSelection: RowSelectionState;
  onRowSelectionChange(next: RowSelectionState): void;
  sort?: DataTableSort;
  onOpen(row: TData): void;
  searchInputId?: string;
  busy?: boolean;
  /** Extra classes of a row (a state worth seeing at a glance, such as an overdue case). */
  rowClassName?(row: TData): string | undefined;
  /** Single-letter keys acting on the active row (the list's `a` and `r` of case work). */
  rowKeys?: Record<string, (row: TData) => void>;
  /** The first columns, by id, kept in view while the table scrolls sideways (at most two). */
  sticky?: string[];
}) {
  const bodyRef = React.useRef<HTMLTableSectionElement>(null);
  // The first sticky column is 2.5 rem wide (the selection box), so the second sits at left-10.
  const stickyClass = (id: string) => {
    const i = sticky.indexOf(id);
    return i < 0 ? undefined : cn('sticky z-10 bg-card', i === 0 ? 'left-0 w-10 min-w-10' : 'left-10');
  };
  // A new page starts with no active row; the same rows refreshed (after a row key's action)
  // keep it.
  const [active, setActive] = React.useState(-1);
  const [rowsSeen, setRowsSeen] = React.useState(rows);
  if (rowsSeen !== rows) {
    setRowsSeen(rows);
    const same = rowsSeen.length === rows.length && rows.every((r, i) => getRowId(r) === getRowId(rowsSeen[i]));
    if (!same) setActive(-1);
  }

  const table = useTable({
    features: dataTableFeatures,
    columns,
    data: rows,
    getRowId,
    state: { columnVisibility, rowSelection },
    onColumnVisibilityChange: (u) => onColumnVisibilityChange?.(typeof u === 'function' ? u(columnVisibility) : u),
    onRowSelectionChange: (u) => onRowSelectionChange(typeof u === 'function' ? u(rowSelection) : u),
    enableRowRangeSelection: false,
  });

  const toggle = React.useCallback(
    (i: number) => {
      const id = getRowId(rows[i]);
      const next = { ...rowSelection };
      if (next[id]) delete next[id];
      else next[id] = true;
      onRowSelectionChange(next);
    },
    [rows, rowSelection, onRowSelectionChange, getRowId],
  );
  const open = React.useCallback((i: number) => onOpen(rows[i]), [rows, onOpen]);
  const keys = React.useMemo(
    () =>
      rowKeys
        ? Object.fromEntries(Object.entries(rowKeys).map(([k, fn]) => [k, (i: number) => fn(rows[i])]))
        : undefined,
    [rowKeys, rows],
  );
  useRowKeyboard({
    bodyRef,
    count: rows.length,
    active,
    setActive,
    onOpen: open,
    onToggle: toggle,
    searchInputId,
    rowKeys: keys,
  });

  return (
    <div
      className={cn('relative rounded-lg border border-border bg-card transition-opacity', busy && 'opacity-60')}
      aria-busy={busy}
    >
      <Table>
        <caption className="sr-only">{caption}</caption>
        <THead>
          {table.getHeaderGroups().map((hg) => (
            <TR key={hg.id} className="border-0">
              {hg.headers.map((h) => {
                const sortable = sort?.columns[h.column.id];
                const current = sortable && sort.key === sortable.key;
                return (
                  <TH
                    key={h.id}
                    className={cn('whitespace-nowrap', h.column.id === 'select' && 'w-8', stickyClass(h.column.id))}
                    aria-sort={current ? (sort.dir === 'desc' ? 'descending' : 'ascending') : undefined}
                  >
                    {h.isPlaceholder ? null : sortable && sort ? (
                      <SortHeader
                        label={<table.FlexRender header={h} />}
                        name={sortable.name}
                        active={Boolean(current)}
                        dir={sort.dir}
                        onSort={(dir) => sort.onSort(sortable.key, dir)}
                      />
                    ) : (
                      <table.FlexRender header={h} />
                    )}
                  </TH>
                );
              })}
            </TR>
          ))}
        </THead>
        <TBody ref={bodyRef}>
          {table.getRowModel().rows.map((row, i) => (
            <TR
              key={row.id}
              data-active={i === active || undefined}
              onFocusCapture={() => setActive(i)}
              onClick={(e) => {
                if ((e.target as HTMLElement).closest('a, button, input, label')) return;
                onOpen(row.original);
              }}
              className={cn(
                'cursor-pointer hover:bg-muted/50',
                row.getIsSelected() && 'bg-primary/5',
                rowClassName?.(row.original),
                i === active && 'bg-primary/10 shadow-[inset_3px_0_0_var(--primary)]',
              )}
            >
              {row.getVisibleCells().map((cell) => (
                <TD key={cell.id} className={cn('align-middle', stickyClass(cell.column.id))}>
                  <table.FlexRender cell={cell} />
                </TD>
              ))}
            </TR>
          ))}
        </TBody>
      </Table>
    </div>
  );
}
