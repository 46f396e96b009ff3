import { NUMERIC, StaticTable, srOnlyHeader } from '@/components/data-table/static-table';
import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import type { QueuesPage, RematchProgress } from '@/lib/cases/queries';
import { listHref, type ListParams } from '@/lib/executions/list-params';
import { analystFigureLinks, DISAGREEMENT_LINKS, queueFigureLinks } from '@/lib/cases/figures';
import { formatDuration, formatNumber } from '@/lib/format';
import { QueueControls, RematchStatus } from './queue-controls';

/** A figure that opens the list of the executions it counts. */
function Figure({ value, to, label }: { value: string; to: Partial<ListParams>; label: string }) {
  return (
    <Link
      href={listHref(to)}
      className="tabular-nums text-primary underline-offset-2 hover:underline"
      aria-label={label}
    >
      {value}
    </Link>
  );
}

/**
 * The managers' view of case work: per queue its backlog, overdue cases, oldest waiting case and
 * throughput; resolution times per queue and per analyst; outcomes per analyst; outcomes that
 * disagree with the service's decision.
 */
export function QueuesView({ data, rematch }: { data: QueuesPage; rematch: RematchProgress | null }) {
  const active = data.queues.filter((q) => !q.archived);
  const order = active.map((q) => q.id);
  return (
    <div className="flex flex-col gap-4">
      <RematchStatus initial={rematch} />
      <Card>
        <CardHeader>
          <CardTitle>Queues</CardTitle>
          <p className="text-xs text-muted-fg">
            An execution gets one case, in the first queue (lowest priority number) whose filters match it. Resolution
            time runs from arrival in the queue to the outcome.
          </p>
        </CardHeader>
        {data.queues.length ? (
          <StaticTable
            caption="Queues with their backlog and resolution times"
            rows={data.queues}
            rowKey={(q) => q.id}
            rowProps={(q) => ({ 'data-queue': q.name, className: q.archived ? 'opacity-60' : undefined })}
            columns={[
              {
                header: 'Queue',
                cell: (q) => (
                  <>
                    <div className="flex flex-wrap items-center gap-1.5 font-medium">
                      {q.name}
                      {q.kind === 'escalation' ? <Badge tone="warn">Escalations</Badge> : null}
                      {q.minRole === 'manager' ? <Badge>Managers</Badge> : null}
                      {q.archived ? <Badge>Archived</Badge> : null}
                    </div>
                    <div className="text-xs text-muted-fg">
                      Priority {q.priority} · SLA {q.slaHours} h
                      {q.definition ? (
                        <>
                          {' · '}
                          <Link className="hover:underline" href={`/executions?${q.definition}`}>
                            filters
                          </Link>
                        </>
                      ) : null}
                    </div>
                  </>
                ),
              },
              {
                header: 'Backlog',
                ...NUMERIC,
                cellProps: () => ({ 'data-testid': 'backlog' }),
                cell: (q) => (
                  <Figure
                    value={formatNumber(q.backlog)}
                    to={queueFigureLinks(q).backlog}
                    label={`${q.name}: ${q.backlog} unresolved`}
                  />
                ),
              },
              {
                header: 'In review',
                ...NUMERIC,
                cell: (q) => (
                  <Figure
                    value={formatNumber(q.inReview)}
                    to={queueFigureLinks(q).inReview}
                    label={`${q.name}: ${q.inReview} in review`}
                  />
                ),
              },
              {
                header: 'Overdue',
                ...NUMERIC,
                cell: (q) =>
                  q.overdue ? (
                    <span className="font-medium text-danger">
                      <Figure
                        value={formatNumber(q.overdue)}
                        to={queueFigureLinks(q).overdue}
                        label={`${q.name}: ${q.overdue} overdue`}
                      />
                    </span>
                  ) : (
                    <Figure value="0" to={queueFigureLinks(q).overdue} label={`${q.name}: none overdue`} />
                  ),
              },
              {
                header: 'Oldest waiting',
                ...NUMERIC,
                cell: (q) => {
                  const to = queueFigureLinks(q);
                  return q.oldestSeconds !== null && to.oldest ? (
                    <Figure
                      value={formatDuration(q.oldestSeconds)}
                      to={to.oldest}
                      label={`${q.name}: the oldest unresolved case`}
                    />
                  ) : (
                    '—'
                  );
                },
              },
              {
                header: 'Resolved / day (7 d)',
                ...NUMERIC,
                cell: (q) => (
                  <Figure
                    value={(q.resolved7d / 7).toFixed(1)}
                    to={queueFigureLinks(q).resolved7d}
                    label={`${q.name}: ${q.resolved7d} resolved in the last 7 days`}
                  />
                ),
              },
              {
                header: 'Resolution p50',
                headerClassName: 'text-right',
                className: 'whitespace-nowrap text-right',
                cellProps: () => ({ 'data-testid': 'p50' }),
                cell: (q) =>
                  q.p50Seconds !== null ? (
                    <Figure
                      value={formatDuration(q.p50Seconds)}
                      to={queueFigureLinks(q).resolved}
                      label={`${q.name}: median resolution time of ${q.resolved} resolved`}
                    />
                  ) : (
                    '—'
                  ),
              },
              {
                header: 'p95',
                headerClassName: 'text-right',
                className: 'whitespace-nowrap text-right',
                cell: (q) =>
                  q.p95Seconds !== null ? (
                    <Figure
                      value={formatDuration(q.p95Seconds)}
                      to={queueFigureLinks(q).resolved}
                      label={`${q.name}: 95th percentile resolution time`}
                    />
                  ) : (
                    '—'
                  ),
              },
              { header: srOnlyHeader('Actions'), cell: (q) => <QueueControls queue={q} order={order} /> },
            ]}
          />
        ) : (
          <CardContent>
            <EmptyState title="No queues">Save the executions list&apos;s filters as a queue to start.</EmptyState>
          </CardContent>
        )}
      </Card>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Card>
          <CardHeader>
            <CardTitle>Analysts</CardTitle>
            <p className="text-xs text-muted-fg">
              Cases each person resolved or escalated, and how long the resolved ones had waited.
            </p>
          </CardHeader>
          {data.analysts.length ? (
            <StaticTable
              caption="Outcomes and resolution times per analyst"
              rows={data.analysts}
              rowKey={(a) => a.userId}
              columns={[
                { header: 'Person', cell: (a) => a.name },
                {
                  header: 'Approved',
                  ...NUMERIC,
                  cell: (a) => (
                    <Figure
                      value={formatNumber(a.approved)}
                      to={analystFigureLinks(a).approved}
                      label={`${a.name}: ${a.approved} approved`}
                    />
                  ),
                },
                {
                  header: 'Declined',
                  ...NUMERIC,
                  cell: (a) => (
                    <Figure
                      value={formatNumber(a.declined)}
                      to={analystFigureLinks(a).declined}
                      label={`${a.name}: ${a.declined} declined`}
                    />
                  ),
                },
                {
                  header: 'Escalated',
                  ...NUMERIC,
                  cell: (a) => (
                    <Figure
                      value={formatNumber(a.escalated)}
                      to={analystFigureLinks(a).escalated}
                      label={`${a.name}: ${a.escalated} escalated`}
                    />
                  ),
                },
                {
                  header: 'Resolution p50',
                  ...NUMERIC,
                  cell: (a) =>
                    a.p50Seconds !== null ? (
                      <Figure
                        value={formatDuration(a.p50Seconds)}
                        to={analystFigureLinks(a).resolved}
                        label={`${a.name}: median resolution time of ${a.approved + a.declined} resolved`}
                      />
                    ) : (
                      '—'
                    ),
                },
                {
                  header: 'p95',
                  headerClassName: 'text-right',
                  className: 'whitespace-nowrap text-right',
                  cell: (a) =>
                    a.p95Seconds !== null ? (
                      <Figure
                        value={formatDuration(a.p95Seconds)}
                        to={analystFigureLinks(a).resolved}
                        label={`${a.name}: 95th percentile resolution time`}
                      />
                    ) : (
                      '—'
                    ),
                },
              ]}
            />
          ) : (
            <CardContent>
              <p className="text-sm text-muted-fg">Nobody has resolved a case yet.</p>
            </CardContent>
          )}
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Against the service&apos;s decision</CardTitle>
            <p className="text-xs text-muted-fg">Outcomes that disagree with what the service decided.</p>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs text-muted-fg">Approved a REJECTED</dt>
                <dd className="text-lg">
                  <Figure
                    value={formatNumber(data.disagreements.approvedRejected)}
                    to={DISAGREEMENT_LINKS.approvedRejected}
                    label="Approved cases the service rejected"
                  />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-muted-fg">Declined a PASSED</dt>
                <dd className="text-lg">
                  <Figure
                    value={formatNumber(data.disagreements.declinedPassed)}
                    to={DISAGREEMENT_LINKS.declinedPassed}
                    label="Declined cases the service passed"
                  />
                </dd>
              </div>
            </dl>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
