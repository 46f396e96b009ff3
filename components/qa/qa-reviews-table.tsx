import { StaticTable } from '@/components/data-table/static-table';
import Link from 'next/link';
import type * as React from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { OUTCOME_LABELS } from '@/lib/cases/form-rules';
import type { ReasonView } from '@/lib/cases/queries';
import type { QaRow, Verdict } from '@/lib/qa/quality';
import { shortId } from '@/lib/format';
import { QaStateBadge } from './qa-verdicts';

function VerdictCell({ v, reasons, sealed }: { v: Verdict | null; reasons: ReasonView[]; sealed?: boolean }) {
  if (!v) return <span className="text-xs text-muted-fg">{sealed ? 'Sealed until decided' : '—'}</span>;
  return (
    <span className="flex flex-col text-xs">
      <span>
        <span className="font-medium">{OUTCOME_LABELS[v.outcome]}</span>
        {v.by ? ` · ${v.by.name}` : ''}
      </span>
      <span className="text-muted-fg">
        {reasons.find((r) => r.code === v.reason)?.label ?? v.reason}
        {v.comment ? ` — ${v.comment}` : ''}
      </span>
    </span>
  );
}

/** QA reviews with both outcomes (the first one sealed while the review is pending). */
export function QaReviewsTable({
  rows,
  reasons,
  caption,
  empty,
}: {
  rows: QaRow[];
  reasons: ReasonView[];
  caption: string;
  empty: string;
}) {
  if (!rows.length) return <EmptyState title={empty} />;
  return (
    <StaticTable
      caption={caption}
      rows={rows}
      rowKey={(r) => r.id}
      rowProps={(r) => ({ 'data-review': r.executionId })}
      columns={[
        {
          header: 'Execution',
          cell: (r) => (
            <Link
              href={`/executions/${r.executionId}`}
              className="whitespace-nowrap font-mono text-xs text-primary hover:underline"
            >
              {shortId(r.executionId)}
            </Link>
          ),
        },
        { header: 'Week', className: 'whitespace-nowrap text-xs', cell: (r) => r.week },
        { header: 'Queue', className: 'text-xs', cell: (r) => r.queue ?? '—' },
        {
          header: 'State',
          cell: (r) => (
            <span className="flex flex-col items-start gap-0.5">
              <QaStateBadge
                state={r.state}
                overturned={r.state === 'settled' && r.settled?.outcome !== r.first?.outcome}
              />
              {r.assignee ? <span className="text-[11px] text-muted-fg">{r.assignee.name}</span> : null}
            </span>
          ),
        },
        {
          header: 'First outcome',
          cell: (r) =>
            r.first ? (
              <VerdictCell v={r.first} reasons={reasons} />
            ) : (
              <span className="flex flex-col text-xs">
                <span>{r.firstAnalyst.name}</span>
                <span className="text-muted-fg">Sealed until decided</span>
              </span>
            ),
        },
        { header: 'QA review', cell: (r) => <VerdictCell v={r.review} reasons={reasons} /> },
        { header: 'Settled', cell: (r) => <VerdictCell v={r.settled} reasons={reasons} /> },
      ]}
    />
  );
}

/** The table in its card: a title, what the rows are, and the table (its caption for screen readers). */
export function QaReviewsCard({
  title,
  description,
  testId,
  ...table
}: React.ComponentProps<typeof QaReviewsTable> & { title: string; description: React.ReactNode; testId?: string }) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <p className="text-xs text-muted-fg">{description}</p>
      </CardHeader>
      <CardContent>
        <QaReviewsTable {...table} />
      </CardContent>
    </Card>
  );
}
