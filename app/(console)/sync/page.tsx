import type { Metadata } from 'next';
import { NUMERIC, StaticTable } from '@/components/data-table/static-table';
import Link from 'next/link';
import { PageHeader } from '@/components/shell/page-header';
import { AutoRefresh, RetryFailedButton, SyncRunButtons } from '@/components/sync/sync-controls';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { requireRole } from '@/lib/auth/guards';
import { getFeedbackDeliveryStats } from '@/lib/feedback/queries';
import { getSyncOverview, type SyncRun } from '@/lib/sync/status';
import { FeedbackDeliveryStatsCard } from '@/components/feedback/delivery-stats';
import { WebhookHealthCard } from '@/components/webhooks/webhook-health';
import { listWebhookEndpoints } from '@/lib/webhooks/queries';
import { formatNumber } from '@/lib/format';
import { retryFailedAction, startSyncRunAction } from '@/lib/actions/sync';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Sync' };

const STATE_TONE = {
  completed: 'ok',
  running: 'info',
  queued: 'neutral',
  interrupted: 'warn',
  failed: 'reject',
} as const;
const KIND_LABEL: Record<string, string> = { backfill: 'Backfill', reconcile: 'Reconciliation', poll: 'Poll' };

function Stat({ label, value, children }: { label: string; value: React.ReactNode; children?: React.ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-xs font-medium text-muted-fg">{label}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-1">
        <span className="text-2xl font-semibold tabular-nums">{value}</span>
        {children ? <span className="text-xs text-muted-fg">{children}</span> : null}
      </CardContent>
    </Card>
  );
}

function RunProgress({ run }: { run: SyncRun }) {
  // A full walk knows its length (the service is counted first); an incremental one ends where it meets the cache.
  const total = run.totalEstimate !== null ? Math.max(run.totalEstimate, run.seen) : 0;
  const pct = total > 0 ? Math.min(100, Math.round((run.seen / total) * 100)) : null;
  const label = `${KIND_LABEL[run.kind] ?? run.kind} progress`;
  return (
    <Card className="mb-6" aria-live="polite">
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>
          {KIND_LABEL[run.kind] ?? run.kind} {run.state === 'queued' ? 'queued' : 'running'}
        </CardTitle>
        <span className="text-xs text-muted-fg">
          started <LocalTime value={run.startedAt} shape="relative" />
          {run.startedBy ? ` by ${run.startedBy}` : ''}
        </span>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <div
          role="progressbar"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={total || undefined}
          aria-valuenow={run.seen}
          aria-valuetext={`${formatNumber(run.seen)} of ${total ? formatNumber(total) : 'an unknown number of'} executions`}
          className="h-2 w-full overflow-hidden rounded-full bg-muted"
        >
          <div
            className={
              pct === null
                ? 'h-full w-1/4 animate-pulse rounded-full bg-primary'
                : 'h-full rounded-full bg-primary transition-[width]'
            }
            style={pct === null ? undefined : { width: `${pct}%` }}
          />
        </div>
        <p className="text-sm tabular-nums">
          Page {formatNumber(Math.max(run.nextPage - 1, 0))} · {formatNumber(run.seen)}
          {total ? ` of about ${formatNumber(total)}` : ''} executions listed · {formatNumber(run.written)} written
          {run.stopBefore ? (
            <>
              {' '}
              · stops at <LocalTime value={run.stopBefore} />, where the cache already has everything
            </>
          ) : null}
        </p>
      </CardContent>
    </Card>
  );
}

function runResult(r: SyncRun): string {
  if (r.error) return r.error;
  if (r.serviceTotal !== null) {
    const gone = Number(r.details?.gone ?? 0);
    return `${formatNumber(r.serviceTotal)} at the service, ${formatNumber(r.cacheTotal)} cached${gone ? `, ${gone} deleted there` : ''}`;
  }
  if (r.state === 'completed') return r.stopBefore ? 'met the cache' : '';
  if (r.state === 'interrupted') return `stopped at page ${r.nextPage}; resumes there`;
  return '';
}

export default async function SyncPage() {
  await requireRole('admin');
  const [o, feedback, webhooks] = await Promise.all([
    getSyncOverview(),
    getFeedbackDeliveryStats(),
    listWebhookEndpoints(),
  ]);
  const diff = o.service && o.cached.exact ? o.service.count - o.cached.count : null;
  const working =
    Boolean(o.activeRun) ||
    o.queue.fetchWaiting + o.queue.fetchRunning > 0 ||
    feedback.pending + feedback.delivering > 0;
  return (
    <>
      <PageHeader
        title="Sync"
        description="How the cache keeps up with the verification service: callbacks, the job queue, backfills and reconciliations."
        actions={<SyncRunButtons startRun={startSyncRunAction} />}
      />
      <AutoRefresh active={working} />
      <section aria-label="Sync health" className="mb-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Stat label="Executions at the service" value={o.service ? formatNumber(o.service.count) : '—'}>
          {o.service ? (
            <>
              {o.service.source === 'walk' ? 'counted by a full walk' : 'estimated from the list'}{' '}
              <LocalTime value={o.service.at} shape="relative" />
            </>
          ) : (
            'not counted yet: the next poll or backfill counts them'
          )}
        </Stat>
        <Stat label="Executions cached" value={`${o.cached.exact ? '' : 'about '}${formatNumber(o.cached.count)}`}>
          {diff === null
            ? 'deleted ones not counted'
            : diff === 0
              ? 'in step with the service'
              : diff > 0
                ? `${formatNumber(diff)} behind the service`
                : `${formatNumber(-diff)} more than the service counted`}
        </Stat>
        <Stat
          label="Last callback"
          value={o.lastCallback ? <LocalTime value={o.lastCallback.receivedAt} shape="relative" /> : 'none yet'}
        >
          {o.lastCallback
            ? `${o.lastCallback.status ?? 'no status'} · ${formatNumber(o.callbacks24h)} in 24 h${o.callbackLagSec !== null ? ` · median ${o.callbackLagSec.toFixed(1)} s to the cache` : ''}${o.callbacksWaiting ? ` · ${formatNumber(o.callbacksWaiting)} waiting` : ''}`
            : 'callbacks arrive at /api/idv/callback'}
        </Stat>
        <Stat label="Queue" value={`${formatNumber(o.queue.fetchWaiting)} waiting`}>
          {formatNumber(o.queue.fetchRunning)} fetching · {formatNumber(o.queue.fetchRetrying)} retrying
          {o.queue.other ? ` · ${formatNumber(o.queue.other)} other jobs` : ''}
        </Stat>
      </section>

      {o.activeRun ? <RunProgress run={o.activeRun} /> : null}

      <section aria-label="Feedback delivery" className="mb-6">
        <FeedbackDeliveryStatsCard stats={feedback} />
      </section>

      <section aria-label="Outgoing webhooks" className="mb-6">
        <WebhookHealthCard endpoints={webhooks} />
      </section>

      <Card className="mb-6">
        <CardHeader className="flex-row items-center justify-between">
          <CardTitle>Failures{o.failures.total ? ` (${formatNumber(o.failures.total)})` : ''}</CardTitle>
          <RetryFailedButton
            retry={retryFailedAction}
            disabled={
              o.failures.total === 0 &&
              !o.runs.some((r) => !r.finishedAt && (r.state === 'failed' || r.state === 'interrupted'))
            }
          />
        </CardHeader>
        {o.failures.rows.length === 0 ? (
          <CardContent>
            <EmptyState title="No failures">
              Every execution the sync tried since its last success went through.
            </EmptyState>
          </CardContent>
        ) : (
          <StaticTable
            caption="Executions the sync could not fetch"
            rows={o.failures.rows}
            rowKey={(f) => f.id}
            columns={[
              {
                header: 'Execution',
                className: 'font-mono text-xs',
                cell: (f) =>
                  f.executionId ? (
                    <Link className="text-primary hover:underline" href={`/executions/${f.executionId}`}>
                      {f.executionId}
                    </Link>
                  ) : (
                    '—'
                  ),
              },
              { header: 'Error', className: 'max-w-md text-xs break-words', cell: (f) => f.error },
              { header: 'Tries', ...NUMERIC, cell: (f) => f.attempts },
              {
                header: 'State',
                cell: (f) => (
                  <Badge tone={f.state === 'failed' ? 'reject' : 'warn'}>
                    {f.state === 'failed' ? 'gave up' : 'retrying'}
                  </Badge>
                ),
              },
              {
                header: 'Last try',
                className: 'whitespace-nowrap text-xs',
                cell: (f) => <LocalTime value={f.lastAt} />,
              },
            ]}
          />
        )}
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Recent runs</CardTitle>
        </CardHeader>
        {o.runs.length === 0 ? (
          <CardContent>
            <EmptyState title="No runs yet">
              The worker starts a backfill when the cache is empty, and polls the service every few minutes.
            </EmptyState>
          </CardContent>
        ) : (
          <StaticTable
            caption="Backfills, reconciliations and polls, newest first"
            rows={o.runs}
            rowKey={(r) => r.id}
            columns={[
              {
                header: 'Run',
                className: 'whitespace-nowrap',
                cell: (r) => (
                  <>
                    {KIND_LABEL[r.kind] ?? r.kind}{' '}
                    <span className="text-xs text-muted-fg">
                      #{r.id}
                      {r.startedBy ? ` · ${r.startedBy}` : ''}
                    </span>
                  </>
                ),
              },
              {
                header: 'State',
                cell: (r) => (
                  <Badge tone={STATE_TONE[r.state as keyof typeof STATE_TONE] ?? 'neutral'}>{r.state}</Badge>
                ),
              },
              {
                header: 'Started',
                className: 'whitespace-nowrap text-xs',
                cell: (r) => <LocalTime value={r.startedAt} />,
              },
              {
                header: 'Ended',
                className: 'whitespace-nowrap text-xs',
                cell: (r) => <LocalTime value={r.finishedAt} />,
              },
              { header: 'Listed', ...NUMERIC, cell: (r) => formatNumber(r.seen) },
              { header: 'Written', ...NUMERIC, cell: (r) => formatNumber(r.written) },
              { header: 'Result', className: 'max-w-sm text-xs break-words', cell: (r) => runResult(r) },
            ]}
          />
        )}
      </Card>
    </>
  );
}
