import Link from 'next/link';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import type { WebhookEndpointRow } from '@/lib/webhooks/queries';
import { formatNumber } from '@/lib/format';
import { EndpointStatus, lastAnswer } from './endpoint-status';
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
          <Table>
            <caption className="sr-only">Health of each webhook endpoint</caption>
            <THead>
              <TR>
                <TH>Endpoint</TH>
                <TH>Status</TH>
                <TH className="text-right">Waiting</TH>
                <TH className="text-right">Delivered 24 h</TH>
                <TH className="text-right">Failed 24 h</TH>
                <TH>Last answer</TH>
              </TR>
            </THead>
            <TBody>
              {endpoints.map((e) => (
                <TR key={e.id}>
                  <TD className="max-w-80 truncate">
                    <Link href={`/admin/webhooks/${e.id}`} className="hover:underline" title={e.url}>
                      {e.description || e.url}
                    </Link>
                  </TD>
                  <TD>
                    <EndpointStatus e={e} />
                    {e.failingSince ? (
                      <div className="text-xs text-muted-fg">
                        since <LocalTime value={e.failingSince} shape="relative" />
                      </div>
                    ) : null}
                  </TD>
                  <TD className="text-right tabular-nums">{formatNumber(e.waiting)}</TD>
                  <TD className="text-right tabular-nums">{formatNumber(e.delivered24h)}</TD>
                  <TD className="text-right tabular-nums">{formatNumber(e.failed24h)}</TD>
                  <TD className="text-xs">
                    <div>{lastAnswer(e)}</div>
                    <div className="text-muted-fg">
                      <LocalTime value={e.lastAttemptAt} />
                    </div>
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
