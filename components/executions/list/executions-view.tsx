'use client';
import { ChevronLeft, ChevronRight, ChevronsLeft, Download, SlidersHorizontal } from 'lucide-react';
import type { RowSelectionState } from '@tanstack/react-table';
import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { SHORTCUTS } from '@/components/shortcuts/shortcuts';
import { BulkAssign } from '@/components/cases/bulk-assign';
import { NextCaseButton } from '@/components/cases/next-case-button';
import type { CaseWorkOptions } from '@/components/cases/types';
import { DataTable } from '@/components/data-table/data-table';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { OnFirstUse } from '@/components/ui/on-first-use';
import { EmptyState } from '@/components/ui/empty-state';
import { Select } from '@/components/ui/input';
import { useCheckedDownload } from '@/components/ui/use-checked-download';
import { bulkAssignCasesAction } from '@/lib/actions/cases';
import { saveHiddenColumnsAction } from '@/lib/actions/review';
import type { ListFacets } from '@/lib/executions/facets';
import type { ExecutionListRow } from '@/lib/executions/list';
import type { ListTotal } from '@/lib/executions/total';
import type { SearchNotice } from '@/lib/executions/queries';
import type { ListColumnId } from '@/lib/executions/columns';
import {
  EXPORT_MAX_ROWS,
  activeFilterCount,
  detailHref,
  listHref,
  PAGE_SIZES,
  SORT_LABELS,
  toSearchParams,
  type ListParams,
  type PageSize,
  type SortKey,
  isCaseView,
} from '@/lib/executions/list-params';
import { formatApproximate, formatNumber } from '@/lib/format';
import { ActiveFilters } from './active-filters';
import { ColumnsButton } from './column-menu-button';
import { buildExecutionColumns, CASE_VIEW_HIDDEN, EXECUTION_SORT_COLUMNS, STICKY_COLUMNS } from './executions-columns';
import { ListNavProvider, useListNav } from './list-nav';
import { SavedViews, type SavedViewLink } from './saved-views';
import { SEARCH_INPUT_ID, SearchBox } from './search-box';

// The bulk feedback dialog appears only with a selection: loaded then, not with the list.
const BulkFeedbackDialog = dynamic(
  () => import('@/components/feedback/bulk-feedback-dialog').then((m) => m.BulkFeedbackDialog),
  {
    loading: () => <span className="text-xs text-muted-fg">…</span>,
  },
);

// Saving the filters as a queue is a manager's occasional step: its form loads after the list.
const SaveQueueDialog = dynamic(() => import('@/components/cases/save-queue-dialog').then((m) => m.SaveQueueDialog));
// The filter form loads when first opened: it is not part of the list's first download.
const FilterPanel = dynamic(() => import('./filter-panel').then((m) => m.FilterPanel), {
  loading: () => <p className="rounded-lg border border-border bg-card p-4 text-sm text-muted-fg">Loading filters…</p>,
});

export interface ExecutionsViewProps {
  params: ListParams;
  rows: ExecutionListRow[];
  next: string | null;
  prev: string | null;
  total: ListTotal;
  hiddenColumns: ListColumnId[];
  facets: ListFacets;
  searchTerm: string | null;
  searchNotice: SearchNotice;
  /** The viewer's role (bulk feedback says when four-eyes holds a label). */
  role: 'analyst' | 'manager' | 'admin';
  /** Case work: the queues and people the filters offer, and names for their chips. */
  caseWork: CaseWorkOptions;
  /** The viewer's own saved views (queues are the managers' shared ones). */
  savedViews: SavedViewLink[];
}

export function totalText(t: ListTotal): string {
  return t.exact
    ? `${formatNumber(t.count)} execution${t.count === 1 ? '' : 's'}`
    : `${formatApproximate(t.estimate)} executions`;
}

const ColumnMenu = React.lazy(() => import('./column-menu'));

function ColumnChooser({ hidden, onChange }: { hidden: ListColumnId[]; onChange(hidden: ListColumnId[]): void }) {
  return (
    <OnFirstUse trigger={(p) => <ColumnsButton {...p} />}>
      {(use) => <ColumnMenu hidden={hidden} onChange={onChange} defaultOpen={use.open} />}
    </OnFirstUse>
  );
}

function Pager({ next, prev, count }: { next: string | null; prev: string | null; count: number }) {
  const { params, go, pending } = useListNav();
  const notFirst = Boolean(params.after || params.before || params.at);
  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3">
      <div className="flex items-center gap-2 text-sm text-muted-fg">
        <label htmlFor="page-size">Rows per page</label>
        <Select
          id="page-size"
          // Wide enough for "100" and the arrow at any zoom: w-20 cut "25" off.
          className="h-8 w-24 pr-8"
          value={params.size}
          onChange={(e) => go({ size: Number(e.target.value) as PageSize })}
        >
          {PAGE_SIZES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <span aria-live="polite">{count} on this page</span>
      </div>
      <div className="flex items-center gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={!notFirst || pending}
          onClick={() => go({})}
          aria-label="First page"
        >
          <ChevronsLeft aria-hidden className="h-4 w-4" /> First
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!prev || pending}
          onClick={() => prev && go({ before: prev })}
          aria-label="Previous page"
        >
          <ChevronLeft aria-hidden className="h-4 w-4" /> Previous
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={!next || pending}
          onClick={() => next && go({ after: next })}
          aria-label="Next page"
        >
          Next <ChevronRight aria-hidden className="h-4 w-4" />
        </Button>
      </div>
    </nav>
  );
}

function View(props: ExecutionsViewProps) {
  const { params, pending } = useListNav();
  const [showFilters, setShowFilters] = React.useState(false);
  const [hidden, setHidden] = React.useState(props.hiddenColumns);
  const { go } = useListNav();
  const router = useRouter();
  // Selection belongs to the view (the bulk actions act on it); a new page starts with none.
  const [selection, setSelection] = React.useState<RowSelectionState>({});
  const [notice, setNotice] = React.useState<string | null>(null);
  const exporting = useCheckedDownload();
  // Case work on the active row (j/k): `a` assigns its case to me, `r` opens its resolve panel.
  const rowKeys = React.useMemo(
    () => ({
      [SHORTCUTS.rowAssign.key]: (r: ExecutionListRow) => {
        if (!r.caseInfo || r.caseInfo.state === 'resolved') return setNotice('This execution has no open case.');
        void bulkAssignCasesAction({ executionIds: [r.id], assignee: 'me' }).then((out) => {
          setNotice(
            out.ok ? (out.data.assigned ? 'Assigned to you.' : 'Not assigned: someone else has it.') : out.error,
          );
          router.refresh();
        });
      },
      [SHORTCUTS.rowResolve.key]: (r: ExecutionListRow) => {
        if (!r.caseInfo || r.caseInfo.state === 'resolved') return setNotice('This execution has no open case.');
        router.push(`${detailHref(r.id, params)}#resolve`);
      },
    }),
    [router, params],
  );
  const manages = props.role !== 'analyst';
  const [rowsSeen, setRowsSeen] = React.useState(props.rows);
  if (rowsSeen !== props.rows) {
    setRowsSeen(props.rows);
    setSelection({});
  }
  const selected = Object.keys(selection).filter((id) => selection[id]);
  const columns = React.useMemo(() => buildExecutionColumns(params), [params]);
  // A case view has its own column set: the person's hidden columns, and what it leaves out to fit.
  const caseView = isCaseView(params);
  const columnVisibility = React.useMemo(
    () => Object.fromEntries([...hidden, ...(caseView ? CASE_VIEW_HIDDEN : [])].map((c) => [c, false])),
    [hidden, caseView],
  );
  const filters = activeFilterCount(params);
  const exportQuery = toSearchParams(params, { withCursor: false }).toString();

  const changeHidden = React.useCallback((h: ListColumnId[]) => {
    setHidden(h);
    // Remembered per user; a failed save only loses the preference, never the view.
    void saveHiddenColumnsAction({ hidden: h });
  }, []);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-start gap-2">
        <SearchBox term={props.searchTerm} notice={props.searchNotice} />
        <Button
          variant="secondary"
          aria-expanded={showFilters}
          aria-controls="filter-panel"
          onClick={() => setShowFilters((s) => !s)}
        >
          <SlidersHorizontal aria-hidden className="h-4 w-4" /> Filters{filters ? ` (${filters})` : ''}
        </Button>
        <ColumnChooser hidden={hidden} onChange={changeHidden} />
        {manages ? <SaveQueueDialog params={params} /> : null}
        <Button asChild variant="ghost">
          <a href={listHref({ assignee: 'me', caseState: ['in_review'], sort: 'due', dir: 'asc' })}>My cases</a>
        </Button>
        <span className="ml-auto">
          <NextCaseButton size="md" />
        </span>
        <Button
          variant="secondary"
          disabled={exporting.checking}
          onClick={() => exporting.download(`/api/executions/export${exportQuery ? `?${exportQuery}` : ''}`)}
          title={`Export the filtered list as CSV (at most ${formatNumber(EXPORT_MAX_ROWS)} rows, masked as on screen)`}
        >
          <Download aria-hidden className="h-4 w-4" /> {exporting.checking ? 'Checking…' : 'Export CSV'}
        </Button>
      </div>
      {exporting.error ? <Alert tone="error">{exporting.error}</Alert> : null}
      <SavedViews views={props.savedViews} params={params} />
      <div id="filter-panel" hidden={!showFilters}>
        {showFilters ? (
          <FilterPanel facets={props.facets} caseWork={props.caseWork} onDone={() => setShowFilters(false)} />
        ) : null}
      </div>
      <ActiveFilters names={props.caseWork.names} />
      {notice ? (
        <p role="status" className="text-sm">
          {notice}
        </p>
      ) : null}
      <div className="flex min-h-8 flex-wrap items-center justify-between gap-2 text-sm">
        <p aria-live="polite">
          <span className="font-medium" data-testid="list-total">
            {totalText(props.total)}
          </span>
          {pending ? <span className="ml-2 text-muted-fg">Loading…</span> : null}
        </p>
        {selected.length ? (
          <div className="flex items-center gap-2" role="group" aria-label="Selected rows">
            <span>{selected.length} selected</span>
            <BulkFeedbackDialog executionIds={selected} role={props.role} onDone={() => setSelection({})} />
            <BulkAssign
              executionIds={selected}
              people={props.caseWork.people}
              canAssignOthers={manages}
              onDone={(m) => {
                setNotice(m);
                setSelection({});
                router.refresh();
              }}
            />
            <Button
              size="sm"
              variant="secondary"
              disabled={exporting.checking}
              onClick={() =>
                exporting.download(
                  `/api/executions/export?${new URLSearchParams(selected.map((id) => ['id', id])).toString()}`,
                )
              }
            >
              <Download aria-hidden className="h-4 w-4" /> Export selected
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setSelection({})}>
              Clear selection
            </Button>
          </div>
        ) : (
          <p className="hidden text-xs text-muted-fg md:block">
            Keys: <kbd className="font-mono">{SHORTCUTS.search.key}</kbd> search ·{' '}
            <kbd className="font-mono">{SHORTCUTS.rowDown.key}</kbd>/
            <kbd className="font-mono">{SHORTCUTS.rowUp.key}</kbd> move ·{' '}
            <kbd className="font-mono">{SHORTCUTS.rowOpen.key}</kbd> open ·{' '}
            <kbd className="font-mono">{SHORTCUTS.help.key}</kbd> all keys
          </p>
        )}
      </div>
      {props.rows.length ? (
        <DataTable
          columns={columns}
          rows={props.rows}
          getRowId={(r) => r.id}
          caption={`Executions, ${SORT_LABELS[params.sort]} ${params.dir === 'desc' ? 'descending' : 'ascending'}`}
          columnVisibility={columnVisibility}
          onColumnVisibilityChange={(next) =>
            changeHidden(
              Object.entries(next)
                .filter(([, v]) => v === false)
                .map(([k]) => k as ListColumnId)
                // What the case view leaves out is its own, not the person's choice.
                .filter((k) => !caseView || !CASE_VIEW_HIDDEN.includes(k) || hidden.includes(k)),
            )
          }
          rowSelection={selection}
          onRowSelectionChange={setSelection}
          sort={{
            key: params.sort,
            dir: params.dir,
            columns: EXECUTION_SORT_COLUMNS,
            onSort: (key, dir) => go({ sort: key as SortKey, dir }),
          }}
          onOpen={(r) => router.push(detailHref(r.id, params))}
          rowClassName={(r) => (r.caseInfo?.overdue ? 'overdue shadow-[inset_3px_0_0_var(--danger)]' : undefined)}
          rowKeys={rowKeys}
          sticky={STICKY_COLUMNS}
          searchInputId={SEARCH_INPUT_ID}
          busy={pending}
        />
      ) : (
        <EmptyState title={filters || params.st || params.q ? 'No executions match' : 'No executions yet'}>
          {filters || params.st || params.q
            ? 'Nothing matches this search and these filters. Remove a filter or search for something else.'
            : 'Executions appear here as the service reports them (callbacks and the background sync).'}
        </EmptyState>
      )}
      <Pager next={props.next} prev={props.prev} count={props.rows.length} />
    </div>
  );
}

export function ExecutionsView(props: ExecutionsViewProps) {
  return (
    <ListNavProvider params={props.params}>
      <View {...props} />
    </ListNavProvider>
  );
}
