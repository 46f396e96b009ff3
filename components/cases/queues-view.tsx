import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
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
          <Table>
            <caption className="sr-only">Queues with their backlog and resolution times</caption>
            <THead>
              <TR>
                <TH>Queue</TH>
                <TH className="text-right">Backlog</TH>
                <TH className="text-right">In review</TH>
                <TH className="text-right">Overdue</TH>
                <TH className="text-right">Oldest waiting</TH>
                <TH className="text-right">Resolved / day (7 d)</TH>
                <TH className="text-right">Resolution p50</TH>
                <TH className="text-right">p95</TH>
                <TH>
                  <span className="sr-only">Actions</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {data.queues.map((q) => {
                const to = queueFigureLinks(q);
                return (
                  <TR key={q.id} data-queue={q.name} className={q.archived ? 'opacity-60' : undefined}>
                    <TD>
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
                    </TD>
                    <TD className="text-right" data-testid="backlog">
                      <Figure
                        value={formatNumber(q.backlog)}
                        to={to.backlog}
                        label={`${q.name}: ${q.backlog} unresolved`}
                      />
                    </TD>
                    <TD className="text-right">
                      <Figure
                        value={formatNumber(q.inReview)}
                        to={to.inReview}
                        label={`${q.name}: ${q.inReview} in review`}
                      />
                    </TD>
                    <TD className="text-right">
                      {q.overdue ? (
                        <span className="font-medium text-danger">
                          <Figure
                            value={formatNumber(q.overdue)}
                            to={to.overdue}
                            label={`${q.name}: ${q.overdue} overdue`}
                          />
                        </span>
                      ) : (
                        <Figure value="0" to={to.overdue} label={`${q.name}: none overdue`} />
                      )}
                    </TD>
                    <TD className="text-right">
                      {q.oldestSeconds !== null && to.oldest ? (
                        <Figure
                          value={formatDuration(q.oldestSeconds)}
                          to={to.oldest}
                          label={`${q.name}: the oldest unresolved case`}
                        />
                      ) : (
                        '—'
                      )}
                    </TD>
                    <TD className="text-right">
                      <Figure
                        value={(q.resolved7d / 7).toFixed(1)}
                        to={to.resolved7d}
                        label={`${q.name}: ${q.resolved7d} resolved in the last 7 days`}
                      />
                    </TD>
                    <TD className="whitespace-nowrap text-right" data-testid="p50">
                      {q.p50Seconds !== null ? (
                        <Figure
                          value={formatDuration(q.p50Seconds)}
                          to={to.resolved}
                          label={`${q.name}: median resolution time of ${q.resolved} resolved`}
                        />
                      ) : (
                        '—'
                      )}
                    </TD>
                    <TD className="whitespace-nowrap text-right">
                      {q.p95Seconds !== null ? (
                        <Figure
                          value={formatDuration(q.p95Seconds)}
                          to={to.resolved}
                          label={`${q.name}: 95th percentile resolution time`}
                        />
                      ) : (
                        '—'
                      )}
                    </TD>
                    <TD>
                      <QueueControls queue={q} order={order} />
                    </TD>
                  </TR>
                );
              })}
            </TBody>
          </Table>
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
            <Table>
              <caption className="sr-only">Outcomes and resolution times per analyst</caption>
              <THead>
                <TR>
                  <TH>Person</TH>
                  <TH className="text-right">Approved</TH>
                  <TH className="text-right">Declined</TH>
                  <TH className="text-right">Escalated</TH>
                  <TH className="text-right">Resolution p50</TH>
                  <TH className="text-right">p95</TH>
                </TR>
              </THead>
              <TBody>
                {data.analysts.map((a) => (
                  <TR key={a.userId}>
                    <TD>{a.name}</TD>
                    <TD className="text-right">
                      <Figure
                        value={formatNumber(a.approved)}
                        to={analystFigureLinks(a).approved}
                        label={`${a.name}: ${a.approved} approved`}
                      />
                    </TD>
                    <TD className="text-right">
                      <Figure
                        value={formatNumber(a.declined)}
                        to={analystFigureLinks(a).declined}
                        label={`${a.name}: ${a.declined} declined`}
                      />
                    </TD>
                    <TD className="text-right">
                      <Figure
                        value={formatNumber(a.escalated)}
                        to={analystFigureLinks(a).escalated}
                        label={`${a.name}: ${a.escalated} escalated`}
                      />
                    </TD>
                    <TD className="text-right">
                      {a.p50Seconds !== null ? (
                        <Figure
                          value={formatDuration(a.p50Seconds)}
                          to={analystFigureLinks(a).resolved}
                          label={`${a.name}: median resolution time of ${a.approved + a.declined} resolved`}
                        />
                      ) : (
                        '—'
                      )}
                    </TD>
                    <TD className="whitespace-nowrap text-right">
                      {a.p95Seconds !== null ? (
                        <Figure
                          value={formatDuration(a.p95Seconds)}
                          to={analystFigureLinks(a).resolved}
                          label={`${a.name}: 95th percentile resolution time`}
                        />
                      ) : (
                        '—'
                      )}
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
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
