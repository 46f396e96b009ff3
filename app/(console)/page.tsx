import type { Metadata } from 'next';
import { StaticTable } from '@/components/data-table/static-table';
import Link from 'next/link';
import { NextCaseButton } from '@/components/cases/next-case-button';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { requireUser } from '@/lib/auth/guards';
import { myWorkFigureLinks } from '@/lib/cases/figures';
import { getMyWork, MY_CASES_SHOWN } from '@/lib/cases/my-work';
import { getOverview } from '@/lib/executions/overview';
import { listHref } from '@/lib/executions/list-params';
import { formatDuration, formatNumber, shortId } from '@/lib/format';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'My work' };

/** One figure of the start page: a number that is a link to the list of exactly what it counts. */
function Figure({ label, value, href, tone }: { label: string; value: string; href: string; tone?: 'bad' }) {
  return (
    <Link
      href={href}
      className="group rounded-lg border border-border bg-card p-4 hover:border-primary focus-visible:outline-2"
    >
      <span className="block text-xs font-medium text-muted-fg">{label}</span>
      <span
        className={
          tone === 'bad'
            ? 'mt-1 block text-2xl font-semibold tabular-nums text-reject group-hover:underline'
            : 'mt-1 block text-2xl font-semibold tabular-nums group-hover:underline'
        }
      >
        {value}
      </span>
    </Link>
  );
}

/**
 * The analyst's start page: my claimed cases by due time, "Next case", what waits for me (QA
 * reviews, approvals for managers) and my last 7 days; each number links to its filtered list
 * (lib/cases/figures.ts). The cache's own figures follow, smaller.
 */
export default async function MyWorkPage() {
  const user = await requireUser();
  const [w, o] = await Promise.all([getMyWork(user), getOverview()]);
  const links = myWorkFigureLinks(user.id);
  const now = w.asOf.getTime();
  return (
    <>
      <PageHeader title={`Welcome, ${user.name}`} description="Your cases, what waits for you, and your week." />
      <section aria-labelledby="now-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="now-heading" className="text-sm font-semibold">
            Now
          </h2>
          <NextCaseButton />
          <span className="text-xs text-muted-fg">
            {formatNumber(w.openInMyQueues)} open {w.openInMyQueues === 1 ? 'case' : 'cases'} in your queues
          </span>
        </div>
        <div className="grid gap-3 sm:grid-cols-3 xl:grid-cols-5">
          <Figure label="My claimed cases" value={formatNumber(w.claimed)} href={listHref(links.claimed)} />
          <Figure
            label="Overdue"
            value={formatNumber(w.overdue)}
            href={listHref(links.overdue)}
            tone={w.overdue ? 'bad' : undefined}
          />
          <Figure label="Due within 24 hours" value={formatNumber(w.dueSoon)} href={listHref(links.dueSoon)} />
          <Figure label="QA reviews waiting for me" value={formatNumber(w.qaWaiting)} href="/qa" />
          {w.approvalsWaiting !== null ? (
            <Figure label="Approvals waiting" value={formatNumber(w.approvalsWaiting)} href="/approvals" />
          ) : null}
        </div>
      </section>

      <section aria-labelledby="cases-heading" className="mt-6">
        <Card>
          <CardHeader className="flex flex-row items-center justify-between">
            <CardTitle id="cases-heading">My cases by due time</CardTitle>
            {w.claimed > 0 ? (
              <Link className="text-sm text-primary underline" href={listHref(links.claimed)}>
                {w.claimed > MY_CASES_SHOWN ? `All ${formatNumber(w.claimed)} in the list` : 'Open in the list'}
              </Link>
            ) : null}
          </CardHeader>
          <CardContent>
            {w.cases.length ? (
              <StaticTable
                caption="Cases you hold, earliest due first"
                rows={w.cases}
                rowKey={(c) => c.executionId}
                columns={[
                  {
                    header: 'Case',
                    cell: (c) => (
                      <Link className="font-mono text-primary underline" href={`/executions/${c.executionId}`}>
                        {shortId(c.executionId)}
                      </Link>
                    ),
                  },
                  { header: 'Queue', cell: (c) => c.queue },
                  {
                    header: 'Due',
                    cell: (c) => (
                      <>
                        <LocalTime value={c.dueAt} shape="relative" now={now} />{' '}
                        {c.overdue ? <Badge tone="reject">Overdue</Badge> : null}
                      </>
                    ),
                  },
                  { header: 'Decision', cell: (c) => c.decision ?? '—' },
                  {
                    header: 'Claimed',
                    cell: (c) => (c.claimedAt ? <LocalTime value={c.claimedAt} shape="relative" now={now} /> : '—'),
                  },
                ]}
              />
            ) : (
              <EmptyState title="You hold no cases">
                Press “Next case” (or n) to take the next one of your queues.
              </EmptyState>
            )}
          </CardContent>
        </Card>
      </section>

      <section aria-labelledby="week-heading" className="mt-6">
        <h2 id="week-heading" className="mb-3 text-sm font-semibold">
          My last 7 days
        </h2>
        <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
          <Figure label="Resolved" value={formatNumber(w.week.resolved)} href={listHref(links.resolved7d)} />
          <Figure label="Approved" value={formatNumber(w.week.approved)} href={listHref(links.approved7d)} />
          <Figure label="Declined" value={formatNumber(w.week.declined)} href={listHref(links.declined7d)} />
          <Figure
            label="Median time to resolve"
            value={w.week.medianSeconds === null ? '—' : formatDuration(w.week.medianSeconds)}
            href={listHref(links.resolved7d)}
          />
        </div>
      </section>

      <section aria-labelledby="cache-heading" className="mt-6">
        <h2 id="cache-heading" className="mb-2 text-sm font-semibold">
          The cache
        </h2>
        <p className="text-sm text-muted-fg">
          {o.exact ? formatNumber(o.total) : `About ${formatNumber(o.total)}`} executions; {formatNumber(o.last24h)}{' '}
          created in the last 24 hours, {formatNumber(o.rejected24h)} of them rejected; the newest{' '}
          <LocalTime value={o.newest} />.
          {o.total === 0
            ? user.role === 'admin'
              ? ' The cache is empty: executions arrive through callbacks and the background sync (see Sync).'
              : ' The cache is empty: executions arrive through callbacks and the background sync.'
            : ''}
        </p>
      </section>
    </>
  );
}
