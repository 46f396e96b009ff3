'use client';
import { createColumnHelper } from '@tanstack/react-table';
import { Eye } from 'lucide-react';
import Link from 'next/link';
import * as React from 'react';
import type { DataTableFeatures, DataTableSort } from '@/components/data-table/data-table';
import { CaseStateBadge, DueText } from '@/components/cases/case-badges';
import { DecisionBadge, FeedbackBadge, RiskScore, SealedLabel, StatusBadge } from '@/components/executions/badges';
import type { ExecutionListRow } from '@/lib/executions/list';
import type { ListColumnId } from '@/lib/executions/columns';
import { detailHref, isCaseView, SORT_LABELS, type ListParams } from '@/lib/executions/list-params';
import { LocalTime, ZoneHeading } from '@/components/time/local-time';

/** The executions list's columns (ids as in lib/executions/columns.ts, hidden per user). */
const helper = createColumnHelper<DataTableFeatures, ExecutionListRow>();

/** Sortable columns: the list's sort key of each, and its name in words. */
export const EXECUTION_SORT_COLUMNS: DataTableSort['columns'] = {
  createdAt: { key: 'created', name: SORT_LABELS.created },
  completedAt: { key: 'completed', name: SORT_LABELS.completed },
  riskScore: { key: 'risk', name: SORT_LABELS.risk },
  due: { key: 'due', name: SORT_LABELS.due },
};

/** The columns a case view (My cases, a queue) leads with, after the selection and the row link. */
const CASE_VIEW_LEAD = ['case', 'due', 'assignee'];
/**
 * What a case view leaves out so that case, due and assignee fit at 1440 px without a scroll:
 * the person's data and the service's references, one click away on the detail page.
 */
export const CASE_VIEW_HIDDEN: ListColumnId[] = ['name', 'document', 'definitionKey', 'references', 'status'];
/** Kept in view while the table scrolls sideways: the selection and the row's link. */
export const STICKY_COLUMNS = ['select', 'createdAt'];

function Muted({ children }: { children: React.ReactNode }) {
  return <span className="text-xs text-muted-fg">{children}</span>;
}

// Columns are built once per list state: the row link carries the list's filters and sort.
export function buildExecutionColumns(params: ListParams) {
  const all = helper.columns([
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
      header: () => <ZoneHeading label="Created" />,
      cell: ({ row }) => (
        <Link
          data-row-link
          href={detailHref(row.original.id, params)}
          className="whitespace-nowrap font-medium text-primary underline-offset-2 hover:underline focus-visible:underline"
        >
          <LocalTime value={row.original.createdAt} shape="compact" />
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
      cell: ({ row }) =>
        row.original.sealed ? (
          <SealedLabel short />
        ) : (
          <FeedbackBadge
            status={row.original.feedbackStatus}
            delivery={row.original.feedbackDelivery}
            label={row.original.feedbackLabel}
          />
        ),
    }),
    helper.accessor('caseInfo', {
      id: 'case',
      header: 'Case',
      cell: ({ row }) => {
        const c = row.original.caseInfo;
        if (!c) return <Muted>—</Muted>;
        return (
          <span className="flex flex-col items-start gap-0.5 leading-tight">
            <CaseStateBadge state={c.state} />
            <span className="whitespace-nowrap text-[11px] text-muted-fg">{c.queueName}</span>
          </span>
        );
      },
    }),
    helper.display({
      id: 'assignee',
      header: 'Assignee',
      cell: ({ row }) => {
        const c = row.original.caseInfo;
        return c?.assigneeName ? (
          <span className="whitespace-nowrap text-xs">{c.assigneeName}</span>
        ) : (
          <Muted>{c && c.state !== 'resolved' ? 'Unassigned' : '—'}</Muted>
        );
      },
    }),
    helper.display({
      id: 'due',
      header: () => <ZoneHeading label="Due" />,
      cell: ({ row }) => {
        const c = row.original.caseInfo;
        return c && c.state !== 'resolved' ? <DueText dueAt={c.dueAt} overdue={c.overdue} /> : <Muted>—</Muted>;
      },
    }),
    helper.accessor('completedAt', {
      id: 'completedAt',
      header: () => <ZoneHeading label="Completed" />,
      cell: ({ row }) => (
        <span className="whitespace-nowrap text-xs">
          <LocalTime value={row.original.completedAt} shape="compact" />
        </span>
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
  if (!isCaseView(params)) return all;
  // A case view: the selection and the row link, then case (with its queue), due and assignee.
  const rank = (id: string | undefined) => {
    const lead = CASE_VIEW_LEAD.indexOf(id ?? '');
    return STICKY_COLUMNS.includes(id ?? '') ? -1 : lead >= 0 ? lead : CASE_VIEW_LEAD.length;
  };
  return [...all].sort((a, b) => rank(a.id) - rank(b.id));
}
