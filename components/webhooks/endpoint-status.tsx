import type { StaticColumn } from '@/components/data-table/static-table';
import { LocalTime } from '@/components/time/local-time';
import { Badge } from '@/components/ui/badge';
import type { WebhookEndpointRow } from '@/lib/webhooks/queries';

/** One word for an endpoint's health: disabled, failing (a delivery keeps failing), waiting, healthy. */
export function EndpointStatus({ e }: { e: WebhookEndpointRow }) {
  if (!e.enabled) return <Badge tone="neutral">Disabled</Badge>;
  if (e.failingSince) return <Badge tone="reject">Failing</Badge>;
  if (e.lastStatus !== null && e.lastStatus >= 200 && e.lastStatus < 300) return <Badge tone="ok">Healthy</Badge>;
  if (e.waiting) return <Badge tone="info">Sending</Badge>;
  return <Badge tone="neutral">No deliveries yet</Badge>;
}

/** The last answer of the receiver, in words. */
export function lastAnswer(e: Pick<WebhookEndpointRow, 'lastStatus' | 'lastError'>): string {
  if (e.lastError) return e.lastError;
  if (e.lastStatus !== null) return `HTTP ${e.lastStatus}`;
  return '—';
}

/** The endpoint's last answer and when it came, as a column of the endpoint tables. */
export const lastAnswerColumn: StaticColumn<WebhookEndpointRow> = {
  header: 'Last answer',
  className: 'text-xs',
  cell: (e) => (
    <>
      <div>{lastAnswer(e)}</div>
      <div className="text-muted-fg">
        <LocalTime value={e.lastAttemptAt} />
      </div>
    </>
  ),
};
