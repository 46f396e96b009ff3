import type { Metadata } from 'next';
import Link from 'next/link';
import { PageHeader } from '@/components/shell/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { requireUser } from '@/lib/auth/guards';
import { getOverview } from '@/lib/data/overview';
import { formatDateTime, formatNumber } from '@/lib/format';

export const metadata: Metadata = { title: 'Overview' };

export default async function OverviewPage() {
  const user = await requireUser();
  const o = await getOverview();
  const stats = [
    { label: 'Executions in the cache', value: o.exact ? formatNumber(o.total) : `about ${formatNumber(o.total)}` },
    { label: 'Created in the last 24 hours', value: formatNumber(o.last24h) },
    { label: 'Rejected in the last 24 hours', value: formatNumber(o.rejected24h) },
    { label: 'Newest execution', value: formatDateTime(o.newest) },
  ];
  return (
    <>
      <PageHeader title={`Welcome, ${user.name}`} description="What has arrived from the verification service." />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {stats.map((s) => (
          <Card key={s.label}>
            <CardHeader>
              <CardTitle className="text-xs font-medium text-muted-fg">{s.label}</CardTitle>
            </CardHeader>
            <CardContent className="text-2xl font-semibold tabular-nums">{s.value}</CardContent>
          </Card>
        ))}
      </div>
      {o.total === 0 ? (
        <p className="mt-6 text-sm text-muted-fg">
          The cache is empty. Executions arrive through callbacks and the background sync
          {user.role === 'admin' ? (
            <>
              {' '}
              — see{' '}
              <Link className="text-primary underline" href="/sync">
                Sync
              </Link>
            </>
          ) : null}
          .
        </p>
      ) : null}
    </>
  );
}
