import type { Metadata } from 'next';
import { NUMERIC, StaticTable } from '@/components/data-table/static-table';
import Link from 'next/link';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, TitledCard } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { CreateWebhookForm } from '@/components/webhooks/endpoint-forms';
import { EndpointStatus, lastAnswerColumn } from '@/components/webhooks/endpoint-status';
import { requireRole } from '@/lib/auth/guards';
import { listWebhookEndpoints } from '@/lib/webhooks/queries';
import { formatNumber } from '@/lib/format';
import { describePolicy, outboundPolicyFromEnv } from '@/lib/webhooks/outbound';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function WebhooksPage() {
  await requireRole('admin');
  const endpoints = await listWebhookEndpoints();
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed HTTP requests (Standard Webhooks) to other systems when a case is resolved or escalated, feedback is delivered or refused, a spike appears or the sync fails."
      />
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <Card className="self-start">
          {endpoints.length === 0 ? (
            <CardContent className="pt-4">
              <EmptyState title="No endpoints yet">
                Add one on the right: Verdict then sends it the events it subscribes to, signed with its own secret.
              </EmptyState>
            </CardContent>
          ) : (
            <StaticTable
              caption="Webhook endpoints"
              rows={endpoints}
              rowKey={(e) => e.id}
              columns={[
                {
                  header: 'Endpoint',
                  className: 'max-w-72',
                  cell: (e) => (
                    <>
                      <Link href={`/admin/webhooks/${e.id}`} className="font-medium hover:underline">
                        {e.description || 'Endpoint'}
                      </Link>
                      <div className="truncate text-xs text-muted-fg" title={e.url}>
                        {e.url}
                      </div>
                    </>
                  ),
                },
                {
                  header: 'Events',
                  cell: (e) => (
                    <div className="flex max-w-64 flex-wrap gap-1">
                      {e.eventTypes.map((t) => (
                        <Badge key={t} tone="neutral">
                          {t}
                        </Badge>
                      ))}
                    </div>
                  ),
                },
                { header: 'Status', cell: (e) => <EndpointStatus e={e} /> },
                { header: 'Waiting', ...NUMERIC, cell: (e) => formatNumber(e.waiting) },
                lastAnswerColumn,
              ]}
            />
          )}
        </Card>
        <TitledCard title="Add an endpoint" className="self-start">
          <CreateWebhookForm destinations={describePolicy(outboundPolicyFromEnv())} />
        </TitledCard>
      </div>
    </>
  );
}
