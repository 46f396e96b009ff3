import type { Metadata } from 'next';
import { StaticTable, srOnlyHeader } from '@/components/data-table/static-table';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { PageHeader } from '@/components/shell/page-header';
import { AutoRefresh } from '@/components/sync/sync-controls';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle, TitledCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { EditWebhookForm, EndpointControls } from '@/components/webhooks/endpoint-forms';
import { EndpointStatus } from '@/components/webhooks/endpoint-status';
import { ReplayButton, ReplayRangeForm, SendTestButton } from '@/components/webhooks/log-actions';
import { requireRole } from '@/lib/auth/guards';
import { countUnsentWebhookDeliveries, getWebhookEndpoint, listWebhookLog } from '@/lib/webhooks/queries';
import { UUID_RE } from '@/lib/executions/list-params';
import { formatNumber } from '@/lib/format';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Webhook endpoint' };

const STATE_TONE = {
  delivered: 'ok',
  failed: 'reject',
  cancelled: 'neutral',
  queued: 'warn',
  pending: 'info',
  delivering: 'info',
} as const;

export default async function WebhookEndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireRole('admin');
  const { id } = await params;
  if (!UUID_RE.test(id)) notFound();
  const endpoint = await getWebhookEndpoint(id.toLowerCase());
  if (!endpoint) notFound();
  const raw = (await searchParams).before;
  const before = typeof raw === 'string' && /^\d{1,18}$/.test(raw) ? Number(raw) : undefined;
  const [log, unsent] = await Promise.all([
    listWebhookLog(endpoint.id, { before }),
    countUnsentWebhookDeliveries(endpoint.id),
  ]);
  return (
    <>
      <AutoRefresh active={endpoint.waiting > 0} ms={1500} />
      <PageHeader
        title={endpoint.description || 'Webhook endpoint'}
        description={<span className="break-all">{endpoint.url}</span>}
        actions={
          <Link href="/admin/webhooks" className="text-sm text-primary hover:underline">
            All endpoints
          </Link>
        }
      />
      {!endpoint.enabled ? (
        <Alert tone="warn" className="mb-4">
          Disabled: nothing is sent to it. {endpoint.disabledReason}
        </Alert>
      ) : null}
      <div className="flex flex-col gap-6">
        <div className="min-w-0">
          <Card>
            <CardHeader className="flex-row items-center justify-between">
              <CardTitle>Delivery log</CardTitle>
              <div className="flex items-center gap-2 text-xs text-muted-fg">
                <EndpointStatus e={endpoint} />
                <span>
                  {formatNumber(endpoint.waiting)} waiting · {formatNumber(endpoint.delivered24h)} delivered and{' '}
                  {formatNumber(endpoint.failed24h)} failed in 24 h
                </span>
              </div>
            </CardHeader>
            <CardContent className="flex flex-col gap-3">
              <SendTestButton endpointId={endpoint.id} enabled={endpoint.enabled} />
              {unsent ? (
                <p className="text-xs text-muted-fg" role="status">
                  {formatNumber(unsent)} not sent yet.
                </p>
              ) : null}
              {log.rows.length === 0 ? (
                <EmptyState title={before ? 'No older attempts' : 'Nothing sent yet'}>
                  Every request to this endpoint shows here: when, the answer, how long it took, and the start of the
                  receiver&rsquo;s reply.
                </EmptyState>
              ) : (
                <StaticTable
                  caption="Delivery attempts, newest first"
                  rows={log.rows}
                  rowKey={(a) => a.id}
                  columns={[
                    { header: 'Time', className: 'whitespace-nowrap text-xs', cell: (a) => <LocalTime value={a.at} /> },
                    {
                      header: 'Event',
                      className: 'text-xs',
                      cell: (a) => (
                        <>
                          <div className="font-medium">{a.eventType}</div>
                          <div className="font-mono text-muted-fg">{a.eventId}</div>
                          <div className="text-muted-fg">
                            attempt {a.attempt}
                            {a.replay ? ' · replay' : ''}
                          </div>
                        </>
                      ),
                    },
                    {
                      header: 'Answer',
                      className: 'text-xs',
                      cell: (a) => (
                        <>
                          <div>{a.status !== null ? `HTTP ${a.status}` : a.error}</div>
                          <Badge tone={STATE_TONE[a.deliveryState]}>{a.deliveryState}</Badge>
                        </>
                      ),
                    },
                    {
                      header: 'Latency',
                      headerClassName: 'text-right',
                      className: 'text-right text-xs tabular-nums',
                      cell: (a) => `${formatNumber(a.latencyMs)} ms`,
                    },
                    {
                      header: 'Response',
                      className: 'max-w-56 text-xs',
                      cell: (a) => (
                        <span className="line-clamp-2 break-all text-muted-fg">{a.responseExcerpt ?? '—'}</span>
                      ),
                    },
                    {
                      header: srOnlyHeader('Actions'),
                      className: 'text-right',
                      cell: (a) => (
                        <ReplayButton
                          endpointId={endpoint.id}
                          deliveryId={a.deliveryId}
                          label={`${a.eventType} ${a.eventId}`}
                        />
                      ),
                    },
                  ]}
                />
              )}
              <nav aria-label="Log pages" className="flex justify-between text-sm">
                {before ? (
                  <Link href={`/admin/webhooks/${endpoint.id}`} className="text-primary hover:underline">
                    Newest
                  </Link>
                ) : (
                  <span />
                )}
                {log.nextBefore ? (
                  <Link
                    href={`/admin/webhooks/${endpoint.id}?before=${log.nextBefore}`}
                    className="text-primary hover:underline"
                  >
                    Older
                  </Link>
                ) : null}
              </nav>
            </CardContent>
          </Card>
        </div>
        <div className="grid gap-6 lg:grid-cols-3">
          <Card>
            <CardHeader>
              <CardTitle>Replay a time range</CardTitle>
              <p className="text-xs text-muted-fg">
                Sends again what this endpoint was sent between two times, each with its original webhook-id.
              </p>
            </CardHeader>
            <CardContent>
              <ReplayRangeForm endpointId={endpoint.id} />
            </CardContent>
          </Card>
          <TitledCard title="Settings">
            <EditWebhookForm endpoint={endpoint} />
          </TitledCard>
          <Card>
            <CardHeader>
              <CardTitle>Endpoint</CardTitle>
              <p className="text-xs text-muted-fg">
                Added <LocalTime value={endpoint.createdAt} />.
                {endpoint.previousSecretUntil ? (
                  <>
                    {' '}
                    The previous secret also signs until <LocalTime value={endpoint.previousSecretUntil} />.
                  </>
                ) : null}
              </p>
            </CardHeader>
            <CardContent>
              <EndpointControls endpoint={endpoint} />
            </CardContent>
          </Card>
        </div>
      </div>
    </>
  );
}
