import * as React from 'react';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { cn } from '@/lib/utils';

/**
 * One column of a table the server renders whole: its header and how a row fills its cell.
 * `rowHeader` renders the cell as the row's header (`<th scope="row">`), for tables read row by row.
 */
export interface StaticColumn<T> {
  header: React.ReactNode;
  /** Left out only where `renderRow` draws the whole row. */
  cell?(row: T, index: number): React.ReactNode;
  /** Classes of the body cell. */
  className?: string;
  /** Classes of the header cell. */
  headerClassName?: string;
  rowHeader?: boolean;
  /** Attributes of a body cell that depend on its row (a title with the whole value). */
  cellProps?(row: T): React.TdHTMLAttributes<HTMLTableCellElement> & Record<`data-${string}`, unknown>;
}

/** An action column's header: no visible text, a name for screen readers. */
export const srOnlyHeader = (name: string) => <span className="sr-only">{name}</span>;

/**
 * The table kit's server half: a short, whole list (users, keys, endpoints, queues, runs) drawn
 * on the same `ui/table` primitives as the client `DataTable`, with a caption for screen readers
 * and one empty state. Lists that page, sort, select or hide columns use `DataTable` instead.
 * A plain function of its props, so it renders in server components with cell functions intact.
 */
export function StaticTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  rowProps,
  renderRow,
  empty,
  className,
  ...rest
}: {
  /** Read by screen readers only. */
  caption: string;
  // Only `rows` decides T: the columns are checked against it (NoInfer), so helpers such as
  // timeColumn take their row type from the table.
  columns: Array<StaticColumn<NoInfer<T>>>;
  rows: readonly T[];
  rowKey(row: NoInfer<T>, index: number): string | number;
  /** Attributes of a body row (a test id, a highlight). */
  rowProps?(
    row: NoInfer<T>,
    index: number,
  ): React.HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, unknown>;
  /** A row that is a component of its own (an editable row), in place of the columns' cells. */
  renderRow?(row: NoInfer<T>, index: number): React.ReactNode;
  /** Shown in one full-width row when there are no rows; nothing when left out. */
  empty?: React.ReactNode;
  className?: string;
} & Record<`data-${string}`, unknown>) {
  return (
    <Table className={className} {...rest}>
      <caption className="sr-only">{caption}</caption>
      <THead>
        <TR>
          {columns.map((c, i) => (
            <TH key={i} className={c.headerClassName}>
              {c.header}
            </TH>
          ))}
        </TR>
      </THead>
      <TBody>
        {rows.length === 0 && empty ? (
          <TR>
            <TD colSpan={columns.length} className="text-sm text-muted-fg">
              {empty}
            </TD>
          </TR>
        ) : null}
        {rows.map((row, i) =>
          renderRow ? (
            <React.Fragment key={rowKey(row, i)}>{renderRow(row, i)}</React.Fragment>
          ) : (
            <TR key={rowKey(row, i)} {...rowProps?.(row, i)}>
              {columns.map((c, j) =>
                c.rowHeader ? (
                  <th key={j} scope="row" className={cn('px-3 py-2 text-left align-top font-medium', c.className)}>
                    {c.cell?.(row, i)}
                  </th>
                ) : (
                  <TD key={j} className={c.className} {...c.cellProps?.(row)}>
                    {c.cell?.(row, i)}
                  </TD>
                ),
              )}
            </TR>
          ),
        )}
      </TBody>
    </Table>
  );
}

/**
 * Column looks used across the tables, spread into a column: `{ header: 'Tries', ...NUMERIC, cell }`.
 * (Styles rather than column-making functions, so a column's row type comes from its table.)
 */
/** Counts: right-aligned, tabular figures. */
export const NUMERIC = { headerClassName: 'text-right', className: 'text-right tabular-nums' } as const;
/** Moments (`LocalTime`) beside the main facts: small and muted, the header on one line. */
export const MOMENT = { headerClassName: 'whitespace-nowrap', className: 'text-xs text-muted-fg' } as const;

/** A column naming a person: their name, and their e-mail below it. */
export function personColumn(header: string): StaticColumn<{ name: string; email: string }> {
  return {
    header,
    cell: (p) => (
      <>
        <div className="font-medium">{p.name}</div>
        <div className="text-xs text-muted-fg">{p.email}</div>
      </>
    ),
  };
}
