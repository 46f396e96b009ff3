import type { Metadata } from 'next';
import { NUMERIC, StaticTable, srOnlyHeader } from '@/components/data-table/static-table';
import Link from 'next/link';
import { DecisionBadge } from '@/components/executions/badges';
import { ApprovalActions } from '@/components/feedback/approval-actions';
import { labelText } from '@/components/feedback/history';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { requireRole } from '@/lib/auth/guards';
import { listAwaitingApproval } from '@/lib/feedback/queries';
import { getFourEyes } from '@/lib/feedback/settings';
import { formatNumber, shortId } from '@/lib/format';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Approvals' };

export default async function ApprovalsPage() {
  const user = await requireRole('manager');
  const [{ items, total }, fourEyes] = await Promise.all([listAwaitingApproval(), getFourEyes()]);
  return (
    <>
      <PageHeader
        title="Approvals"
        description={
          <>
            Fraud and Not fraud labels from analysts wait here for a second pair of eyes before they go to the service.{' '}
            {fourEyes.enabled
              ? 'Four-eyes is on.'
              : 'Four-eyes is off: new labels are sent at once; these were submitted while it was on.'}
          </>
        }
      />
      {items.length ? (
        <Card>
          <StaticTable
            caption="Labels awaiting approval, oldest first"
            rows={items}
            rowKey={(i) => i.id}
            columns={[
              {
                header: 'Execution',
                cell: (i) => (
                  <>
                    <Link
                      href={`/executions/${i.executionId}`}
                      className="font-mono text-xs text-primary hover:underline"
                    >
                      {shortId(i.executionId)}
                    </Link>
                    <div className="mt-1 flex flex-wrap items-center gap-1">
                      <DecisionBadge type={i.execution.decisionType} label={null} />
                      {i.execution.riskScore != null ? (
                        <span className="text-xs text-muted-fg">risk {i.execution.riskScore}</span>
                      ) : null}
                    </div>
                  </>
                ),
              },
              {
                header: 'Label',
                className: 'max-w-80',
                cell: (i) => (
                  <>
                    <Badge tone={i.status === 'FRAUD' ? 'reject' : i.status === 'NOT_FRAUD' ? 'ok' : 'neutral'}>
                      {labelText(i.status, i.reason)}
                    </Badge>
                    {i.note ? <p className="mt-1 whitespace-pre-wrap break-words text-xs">{i.note}</p> : null}
                  </>
                ),
              },
              {
                header: 'Submitted',
                className: 'text-xs',
                cell: (i) => (
                  <>
                    <div>{i.submittedByEmail}</div>
                    <div className="text-muted-fg">
                      <LocalTime value={i.submittedAt} shape="relative" />
                    </div>
                  </>
                ),
              },
              {
                header: 'Same document',
                ...NUMERIC,
                cell: (i) =>
                  i.blastTotal ? (
                    <span
                      className={i.status === 'FRAUD' ? 'font-semibold text-reject' : undefined}
                      title="Other cached executions with the same identity document"
                    >
                      {formatNumber(i.blastTotal)}
                    </span>
                  ) : (
                    <span className="text-muted-fg">0</span>
                  ),
              },
              {
                header: srOnlyHeader('Decision'),
                className: 'text-right',
                cell: (i) => (
                  <ApprovalActions
                    submissionId={i.id}
                    label={`${labelText(i.status, i.reason)} on ${shortId(i.executionId)}`}
                    mine={i.submittedByEmail === user.email}
                  />
                ),
              },
            ]}
          />
          {total > items.length ? (
            <p className="border-t border-border px-3 py-2 text-xs text-muted-fg">
              Showing the oldest {formatNumber(items.length)} of {formatNumber(total)}.
            </p>
          ) : null}
        </Card>
      ) : (
        <EmptyState title="Nothing waits for approval">
          {fourEyes.enabled
            ? 'Analysts’ Fraud and Not fraud labels appear here as they are submitted.'
            : 'Four-eyes is off, so labels are sent as soon as they are submitted. An admin can turn it on in Settings.'}
        </EmptyState>
      )}
    </>
  );
}
