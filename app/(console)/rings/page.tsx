import type { Metadata } from 'next';
import { NUMERIC, StaticTable } from '@/components/data-table/static-table';
import Link from 'next/link';
import { RingFiltersForm } from '@/components/rings/ring-filters';
import { RingKinds, RingStatusBadge } from '@/components/rings/ring-badges';
import { RingTrendsCard } from '@/components/rings/ring-trends-card';
import { PageHeader } from '@/components/shell/page-header';
import { Card } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { requireRole } from '@/lib/auth/guards';
import { formatNumber, formatPercent } from '@/lib/format';
import { parseRingFilters } from '@/lib/rings/params';
import { listRings, RINGS_PAGE_SIZE } from '@/lib/rings/queries';
import { getRingTrends } from '@/lib/rings/trends';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Rings' };

export default async function RingsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await requireRole('analyst');
  const filters = parseRingFilters(await searchParams);
  const [{ rows, total }, trends] = await Promise.all([listRings(filters), getRingTrends()]);
  const pages = Math.max(1, Math.ceil(total / RINGS_PAGE_SIZE));
  const pageHref = (page: number) => {
    const q = new URLSearchParams();
    if (filters.minSize !== 2) q.set('minSize', String(filters.minSize));
    if (filters.kind) q.set('kind', filters.kind);
    if (filters.growth) q.set('growth', filters.growth);
    if (filters.status !== 'open') q.set('status', filters.status);
    if (page > 1) q.set('page', String(page));
    return `/rings${q.size ? `?${q}` : ''}`;
  };
  return (
    <>
      <PageHeader
        title="Rings"
        description="Executions joined by a shared document, face, device, IP address, e-mail, phone or address, ranked by score. Values shared by very many executions are weak links: shown, never joined."
      />
      <RingTrendsCard trends={trends} />
      <RingFiltersForm filters={filters} />
      {rows.length ? (
        <Card>
          <StaticTable
            caption="Rings, highest score first"
            rows={rows}
            rowKey={(r) => r.id}
            columns={[
              {
                header: 'Ring',
                cell: (r) => (
                  <Link href={`/rings/${r.id}`} className="font-mono text-xs text-primary hover:underline">
                    Ring {r.id}
                  </Link>
                ),
              },
              { header: 'Score', ...NUMERIC, cell: (r) => r.score.toFixed(1) },
              { header: 'Members', ...NUMERIC, cell: (r) => formatNumber(r.size) },
              { header: 'Joined by', cell: (r) => <RingKinds kinds={r.linkKinds} /> },
              { header: 'Rejected', ...NUMERIC, cell: (r) => formatPercent(r.rejected / r.size) },
              { header: 'FRAUD', ...NUMERIC, cell: (r) => formatPercent(r.fraud / r.size) },
              {
                header: 'New 24 h / 7 d',
                ...NUMERIC,
                cell: (r) => `${formatNumber(r.growth24h)} / ${formatNumber(r.growth7d)}`,
              },
              {
                header: 'Last seen',
                className: 'whitespace-nowrap text-xs',
                cell: (r) => <LocalTime value={r.lastSeen} shape="relative" />,
              },
              { header: 'Status', cell: (r) => <RingStatusBadge status={r.status} /> },
            ]}
          />
          <nav
            aria-label="Pages"
            className="flex items-center justify-between border-t border-border px-3 py-2 text-sm"
          >
            <span className="text-muted-fg">
              {formatNumber(total)} ring{total === 1 ? '' : 's'} · page {filters.page} of {pages}
            </span>
            <span className="flex gap-3">
              {filters.page > 1 ? <Link href={pageHref(filters.page - 1)}>Previous</Link> : null}
              {filters.page < pages ? <Link href={pageHref(filters.page + 1)}>Next</Link> : null}
            </span>
          </nav>
        </Card>
      ) : (
        <EmptyState title="No rings match">
          Rings form when executions share a document, face, device, IP address, e-mail, phone or address. Try a smaller
          minimum size or another status.
        </EmptyState>
      )}
    </>
  );
}
