import Link from 'next/link';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import type { FeedbackDeliveryStats } from '@/lib/feedback/queries';
import { formatNumber, shortId } from '@/lib/format';
import { cn } from '@/lib/utils';
import { labelText, ServiceError } from './history';
import { LocalTime } from '@/components/time/local-time';

/**
 * Feedback delivery on the sync page: is every label getting through to the service? The page
 * passes `getFeedbackDeliveryStats()` from lib/feedback/queries.
 */
export function FeedbackDeliveryStatsCard({ stats }: { stats: FeedbackDeliveryStats }) {
  const figures: Array<{ label: string; value: number; tone?: string; href?: string }> = [
    { label: 'Pending', value: stats.pending + stats.delivering, href: '/executions?feedback=pending' },
    { label: 'Retrying after an error', value: stats.retrying, tone: stats.retrying ? 'text-warn' : undefined },
    {
      label: 'Refused (need a look)',
      value: stats.failed,
      tone: stats.failed ? 'text-danger' : undefined,
      href: '/executions?feedback=failed',
    },
    { label: 'Awaiting approval', value: stats.awaitingApproval, href: '/approvals' },
    { label: 'Delivered in 24 h', value: stats.deliveredLast24h, tone: 'text-ok' },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Feedback delivery</CardTitle>
        <p className="text-xs text-muted-fg">
          Labels are stored first and sent with retries.{' '}
          {stats.oldestPendingAt ? (
            <>
              Oldest waiting since <LocalTime value={stats.oldestPendingAt} /> (
              <LocalTime value={stats.oldestPendingAt} shape="relative" />
              ).
            </>
          ) : (
            'Nothing is waiting.'
          )}
        </p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {figures.map((f) => (
            <div key={f.label}>
              <dt className="text-xs text-muted-fg">{f.label}</dt>
              <dd className={cn('text-xl font-semibold tabular-nums', f.tone)}>
                {f.href && f.value ? (
                  <Link href={f.href} className="hover:underline">
                    {formatNumber(f.value)}
                  </Link>
                ) : (
                  formatNumber(f.value)
                )}
              </dd>
            </div>
          ))}
        </dl>
        {stats.lastFailures.length ? (
          <div>
            <h3 className="text-xs font-medium text-muted-fg">Latest errors</h3>
            <ul className="mt-1 flex flex-col gap-1 text-xs">
              {stats.lastFailures.map((f) => (
                <li key={f.submissionId} className="flex flex-wrap gap-x-2">
                  <Link href={`/executions/${f.executionId}`} className="font-mono text-primary hover:underline">
                    {shortId(f.executionId)}
                  </Link>
                  <span>{labelText(f.status, f.reason)}</span>
                  <span className="text-muted-fg">
                    <LocalTime value={f.at} /> · {f.attempts} attempt{f.attempts === 1 ? '' : 's'}
                  </span>
                  <span className={f.error?.permanent ? 'text-danger' : 'text-warn'}>
                    {f.error ? <ServiceError error={f.error} /> : null}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
