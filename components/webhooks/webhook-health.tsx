import { NUMERIC, StaticTable } from '@/components/data-table/static-table';
import Link from 'next/link';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import type { WebhookEndpointRow } from '@/lib/webhooks/queries';
import { formatNumber } from '@/lib/format';
import { EndpointStatus, lastAnswerColumn } from './endpoint-status';
import { LocalTime } from '@/components/time/local-time';

/** Outgoing webhooks on the sync page: is every endpoint receiving? The page passes `listWebhookEndpoints()`. */
export function WebhookHealthCard({ endpoints }: { endpoints: WebhookEndpointRow[] }) {
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Outgoing webhooks</CardTitle>
        <Link href="/admin/webhooks" className="text-xs text-primary hover:underline">
          Manage endpoints
        </Link>
      </CardHeader>
      <CardContent>
        {endpoints.length === 0 ? (
          <p className="text-sm text-muted-fg">No endpoints: nothing is sent to other systems.</p>
        ) : (
          <StaticTable
            caption="Health of each webhook endpoint"
            rows={endpoints}
            rowKey={(e) => e.id}
            columns={[
              {
                header: 'Endpoint',
                className: 'max-w-80 truncate',
                cell: (e) => (
                  <Link href={`/admin/webhooks/${e.id}`} className="hover:underline" title={e.url}>
                    {e.description || e.url}
                  </Link>
                ),
              },
              {
                header: 'Status',
                cell: (e) => (
                  <>
                    <EndpointStatus e={e} />
                    {e.failingSince ? (
                      <div className="text-xs text-muted-fg">
                        since <LocalTime value={e.failingSince} shape="relative" />
                      </div>
                    ) : null}
                  </>
                ),
              },
              { header: 'Waiting', ...NUMERIC, cell: (e) => formatNumber(e.waiting) },
              { header: 'Delivered 24 h', ...NUMERIC, cell: (e) => formatNumber(e.delivered24h) },
              { header: 'Failed 24 h', ...NUMERIC, cell: (e) => formatNumber(e.failed24h) },
              lastAnswerColumn,
            ]}
          />
        )}
      </CardContent>
    </Card>
  );
}
