import Link from 'next/link';
import type * as React from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { OUTCOME_LABELS } from '@/lib/cases/schema';
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
    <Table>
      <caption className="sr-only">{caption}</caption>
      <THead>
        <TR>
          <TH>Execution</TH>
          <TH>Week</TH>
          <TH>Queue</TH>
          <TH>State</TH>
          <TH>First outcome</TH>
          <TH>QA review</TH>
          <TH>Settled</TH>
        </TR>
      </THead>
      <TBody>
        {rows.map((r) => (
          <TR key={r.id} data-review={r.executionId}>
            <TD>
              <Link
                href={`/executions/${r.executionId}`}
                className="whitespace-nowrap font-mono text-xs text-primary hover:underline"
              >
                {shortId(r.executionId)}
              </Link>
            </TD>
            <TD className="whitespace-nowrap text-xs">{r.week}</TD>
            <TD className="text-xs">{r.queue ?? '—'}</TD>
            <TD>
              <span className="flex flex-col items-start gap-0.5">
                <QaStateBadge
                  state={r.state}
                  overturned={r.state === 'settled' && r.settled?.outcome !== r.first?.outcome}
                />
                {r.assignee ? <span className="text-[11px] text-muted-fg">{r.assignee.name}</span> : null}
              </span>
            </TD>
            <TD>
              {r.first ? (
                <VerdictCell v={r.first} reasons={reasons} />
              ) : (
                <span className="flex flex-col text-xs">
                  <span>{r.firstAnalyst.name}</span>
                  <span className="text-muted-fg">Sealed until decided</span>
                </span>
              )}
            </TD>
            <TD>
              <VerdictCell v={r.review} reasons={reasons} />
            </TD>
            <TD>
              <VerdictCell v={r.settled} reasons={reasons} />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
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
